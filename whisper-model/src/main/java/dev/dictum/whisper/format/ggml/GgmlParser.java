package dev.dictum.whisper.format.ggml;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ByteCursor;
import dev.dictum.whisper.format.UntrustedText;
import dev.dictum.whisper.format.WhisperTensorLayout;
import dev.dictum.whisper.format.WhisperDims;
import dev.dictum.whisper.tokenizer.SpecialTokens;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads whisper.cpp's legacy ggml layout (the one its whisper_model_load reads and our
 * hf_to_ggml.py writes), all little-endian: magic "ggml", eleven int32 hparams, the mel filters
 * (int32 n_mel, n_fft, f32 values), the BPE vocabulary (int32 count, then uint32 length + bytes
 * each), then tensors until the end of the file (int32 n_dims, name length, ggml type;
 * int32 ne[n_dims] innermost first; the name; the raw data). Every field is untrusted.
 */
final class GgmlParser {
    static final int MAGIC = 0x67676d6c;
    /** whisper.cpp's hparams.ftype = ftype + 1000 x GGML_QNT_VERSION; quantized blocks changed layout before version 2. */
    private static final int QNT_VERSION_FACTOR = 1000;
    private static final int QNT_VERSION = 2;
    private static final int MAX_TOKEN_BYTES = 1024;
    private static final int MAX_NAME_BYTES = 256;
    private static final int MAX_FFT_BINS = 4096;
    /** Far above any Whisper tensor (large-v3's token embedding has 2^26), far below overflow. */
    private static final long MAX_ELEMENTS = 1L << 34;

    private GgmlParser() {
    }

    static GgmlContents parse(MemorySegment file, String name) {
        ByteCursor in = new ByteCursor(file, name);
        int magic = in.i32("the magic number");
        if (magic != MAGIC) {
            throw in.error(String.format("not a whisper.cpp ggml file (magic 0x%08x, expected 0x%08x)", magic, MAGIC));
        }
        int[] hp = new int[11];
        for (int i = 0; i < hp.length; i++) {
            hp[i] = in.i32("the hyper-parameters");
        }
        WhisperDims dims = dims(hp, in);
        int ftype = hp[10];
        if (ftype < 0 || ftype / QNT_VERSION_FACTOR > QNT_VERSION) {
            throw in.error("ftype = " + ftype + " is not a ggml file type");
        }
        GgmlMelFilters filters = melFilters(in, dims);
        List<byte[]> tokens = vocabulary(in, dims);
        Map<String, HostTensor> tensors = tensors(in, dims, ftype / QNT_VERSION_FACTOR);
        return new GgmlContents(dims, ftype, filters, tokens, tensors);
    }

    private static WhisperDims dims(int[] hp, ByteCursor in) {
        try {
            // File order: n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
            // n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype.
            return new WhisperDims(hp[9], hp[1], hp[2], hp[3], hp[4], hp[0], hp[5], hp[6], hp[7], hp[8]);
        } catch (IllegalArgumentException e) {
            throw in.error("impossible hyper-parameters: " + e.getMessage());
        }
    }

    private static GgmlMelFilters melFilters(ByteCursor in, WhisperDims dims) {
        int nMel = in.i32("the mel filters");
        int nFft = in.i32("the mel filters");
        if (nMel != dims.nMels()) {
            throw in.error("the file has " + nMel + " mel filters for a model of " + dims.nMels() + " mel bins");
        }
        if (nFft < 1 || nFft > MAX_FFT_BINS) {
            throw in.error("the mel filters have " + nFft + " frequency bins, outside [1, " + MAX_FFT_BINS + "]");
        }
        MemorySegment raw = in.slice(4L * nMel * nFft, "the mel filters");
        float[] values = new float[nMel * nFft];
        ByteCursor f = new ByteCursor(raw, in.file());
        for (int i = 0; i < values.length; i++) {
            values[i] = f.f32("the mel filters");
        }
        return new GgmlMelFilters(nMel, nFft, values);
    }

