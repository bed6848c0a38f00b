package dev.dictum.gpu.discovery;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.WString;
import com.sun.jna.win32.StdCallLibrary;
import java.nio.file.Path;

/**
 * Makes a directory the place Windows looks for DLLs before the HIP runtime is loaded, so that
 * {@code amdhip64_6.dll}'s own dependencies ({@code amd_comgr0602.dll}, ...) come from the same SDK
 * and not from whatever else is on PATH (the Python notes' {@code os.add_dll_directory}).
 */
final class WindowsDllDirectory {
    private WindowsDllDirectory() {
    }

    interface Kernel32 extends StdCallLibrary {
        boolean SetDllDirectoryW(WString path);

        Pointer AddDllDirectory(WString path);
    }

    /** Returns a line for doctor saying what was done. */
    static String use(Path dir) {
        Kernel32 k = Native.load("kernel32", Kernel32.class);
        boolean set = k.SetDllDirectoryW(new WString(dir.toString()));
        Pointer cookie = k.AddDllDirectory(new WString(dir.toString()));
        return "DLL search directory set to " + dir + " (SetDllDirectory " + (set ? "ok" : "failed")
                + ", AddDllDirectory " + (cookie != null ? "ok" : "failed") + ")";
    }
}
