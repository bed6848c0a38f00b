package dev.dictum.app.dictation;

import io.github.givimad.whisperjni.WhisperContext;
import io.github.givimad.whisperjni.WhisperFullParams;
import io.github.givimad.whisperjni.WhisperJNI;
import io.github.givimad.whisperjni.WhisperSamplingStrategy;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * ReleaseBench's peer, apart so that the bench runs without whisper-jni on the class path (the GPU
 * bundle has none): only this class touches it. BENCHMARK ONLY.
 */
final class WhisperCppPeer {
    private WhisperCppPeer() {
    }

    /** whisper.cpp transcribing the whole recording at the release, model loaded: median wall ms. */
    static double medianMs(Path model, float[] clip, int runs) throws Exception {
        WhisperJNI.loadLibrary();
        WhisperJNI jni = new WhisperJNI();
        try (WhisperContext c = jni.init(model)) {
            WhisperFullParams p = new WhisperFullParams(WhisperSamplingStrategy.GREEDY);
            p.nThreads = 2;
            p.language = "en";
            p.noTimestamps = true;
            p.printProgress = false;
            p.printRealtime = false;
            p.printTimestamps = false;
            p.temperature = 0f;
            p.temperatureInc = 0f;
            jni.full(c, p, clip, clip.length); // warm-up
            long[] ms = new long[runs];
            for (int i = 0; i < runs; i++) {
                long t0 = System.nanoTime();
                jni.full(c, p, clip, clip.length);
                ms[i] = System.nanoTime() - t0;
            }
            Arrays.sort(ms);
            return ms[runs / 2] / 1e6;
        }
    }

}
