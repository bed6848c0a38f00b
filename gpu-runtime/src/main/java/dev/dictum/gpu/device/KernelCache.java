package dev.dictum.gpu.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The modules loaded on one device, each loaded exactly once however many threads ask for it at
 * the same time (seed 003: a shared cache raced under parallel tests). {@code computeIfAbsent}
 * holds the map's bin lock while a module loads, so a second caller waits for the first one's
 * module instead of loading its own or seeing a half-made one.
 */
public final class KernelCache implements AutoCloseable {
    private final Device device;
    private final KernelImages images;
    private final Map<String, Module> modules = new ConcurrentHashMap<>();

    public KernelCache(Device device, KernelImages images) {
        this.device = device;
        this.images = images;
    }

    public Module module(String name) {
        return modules.computeIfAbsent(name, n -> {
            KernelImages.Image image = images.image(device.driver().api(), device.props(), n);
            device.bind();
            long handle = device.driver().moduleLoadData(image.bytes(), n);
            return new Module(device, n, image.path(), handle);
        });
    }

    public Kernel kernel(String module, String kernel) {
        return module(module).kernel(kernel);
    }

    /** Registers per thread of every kernel of {@code moduleNames}, as the runtime reports them (doctor). */
    public Map<String, Integer> registers(List<String> moduleNames) {
        Map<String, Integer> out = new java.util.TreeMap<>();
        for (String m : moduleNames) {
            for (String k : images.kernelsOf(m)) {
                out.put(k, kernel(m, k).registers());
            }
        }
        return out;
    }

    /** Which images are loaded, for {@code doctor}. */
    public List<String> loadedImages() {
        List<String> out = new ArrayList<>();
        modules.values().forEach(m -> out.add(m.image()));
        out.sort(null);
        return out;
    }

    @Override
    public void close() {
        modules.values().forEach(Module::close);
        modules.clear();
    }
}
