package dev.dictum.whisper.format.ggml;

import dev.dictum.gpu.DType;
import java.util.Map;

/** The ggml tensor type ids (ggml.h {@code enum ggml_type}) that Whisper files use, and Dictum's dtype for each. */
enum GgmlType {
    F32(0, DType.F32),
    F16(1, DType.F16),
    Q4_0(2, DType.Q4_0),
    Q5_0(6, DType.Q5_0),
    Q5_1(7, DType.Q5_1),
    Q8_0(8, DType.Q8_0);

    /** Other ggml types, named so that the error for a file that uses one says which it is. */
    private static final Map<Integer, String> UNSUPPORTED = Map.of(3, "q4_1", 9, "q8_1", 10, "q2_K", 11, "q3_K",
            12, "q4_K", 13, "q5_K", 14, "q6_K", 15, "q8_K", 30, "bf16");

    final int id;
    final DType dtype;

    GgmlType(int id, DType dtype) {
        this.id = id;
        this.dtype = dtype;
    }

    /** The type with this id, or null if Dictum does not read it. */
    static GgmlType byId(int id) {
        for (GgmlType t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        return null;
    }

    /** How to name an id that {@link #byId} does not know, for messages. */
    static String describeUnsupported(int id) {
        String name = UNSUPPORTED.get(id);
        return name == null ? "unknown ggml type " + id : "ggml type " + id + " (" + name + "), which Dictum does not read";
    }
}
