package dev.dictum.whisper.format.ct2;

import dev.dictum.gpu.DType;

/**
 * CTranslate2's DataType ids (include/ctranslate2/types.h; model_spec.py _dtype_to_type_id) with
 * Dictum's dtype for those it reads as weights. INT16 ({@code --quantization int16}, one scale
 * for the whole matrix) and INT32 (scalars only) have none.
 */
enum Ct2DType {
    FLOAT32(4, DType.F32),
    INT8(1, DType.I8),
    INT16(2, null),
    INT32(4, null),
    FLOAT16(2, DType.F16),
    BFLOAT16(2, DType.BF16);

    final int itemSize;
    /** Null where Dictum cannot use the type for a weight. */
    final DType dtype;

    Ct2DType(int itemSize, DType dtype) {
        this.itemSize = itemSize;
        this.dtype = dtype;
    }

    /** The type with this id (binary version 4 and later), or null. */
    static Ct2DType byId(int id) {
        return id >= 0 && id < values().length ? values()[id] : null;
    }

    /**
     * Binary versions 1 to 3 stored only the item size; CTranslate2 itself reads 4 as float32,
     * 2 as int16 and 1 as int8 (model.cc get_dtype_from_item_size). Null for other sizes.
     */
    static Ct2DType byItemSize(int size) {
        return switch (size) {
            case 4 -> FLOAT32;
            case 2 -> INT16;
            case 1 -> INT8;
            default -> null;
        };
    }

    String spelling() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
