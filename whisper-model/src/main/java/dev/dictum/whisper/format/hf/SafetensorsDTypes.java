package dev.dictum.whisper.format.hf;

import dev.dictum.gpu.DType;

/** The safetensors element types the engine reads; checkpoints of Whisper are stored in one of these. */
final class SafetensorsDTypes {
    private SafetensorsDTypes() {
    }

    /** The engine's type for a safetensors dtype name, or null if it is not F32, F16 or BF16. */
    static DType of(String name) {
        return switch (name) {
            case "F32" -> DType.F32;
            case "F16" -> DType.F16;
            case "BF16" -> DType.BF16;
            default -> null;
        };
    }

    /** Bytes of one element of a type that {@link #of} accepts. */
    static int elementBytes(DType type) {
        return switch (type) {
            case F32 -> 4;
            case F16, BF16 -> 2;
            default -> throw new IllegalArgumentException(type + " is not a safetensors type");
        };
    }
}
