package dev.dictum.gpu.discovery;

import dev.dictum.gpu.device.CudaDriver;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.device.GpuException;
import dev.dictum.gpu.device.HipDriver;
import dev.dictum.gpu.device.KernelImages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Finds, loads and initialises the HIP and CUDA runtimes, turning every failure into a reason. */
public final class GpuRuntimes {
    private GpuRuntimes() {
    }

    public static RuntimeProbe probe(String api, ScanInputs in) {
        return api.equals("hip") ? probeHip(in) : probeCuda(in);
    }

    public static RuntimeProbe probeHip(ScanInputs in) {
        RocmScan.Result scan = RocmScan.scan(in);
        List<String> notes = new ArrayList<>(scan.notes());
        Optional<Path> lib = scan.library();
        if (lib.isEmpty()) {
            return new RuntimeProbe("hip", scan.scanned(), notes, null, null, null, List.of(),
                    "no HIP runtime found (" + (in.windows() ? RocmScan.WINDOWS_LIBRARY
                            : String.join(" or ", RocmScan.LINUX_LIBRARIES)) + ")");
        }
        if (in.windows()) {
            try {
                notes.add(WindowsDllDirectory.use(lib.get().getParent()));
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                notes.add("could not set the DLL search directory: " + e.getMessage());
            }
        }
        HipDriver driver;
        try {
            driver = HipDriver.load(lib.get());
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return new RuntimeProbe("hip", scan.scanned(), notes, lib.get().toString(), null, null, List.of(),
                    "cannot load " + lib.get() + ": " + firstLine(e.getMessage()));
        }
        return initialise("hip", driver, scan.scanned(), notes, lib.get().toString(), 0);
    }

    public static RuntimeProbe probeCuda(ScanInputs in) {
        String name = in.windows() ? "nvcuda.dll" : "libcuda.so.1";
        List<String> scanned = List.of(name + " through the system loader");
        CudaDriver driver;
        try {
            driver = CudaDriver.load(in.windows() ? "nvcuda" : name);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return new RuntimeProbe("cuda", scanned, List.of(), null, null, null, List.of(),
                    "no NVIDIA driver (" + name + " cannot be loaded: " + firstLine(e.getMessage()) + ")");
        }
        int needed;
        try {
            needed = KernelImages.load().cudaBuildVersion();
        } catch (RuntimeException e) {
            needed = 0;
        }
        return initialise("cuda", driver, scanned, new ArrayList<>(), driver.library(), needed);
    }

    /** Version, driver age, init, devices; package-private for tests with a stand-in driver. */
    static RuntimeProbe initialise(String api, GpuDriver driver, List<String> scanned, List<String> notes,
            String library, int cudaNeeded) {
        String version = null;
        try {
            version = driver.runtimeVersion();
            if (api.equals("hip")) {
                version += " (driver " + driver.driverVersion() + ")";
            }
        } catch (GpuException e) {
            notes.add("version unknown: " + e.getMessage());
        }
        try {
            if (cudaNeeded > 0 && driver.driverVersion() < cudaNeeded) {
                int have = driver.driverVersion();
                return new RuntimeProbe(api, scanned, notes, library, version, driver, List.of(),
                        "the NVIDIA driver supports CUDA " + have / 1000 + "." + have % 1000 / 10
                                + ", but Dictum's kernels were built with CUDA " + cudaNeeded / 1000 + "."
                                + cudaNeeded % 1000 / 10 + ": update the NVIDIA driver");
            }
            driver.init();
            int n = driver.deviceCount();
            if (n == 0) {
                return new RuntimeProbe(api, scanned, notes, library, version, driver, List.of(), "no device found");
            }
            List<DeviceProps> devices = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                devices.add(driver.properties(i));
            }
            return new RuntimeProbe(api, scanned, notes, library, version, driver, List.copyOf(devices), null);
        } catch (GpuException e) {
            return new RuntimeProbe(api, scanned, notes, library, version, driver, List.of(), e.getMessage());
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        // JNA lists each place it tried; the loader's own reason ("cannot open shared object file",
        // "invalid ELF header") is the line worth showing.
        return s.lines().filter(l -> l.contains("cannot open") || l.contains("invalid ELF") || l.contains("too short")
                || l.contains("not a valid") || l.contains("wrong ELF")).map(String::strip).findFirst()
                .orElse(s.lines().findFirst().orElse(s).strip().replaceAll(":$", ""));
    }
}
