package dev.dictum.app.bench;

import io.github.givimad.whisperjni.WhisperJNI;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * whisper.cpp's low-level C API (whisper.h of v1.7.1), called through the FFM API on the very
 * libwhisper.so.1 that whisper-jni 1.7.1 bundles and loads. BENCHMARK ONLY (test scope).
 *
 * <p>Why not only whisper-jni's Java API: it wraps whisper_full() and the segment getters, but exposes
 * neither whisper.cpp's timings (whisper_print_timings / per-state t_encode_us, t_decode_us), nor
 * max_tokens, nor whisper_encode()/whisper_decode(). The shared library it extracts does export
 * them (plain C symbols, scalar and pointer arguments only), so we bind them here:
 * whisper_encode() runs the encoder alone on a 30 s window (conv stem, transformer, and the
 * cross-attention K/V of every decoder layer, which whisper.cpp computes as part of encode), and
 * whisper_decode() runs one decoder step with the KV cache, so both can be timed directly.
 *
 * <p>whisper_print_timings() writes whisper.cpp's own counters (ggml_time_us around
 * whisper_encode_internal / whisper_decode_internal) to the whisper log; we capture the log
 * through whisper_log_set() and parse them as a cross-check of our System.nanoTime() numbers.
 */
@SuppressWarnings("restricted") // FFM downcalls into whisper.cpp: the point of this class
final class WhisperCppNative implements AutoCloseable {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT;
    private static final java.lang.foreign.AddressLayout PTR = ValueLayout.ADDRESS;

    private static SymbolLookup lookup;
    private static Path libraryFile;
    private static final List<String> LOAD_LOG = new ArrayList<>();
    private static final StringBuilder CAPTURED_LOG = new StringBuilder();
    private static volatile boolean capturing;
    private static volatile boolean echoLog;

    private static MethodHandle initFromFile;
    private static MethodHandle free;
    private static MethodHandle pcmToMel;
    private static MethodHandle encode;
    private static MethodHandle decode;
    private static MethodHandle getLogits;
    private static MethodHandle nVocab;
    private static MethodHandle nTextCtx;
    private static MethodHandle nLen;
    private static MethodHandle isMultilingual;
    private static MethodHandle tokenEot;
    private static MethodHandle tokenSot;
    private static MethodHandle tokenNot;
    private static MethodHandle tokenTranscribe;
    private static MethodHandle langId;
    private static MethodHandle tokenLang;
    private static MethodHandle tokenToStr;
    private static MethodHandle printTimings;
    private static MethodHandle resetTimings;
    private static MethodHandle printSystemInfo;

    private final MemorySegment ctx;
    private final Arena arena = Arena.ofConfined();

    /**
     * Loads whisper-jni's natives (it extracts libwhisper-jni.so, libwhisper.so.1 and the ggml build
     * matching the CPU's AVX2/FMA/F16C flags into java.io.tmpdir/whisper-jni-NNN and System.load()s
     * the JNI library; libwhisper.so.1 and libggml.so come in through its RUNPATH $ORIGIN), then binds
     * the C API of that same libwhisper.so.1.
     */
    static synchronized void load(boolean verbose) throws IOException {
        load(verbose, null);
    }

    /**
     * As {@link #load(boolean)}, or with {@code library} non-null: that libwhisper.so instead (a newer
     * whisper.cpp built from source; its libggml* come in through the build's RUNPATH). The functions
     * bound here kept their signatures from 1.7.1 to 1.9 (whisper_init_from_file is deprecated, not
     * gone, and takes the library's default context parameters).
     */
    static synchronized void load(boolean verbose, Path library) throws IOException {
        if (lookup != null) {
            return;
        }
        echoLog = verbose;
        if (library != null) {
            libraryFile = library.toAbsolutePath();
            lookup = SymbolLookup.libraryLookup(libraryFile, Arena.global());
        } else {
            WhisperJNI.loadLibrary(msg -> {
                LOAD_LOG.add(msg);
                if (verbose) {
                    System.err.println("[whisper-jni] " + msg);
                }
            });
            libraryFile = findMapped("libwhisper.so.1").orElse(null);
            lookup = libraryFile != null ? SymbolLookup.libraryLookup(libraryFile, Arena.global())
                    : SymbolLookup.loaderLookup(); // dlsym on libwhisper-jni.so also searches its dependencies
        }
        initFromFile = fn("whisper_init_from_file", FunctionDescriptor.of(PTR, PTR));
        free = fn("whisper_free", FunctionDescriptor.ofVoid(PTR));
        pcmToMel = fn("whisper_pcm_to_mel", FunctionDescriptor.of(I32, PTR, PTR, I32, I32));
        encode = fn("whisper_encode", FunctionDescriptor.of(I32, PTR, I32, I32));
        decode = fn("whisper_decode", FunctionDescriptor.of(I32, PTR, PTR, I32, I32, I32));
        getLogits = fn("whisper_get_logits", FunctionDescriptor.of(PTR, PTR));
        nVocab = fn("whisper_n_vocab", FunctionDescriptor.of(I32, PTR));
        nTextCtx = fn("whisper_n_text_ctx", FunctionDescriptor.of(I32, PTR));
        nLen = fn("whisper_n_len", FunctionDescriptor.of(I32, PTR));
        isMultilingual = fn("whisper_is_multilingual", FunctionDescriptor.of(I32, PTR));
        tokenEot = fn("whisper_token_eot", FunctionDescriptor.of(I32, PTR));
        tokenSot = fn("whisper_token_sot", FunctionDescriptor.of(I32, PTR));
        tokenNot = fn("whisper_token_not", FunctionDescriptor.of(I32, PTR));
        tokenTranscribe = fn("whisper_token_transcribe", FunctionDescriptor.of(I32, PTR));
        langId = fn("whisper_lang_id", FunctionDescriptor.of(I32, PTR));
        tokenLang = fn("whisper_token_lang", FunctionDescriptor.of(I32, PTR, I32));
        tokenToStr = fn("whisper_token_to_str", FunctionDescriptor.of(PTR, PTR, I32));
        printTimings = fn("whisper_print_timings", FunctionDescriptor.ofVoid(PTR));
        resetTimings = fn("whisper_reset_timings", FunctionDescriptor.ofVoid(PTR));
        printSystemInfo = fn("whisper_print_system_info", FunctionDescriptor.of(PTR));
        installLogCallback();
    }

