package dev.dictum.whisper.testutil;

import dev.dictum.whisper.format.ggml.GgmlMelFilters;
import dev.dictum.whisper.format.WhisperDims;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link RandomWhisper} model as a whisper.cpp ggml file, tensor by tensor (a large-v3
 * is never on the heap whole), in the layout of shared/tools/hf_to_ggml.py and whisper.cpp's
 * loader. Tensor types follow whisper.cpp: 2-D weights and the token embedding in the file type,
 * conv kernels f16 (f32 in an f32 file), 1-D tensors, conv biases ([n_state, 1]) and positional
 * embeddings f32.
 */
public final class GgmlWriter {

    /** File types: the ggml type of the big tensors and hparams.ftype (quantized: 1000 x GGML_QNT_VERSION 2 + ftype). */
    public enum Type {
        F32(0, 0), F16(1, 1), Q8_0(8, 2007), Q5_0(6, 2008), Q5_1(7, 2009), Q4_0(2, 2002);

        public final int ggmlType;
        public final int ftype;

        Type(int ggmlType, int ftype) {
            this.ggmlType = ggmlType;
            this.ftype = ftype;
        }
    }

    /**
     * Where things are in the written file, for tests that cut or patch it.
     *
     * @param tensorOffsets canonical name to the offset of its tensor header, in file order
     */
    public record Written(Path file, long filtersOffset, long vocabOffset, Map<String, Long> tensorOffsets,
            long size) {
    }

    private GgmlWriter() {
    }

    public static Written write(Path file, WhisperDims d, long seed, Type type) {
        Map<String, Long> offsets = new LinkedHashMap<>();
        long filtersOffset;
        long vocabOffset;
        try (LeOutput out = new LeOutput(file)) {
            out.i32(0x67676d6c);
            for (int v : new int[] {d.nVocab(), d.nAudioCtx(), d.nAudioState(), d.nAudioHead(), d.nAudioLayer(),
                    d.nTextCtx(), d.nTextState(), d.nTextHead(), d.nTextLayer(), d.nMels(), type.ftype}) {
                out.i32(v);
            }
            filtersOffset = out.position();
            GgmlMelFilters filters = ToyVocabularies.melFilters(d.nMels());
            out.i32(filters.nMel()).i32(filters.nFft());
            for (float f : filters.values()) {
                out.f32(f);
            }
            vocabOffset = out.position();
            List<byte[]> tokens = ToyVocabularies.textTokens(d.nVocab());
            out.i32(tokens.size());
            for (byte[] t : tokens) {
                out.i32(t.length).bytes(t);
            }
            for (var e : RandomWhisper.shapes(d).entrySet()) {
                offsets.put(e.getKey(), out.position());
                tensor(out, e.getKey(), RandomWhisper.values(e.getKey(), e.getValue(), seed), type);
            }
            return new Written(file, filtersOffset, vocabOffset, offsets, out.position());
        }
    }

    private static void tensor(LeOutput out, String name, RandomWhisper.Tensor t, Type type) {
        long[] shape = t.shape();
        boolean convBias = name.equals("encoder.conv1.bias") || name.equals("encoder.conv2.bias");
        if (convBias) {
            shape = new long[] {shape[0], 1};
        }
        int ggmlType = tensorType(name, shape.length, type);
        byte[] nameBytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.i32(shape.length).i32(nameBytes.length).i32(ggmlType);
        for (int i = shape.length - 1; i >= 0; i--) {
            out.i32((int) shape[i]);
        }
        out.bytes(nameBytes);
        float[] v = t.values();
        switch (ggmlType) {
            case 0 -> {
                for (float x : v) {
                    out.f32(x);
                }
            }
            case 1 -> {
                for (float x : v) {
                    out.f16(x);
                }
            }
            default -> {
                for (int off = 0; off < v.length; off += GgmlQuantizer.QK) {
                    switch (type) {
                        case Q8_0 -> GgmlQuantizer.q8_0(v, off, out);
                        case Q5_0 -> GgmlQuantizer.q5_0(v, off, out);
                        case Q5_1 -> GgmlQuantizer.q5_1(v, off, out);
                        case Q4_0 -> GgmlQuantizer.q4_0(v, off, out);
                        default -> throw new IllegalStateException(type.name());
                    }
                }
            }
        }
    }

    /** The ggml type whisper.cpp gives this tensor in a file of {@code type}. */
    public static int tensorType(String name, int rank, Type type) {
        boolean small = rank < 2 || name.endsWith("positional_embedding") || name.equals("encoder.conv1.bias")
                || name.equals("encoder.conv2.bias");
        if (small || type == Type.F32) {
            return 0;
        }
        if (rank == 3 || type == Type.F16) {
            return 1;
        }
        return type.ggmlType;
    }
}
