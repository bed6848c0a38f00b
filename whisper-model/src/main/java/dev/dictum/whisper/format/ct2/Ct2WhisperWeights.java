package dev.dictum.whisper.format.ct2;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WhisperDims;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The canonical (OpenAI) tensors of a CTranslate2 WhisperSpec, as views of its variables.
 *
 * <p>The converter (converters/transformers.py, BartLoader.set_attention and utils.fuse_linear)
 * fuses self-attention q, k, v into {@code self_attention/linear_0} ([3n, n] rows q, k, v) and
 * cross-attention k, v into {@code attention/linear_1} ([2n, n]), with {@code attention/linear_0}
 * the query; the fused bias gives k, which has none, a zero block. Rows are contiguous, so each
 * part is a free slice; k's zero bias block is checked and dropped.
 *
 * <p>int8 weights (LinearSpec, Conv1DSpec and EmbeddingsSpec have {@code weight_scale}) store
 * q = rint(w * scale) with scale = 127 / max|row| per output row (model_spec.py _quantize), and
 * CTranslate2 dequantizes with w = q * (1 / scale) (ops/dequantize_cpu.cc). {@link HostTensor}'s
 * row scales mean w = q * rowScale, so the row scales are 1 / weight_scale, computed once into
 * the source's arena.
 */
final class Ct2WhisperWeights {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Ct2Binary bin;
    private final String file;
    private final Arena arena;
    private final Map<String, HostTensor> tensors = new LinkedHashMap<>();
    private final Map<String, MemorySegment> rowScales = new HashMap<>();

    private Ct2WhisperWeights(Ct2Binary bin, String file, Arena arena) {
        this.bin = bin;
        this.file = file;
        this.arena = arena;
    }

    /** Canonical name to tensor; derived row scales are allocated in {@code arena}. */
    static Map<String, HostTensor> canonical(Ct2Binary bin, WhisperDims dims, Arena arena, String file) {
        Ct2WhisperWeights w = new Ct2WhisperWeights(bin, file, arena);
        w.encoder(dims);
        w.decoder(dims);
        return w.tensors;
    }

    private void encoder(WhisperDims dims) {
        linear("encoder/conv1", "encoder.conv1");
        linear("encoder/conv2", "encoder.conv2");
        whole("encoder/position_encodings/encodings", "encoder.positional_embedding");
        for (int i = 0; i < dims.nAudioLayer(); i++) {
            String s = "encoder/layer_" + i + "/";
            String c = "encoder.blocks." + i + ".";
            selfAttention(s + "self_attention/", c + "attn", dims.nAudioState());
            norm(s + "self_attention/layer_norm", c + "attn_ln");
            feedForward(s, c);
        }
        norm("encoder/layer_norm", "encoder.ln_post");
    }

    private void decoder(WhisperDims dims) {
        // decoder/projection/weight is the same matrix (an alias in files from the converter): tied.
        whole("decoder/embeddings/weight", "decoder.token_embedding.weight");
        whole("decoder/position_encodings/encodings", "decoder.positional_embedding");
        for (int i = 0; i < dims.nTextLayer(); i++) {
            String s = "decoder/layer_" + i + "/";
            String c = "decoder.blocks." + i + ".";
            selfAttention(s + "self_attention/", c + "attn", dims.nTextState());
            norm(s + "self_attention/layer_norm", c + "attn_ln");
            crossAttention(s + "attention/", c + "cross_attn", dims.nTextState());
            norm(s + "attention/layer_norm", c + "cross_attn_ln");
            feedForward(s, c);
        }
        norm("decoder/layer_norm", "decoder.ln");
    }

    private void feedForward(String scope, String canonical) {
        linear(scope + "ffn/linear_0", canonical + "mlp.0");
        linear(scope + "ffn/linear_1", canonical + "mlp.2");
        norm(scope + "ffn/layer_norm", canonical + "mlp_ln");
    }

    private void selfAttention(String scope, String canonical, int n) {
        split(scope + "linear_0/weight", n, canonical + ".query.weight", canonical + ".key.weight",
                canonical + ".value.weight");
        split(scope + "linear_0/bias", n, canonical + ".query.bias", null, canonical + ".value.bias");
        linear(scope + "linear_1", canonical + ".out");
    }

    private void crossAttention(String scope, String canonical, int n) {
        linear(scope + "linear_0", canonical + ".query");
        split(scope + "linear_1/weight", n, canonical + ".key.weight", canonical + ".value.weight");
        split(scope + "linear_1/bias", n, null, canonical + ".value.bias");
        linear(scope + "linear_2", canonical + ".out");
    }