    /** The absolute path of a library mapped into this process, from /proc/self/maps (Linux). */
    private static Optional<Path> findMapped(String fileName) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int slash = line.indexOf('/');
                if (slash >= 0 && line.endsWith("/" + fileName)) {
                    return Optional.of(Path.of(line.substring(slash)));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall back to the loader lookup
        }
        return Optional.empty();
    }

    private static MethodHandle fn(String name, FunctionDescriptor d) {
        MemorySegment addr = lookup.find(name)
                .orElseThrow(() -> new IllegalStateException("symbol " + name + " not found in " + libraryFile));
        return LINKER.downcallHandle(addr, d);
    }

    /** whisper_log_set(ggml_log_callback, user_data): void cb(enum ggml_log_level, const char *, void *). */
    private static void installLogCallback() {
        try {
            MethodHandle target = MethodHandles.lookup().findStatic(WhisperCppNative.class, "onLog",
                    MethodType.methodType(void.class, int.class, MemorySegment.class, MemorySegment.class));
            MemorySegment stub = LINKER.upcallStub(target, FunctionDescriptor.ofVoid(I32, PTR, PTR), Arena.global());
            MethodHandle logSet = fn("whisper_log_set", FunctionDescriptor.ofVoid(PTR, PTR));
            logSet.invokeExact(stub, MemorySegment.NULL);
        } catch (Throwable t) {
            throw new IllegalStateException("whisper_log_set failed", t);
        }
    }

    @SuppressWarnings("unused") // called from native code
    private static void onLog(int level, MemorySegment text, MemorySegment user) {
        String s = text.equals(MemorySegment.NULL) ? "" : text.reinterpret(Long.MAX_VALUE).getString(0);
        synchronized (CAPTURED_LOG) {
            if (capturing) {
                CAPTURED_LOG.append(s);
            }
        }
        if (echoLog) {
            System.err.print(s);
        }
    }

    static List<String> loadLog() {
        return List.copyOf(LOAD_LOG);
    }

    static Path libraryFile() {
        return libraryFile;
    }

    /** whisper_version() where the library has it (1.7.2 and later), else null. */
    static String version() {
        return lookup.find("whisper_version").map(a -> {
            try {
                MemorySegment v = (MemorySegment) LINKER.downcallHandle(a, FunctionDescriptor.of(PTR)).invokeExact();
                return v.reinterpret(Long.MAX_VALUE).getString(0);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }).orElse(null);
    }

    static String systemInfo() {
        try {
            return ((MemorySegment) printSystemInfo.invokeExact()).reinterpret(Long.MAX_VALUE).getString(0).trim();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Deletes the libraries whisper-jni extracted and its temp folder (it marks the files
     * deleteOnExit but leaves an empty whisper-jni-NNN folder behind on every run). Unlinking a
     * mapped library is harmless on Linux.
     */
    static void deleteExtractedLibraries() {
        if (libraryFile == null) {
            return;
        }
        Path dir = libraryFile.getParent();
        if (dir == null || dir.getFileName() == null || !dir.getFileName().toString().matches("whisper-jni-\\d+")) {
            return; // a user-provided io.github.givimad.whisperjni.libdir: not ours to delete
        }
        try {
            for (String f : new String[] {"libwhisper-jni.so", "libwhisper.so.1", "libggml.so"}) {
                Files.deleteIfExists(dir.resolve(f));
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // leave it
        }
    }

    WhisperCppNative(Path model) {
        try {
            MemorySegment p = arena.allocateFrom(model.toAbsolutePath().toString());
            MemorySegment c = (MemorySegment) initFromFile.invokeExact(p);
            if (c.equals(MemorySegment.NULL)) {
                throw new IllegalArgumentException("whisper_init_from_file failed for " + model);
            }
            this.ctx = c;
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        } catch (Throwable t) {
            arena.close();
            throw rethrow(t);
        }
    }

    /** whisper_pcm_to_mel: log-mel of the samples plus 30 s of zero padding, into the state. */
    void pcmToMel(float[] samples, int threads) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocateFrom(ValueLayout.JAVA_FLOAT, samples);
            check("whisper_pcm_to_mel", (int) pcmToMel.invokeExact(ctx, s, samples.length, threads));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** whisper_encode(ctx, offset, n_threads): the encoder on mel frames [offset, offset + 2*n_audio_ctx). */
    void encode(int offset, int threads) {
        try {
            check("whisper_encode", (int) encode.invokeExact(ctx, offset, threads));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * whisper_decode(ctx, tokens, n_tokens, n_past, n_threads): one decoder pass over the tokens at
     * positions n_past...; it first drops the self-attention KV cells at positions >= n_past, so
     * restarting at n_past = 0 starts a fresh sequence.
     */
    void decode(MemorySegment tokens, int nTokens, int nPast, int threads) {
        try {
            check("whisper_decode", (int) decode.invokeExact(ctx, tokens, nTokens, nPast, threads));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The logits of row {@code row} of the last decode (whisper.cpp keeps n_tokens x n_vocab). */
    MemorySegment logitsRow(int row) {
        try {
            MemorySegment l = (MemorySegment) getLogits.invokeExact(ctx);
            long n = nVocab();
            return l.reinterpret((row + 1) * n * Float.BYTES).asSlice(row * n * Float.BYTES, n * Float.BYTES);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    int nVocab() {
        return callInt(nVocab);
    }

    int nTextCtx() {
        return callInt(nTextCtx);
    }

    int nLen() {
        return callInt(nLen);
    }

    boolean isMultilingual() {
        return callInt(isMultilingual) != 0;
    }

    int tokenEot() {
        return callInt(tokenEot);
    }

    int tokenSot() {
        return callInt(tokenSot);
    }

    int tokenNot() {
        return callInt(tokenNot);
    }

    int tokenTranscribe() {
        return callInt(tokenTranscribe);
    }

    /** whisper_token_lang(ctx, whisper_lang_id(code)), or -1 for an unknown code. */
    int tokenLang(String code) {
        try (Arena a = Arena.ofConfined()) {
            int id = (int) langId.invokeExact(a.allocateFrom(code));
            return id < 0 ? -1 : (int) tokenLang.invokeExact(ctx, id);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The raw bytes of a token (ggml vocabularies store byte-level BPE pieces as bytes). */
    byte[] tokenBytes(int token) {
        try {
            MemorySegment s = (MemorySegment) tokenToStr.invokeExact(ctx, token);
            return s.equals(MemorySegment.NULL) ? new byte[0]
                    : s.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.ISO_8859_1)
                            .getBytes(StandardCharsets.ISO_8859_1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void resetTimings() {
        try {
            resetTimings.invokeExact(ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** whisper.cpp's own counters, read by capturing whisper_print_timings() from the log. */
    record Timings(double encodeMs, int encodeRuns, double decodeMs, int decodeRuns, double batchdMs,
            int batchdRuns, String raw) {

        double encodeMsPerRun() {
            return encodeRuns == 0 ? Double.NaN : encodeMs / encodeRuns;
        }

        double decodeMsPerRun() {
            return decodeRuns == 0 ? Double.NaN : decodeMs / decodeRuns;
        }
    }

    Timings timings() {
        String raw;
        synchronized (CAPTURED_LOG) {
            CAPTURED_LOG.setLength(0);
            capturing = true;
        }
        try {
            printTimings.invokeExact(ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            synchronized (CAPTURED_LOG) {
                capturing = false;
                raw = CAPTURED_LOG.toString();
            }
        }
        double[] enc = parse(raw, "encode");
        double[] dec = parse(raw, "decode");
        double[] bat = parse(raw, "batchd");
        return new Timings(enc[0], (int) enc[1], dec[0], (int) dec[1], bat[0], (int) bat[1], raw);
    }

    /** "whisper_print_timings:   encode time =   123.45 ms /     3 runs (   41.15 ms per run)". */
    private static double[] parse(String raw, String what) {
        Matcher m = Pattern.compile(what + " time =\\s*([0-9.]+) ms /\\s*([0-9]+) runs").matcher(raw);
        return m.find() ? new double[] {Double.parseDouble(m.group(1)), Integer.parseInt(m.group(2))}
                : new double[] {Double.NaN, 0};
    }

    @Override
    public void close() {
        try {
            free.invokeExact(ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            arena.close();
        }
    }

    private int callInt(MethodHandle h) {
        try {
            return (int) h.invokeExact(ctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static void check(String what, int rc) {
        if (rc != 0) {
            throw new IllegalStateException(what + " returned " + rc);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
