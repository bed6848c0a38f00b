package dev.dictum.app.engine;

import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.gpu.Backend;
import dev.dictum.gpu.MemoryFit;
import dev.dictum.gpu.MemoryReport;
import dev.dictum.gpu.backend.GpuBackend;
import dev.dictum.whisper.session.WhisperEngine;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Before a model is loaded on a GPU (issue 22): whether it fits the device's free memory, by the
 * model's estimate of the least it needs ({@link WhisperEngine#gpuMemoryNeed}, from its dimensions alone,
 * its encoder's blocks taking turns) against what the driver reports
 * free now (cuMemGetInfo / hipMemGetInfo; the backend's own context is already in use), with
 * {@link MemoryFit}'s margin. A model that does not fit runs on the CPU, never silently: the notice
 * names what it needs, what is free and on which device, and an installed model that would fit.
 */
public final class GpuMemoryCheck {

    /** A model by the name the user knows it and the bytes it needs on a GPU. */
    public record Need(String model, long bytes) {
    }

    private GpuMemoryCheck() {
    }

    /**
     * The decision: null (the GPU) when {@code chosen} fits {@code freeBytes}; else the notice of the CPU
     * taking over, naming the largest of {@code installed} that would fit, if one does.
     */
    public static String decide(Need chosen, long freeBytes, String device, List<Need> installed) {
        if (MemoryFit.fits(chosen.bytes(), freeBytes)) {
            return null;
        }
        String instead = installed.stream()
                .filter(m -> !m.model().equals(chosen.model()) && MemoryFit.fits(m.bytes(), freeBytes))
                .max(Comparator.comparingLong(Need::bytes))
                .map(m -> " (" + m.model() + ", about " + gb(m.bytes()) + ", would fit)").orElse("");
        return chosen.model() + " needs about " + gb(chosen.bytes()) + " of GPU memory; " + gb(freeBytes)
                + " is free on " + device + ": using the CPU" + instead;
    }

    /**
     * {@link #decide} for the model at {@code path} on {@code backend} as it is now: null (nothing to
     * decide) where the backend has no device figures (the CPU) or the model cannot be read (its load
     * then says why). The other models are listed and opened only when the chosen one does not fit.
     */
    static String check(Path path, String name, Backend backend, Supplier<List<DiscoveredModel>> installed) {
        MemoryReport now = backend.memoryReport();
        if (!now.hasDeviceFigures()) {
            return null;
        }
        Need chosen = need(path, name);
        if (chosen == null || MemoryFit.fits(chosen.bytes(), now.deviceFree())) {
            return null;
        }
        List<Need> others = listed(installed).stream().filter(m -> !m.path().equals(path))
                .map(m -> need(m.path(), m.name())).filter(Objects::nonNull).toList();
        String device = backend instanceof GpuBackend g ? g.props().name() : backend.name();
        return decide(chosen, now.deviceFree(), device, others);
    }

    /** The models on disk; none where they cannot be listed (the notice then names no other). */
    private static List<DiscoveredModel> listed(Supplier<List<DiscoveredModel>> installed) {
        try {
            return installed.get();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** What the model at {@code path} needs on a GPU (its header read, nothing loaded); null if unreadable. */
    private static Need need(Path path, String name) {
        try {
            return new Need(name, WhisperEngine.gpuMemoryNeed(path));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** "4.6 GB": decimal gigabytes, as disks and cards are sold. */
    static String gb(long bytes) {
        return String.format(Locale.ROOT, "%.1f GB", bytes / 1e9);
    }
}
