package dev.dictum.gpu.backend;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which GPUs failed during work in this process. A failed one is not used again until a fresh
 * self-test passes on it ({@link #needsSelfTest}, {@link #passed}).
 */
public final class GpuHealth {
    private static final Map<String, String> FAILED = new ConcurrentHashMap<>();

    private GpuHealth() {
    }

    public static void failed(String backendName, String why) {
        FAILED.put(key(backendName), why);
    }

    public static boolean needsSelfTest(String backendName) {
        return FAILED.containsKey(key(backendName));
    }

    /** Why it was marked, or null. */
    public static String failure(String backendName) {
        return FAILED.get(key(backendName));
    }

    public static void passed(String backendName) {
        FAILED.remove(key(backendName));
    }

    private static String key(String name) {
        int i = name.indexOf(' ');
        return i < 0 ? name : name.substring(0, i);
    }
}