    private static List<byte[]> vocabulary(ByteCursor in, WhisperDims dims) {
        int count = in.i32("the vocabulary");
        int textTokens = SpecialTokens.forVocabSize(dims.nVocab()).eot();
        if (count < textTokens || count > dims.nVocab()) {
            throw in.error("the vocabulary has " + count + " tokens; a model of " + dims.nVocab() + " tokens needs its "
                    + textTokens + " text tokens and at most " + dims.nVocab());
        }
        List<byte[]> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long length = in.u32("the vocabulary");
            if (length > MAX_TOKEN_BYTES) {
                throw in.error("token " + i + " is " + length + " bytes long, over the limit of " + MAX_TOKEN_BYTES);
            }
            tokens.add(in.bytes((int) length, "the vocabulary"));
        }
        return tokens;
    }

    private static Map<String, HostTensor> tensors(ByteCursor in, WhisperDims dims, int qntVersion) {
        Map<String, long[]> layout = WhisperTensorLayout.shapes(dims);
        Map<String, HostTensor> tensors = new LinkedHashMap<>();
        while (!in.atEnd()) {
            String header = "the header of tensor #" + tensors.size();
            int nDims = in.i32(header);
            int nameLength = in.i32(header);
            int typeId = in.i32(header);
            if (nDims < 1 || nDims > 4) {
                throw in.error("tensor #" + tensors.size() + " has " + nDims + " dimensions, outside [1, 4]");
            }
            if (nameLength < 1 || nameLength > MAX_NAME_BYTES) {
                throw in.error("tensor #" + tensors.size() + " has a name of " + nameLength + " bytes, outside [1, "
                        + MAX_NAME_BYTES + "]");
            }
            long[] ne = new long[nDims];
            for (int i = 0; i < nDims; i++) {
                ne[i] = in.i32(header);
            }
            String name = utf8(in.bytes(nameLength, header), in);
            String quoted = UntrustedText.quoted(name);
            GgmlType type = GgmlType.byId(typeId);
            if (type == null) {
                throw in.error("tensor " + quoted + " has " + GgmlType.describeUnsupported(typeId));
            }
            if (type.dtype.isQuantized() && qntVersion != QNT_VERSION) {
                throw in.error("tensor " + quoted + " is quantized in the layout of ggml quantization version "
                        + qntVersion + "; re-quantize the model with a current whisper.cpp");
            }
            if (tensors.containsKey(name)) {
                throw in.error("tensor " + quoted + " appears twice");
            }
            long[] shape = canonicalShape(ne, name, quoted, type.dtype, layout.get(name), in);
            long bytes = type.dtype.bytesFor(elements(shape, quoted, in));
            MemorySegment data = in.slice(bytes, "the data of tensor " + quoted);
            tensors.put(name, new HostTensor(name, type.dtype, shape, data));
        }
        return tensors;
    }

    /**
     * ne is innermost first; PyTorch order is the reverse. Where that differs from the canonical
     * shape only by dimensions of size 1 (conv biases are stored as [n_state, 1]), the canonical
     * shape is used: same bytes, same rows, provided a quantized tensor keeps its row length.
     */
    private static long[] canonicalShape(long[] ne, String name, String quoted, DType dtype, long[] canonical,
            ByteCursor in) {
        long[] shape = new long[ne.length];
        for (int i = 0; i < ne.length; i++) {
            if (ne[i] < 1) {
                throw in.error("tensor " + quoted + " has dimension " + ne[i] + " in " + Arrays.toString(ne));
            }
            shape[ne.length - 1 - i] = ne[i];
        }
        if (dtype.isQuantized() && ne[0] % dtype.blockSize() != 0) {
            throw in.error("tensor " + quoted + " is " + dtype + " with rows of " + ne[0] + " values, not a multiple of "
                    + dtype.blockSize());
        }
        if (canonical != null && !Arrays.equals(shape, canonical)
                && WhisperTensorLayout.sameUpToUnitDims(shape, canonical)
                && (!dtype.isQuantized() || canonical[canonical.length - 1] == ne[0])) {
            return canonical.clone();
        }
        return shape;
    }

    private static long elements(long[] shape, String quoted, ByteCursor in) {
        long count = 1;
        for (long d : shape) {
            // Checked before multiplying: four int32 factors could overflow a long.
            if (count > MAX_ELEMENTS / d) {
                throw in.error("tensor " + quoted + " has shape " + Arrays.toString(shape) + ", more than 2^34 elements");
            }
            count *= d;
        }
        return count;
    }

    private static String utf8(byte[] bytes, ByteCursor in) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw in.error("a tensor name is not UTF-8");
        }
    }
}