    private void linear(String scope, String canonical) {
        whole(scope + "/weight", canonical + ".weight");
        whole(scope + "/bias", canonical + ".bias");
    }

    private void norm(String scope, String canonical) {
        whole(scope + "/gamma", canonical + ".weight");
        whole(scope + "/beta", canonical + ".bias");
    }

    private void whole(String name, String canonical) {
        Ct2Variable v = require(name);
        if (v.isScalar()) {
            throw error("variable " + name + " is a scalar, expected a tensor");
        }
        tensors.put(canonical, rows(v, canonical, 0, v.shape()[0]));
    }

    /**
     * Splits a fused variable into equal row blocks of {@code n} rows; a null canonical name
     * marks k's bias block, which must be zero.
     */
    private void split(String name, int n, String... canonical) {
        Ct2Variable v = require(name);
        if (v.isScalar() || v.shape()[0] != (long) n * canonical.length) {
            throw error("variable " + name + " has shape " + Arrays.toString(v.shape()) + ", expected "
                    + canonical.length + " x " + n + " fused rows");
        }
        for (int part = 0; part < canonical.length; part++) {
            HostTensor t = rows(v, name, (long) part * n, n);
            if (canonical[part] != null) {
                tensors.put(canonical[part], withName(t, canonical[part]));
            } else if (!Ct2Values.allZero(v.type(), t.data())) {
                throw error("variable " + name + " gives the attention key a bias, which Whisper does not have");
            }
        }
    }

    /** Rows [start, start + count) of the outermost dimension: a slice, with the matching row scales for int8. */
    private HostTensor rows(Ct2Variable v, String canonical, long start, long count) {
        DType dtype = v.type().dtype;
        if (dtype == null) {
            throw error("variable " + v.name() + " is " + v.type().spelling()
                    + (v.type() == Ct2DType.INT16 ? " (CTranslate2's int16 quantization), which Dictum does not read;"
                            + " convert the model with int8 or float16 quantization" : ", not a weight type"));
        }
        if (bin.find(v.name() + "_zero") != null) {
            throw error("variable " + v.name() + " is AWQ-quantized, which Dictum does not read");
        }
        long[] shape = v.shape().clone();
        for (long d : shape) {
            if (d == 0) {
                throw error("variable " + v.name() + " has an empty dimension in " + Arrays.toString(shape));
            }
        }
        long rowBytes = v.data().byteSize() / shape[0];
        shape[0] = count;
        MemorySegment data = v.data().asSlice(start * rowBytes, count * rowBytes);
        MemorySegment scales = dtype == DType.I8 ? rowScales(v).asSlice(4 * start, 4 * count) : null;
        return new HostTensor(canonical, dtype, shape, data, scales);
    }

    /** 1 / weight_scale for each output row of an int8 variable, computed once. */
    private MemorySegment rowScales(Ct2Variable weight) {
        MemorySegment cached = rowScales.get(weight.name());
        if (cached != null) {
            return cached;
        }
        String name = weight.name() + "_scale";
        Ct2Variable scale = bin.find(name);
        long rows = weight.shape()[0];
        if (scale == null) {
            throw error("int8 variable " + weight.name() + " has no " + name);
        }
        if (scale.type().dtype == null || scale.type() == Ct2DType.INT8 || !Arrays.equals(scale.shape(),
                new long[] {rows})) {
            throw error("variable " + name + " is " + scale.type().spelling() + Arrays.toString(scale.shape())
                    + ", expected one real scale for each of the " + rows + " rows");
        }
        MemorySegment out = arena.allocate(4 * rows, 4);
        for (long r = 0; r < rows; r++) {
            float s = Ct2Values.real(scale.type(), scale.data(), r);
            if (!(s > 0) || Float.isInfinite(s)) {
                throw error("variable " + name + " has the scale " + s + " for row " + r);
            }
            out.set(F32, 4 * r, 1f / s);
        }
        rowScales.put(weight.name(), out);
        return out;
    }

    private Ct2Variable require(String name) {
        Ct2Variable v = bin.find(name);
        if (v == null) {
            throw error("missing variable " + name);
        }
        return v;
    }

    private static HostTensor withName(HostTensor t, String name) {
        return new HostTensor(name, t.dtype(), t.shape(), t.data(), t.rowScales());
    }

    private ModelFormatException error(String message) {
        return new ModelFormatException(file + ": " + message);
    }
}
