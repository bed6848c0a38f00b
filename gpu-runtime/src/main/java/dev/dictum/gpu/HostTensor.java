package dev.dictum.gpu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A weight tensor in host memory, usually a slice of a memory-mapped model file (never copied to
 * the Java heap). {@code shape} is row-major, outermost first, in PyTorch order: a linear layer's
 * weight is {@code [out, in]}, a conv1d weight {@code [out, in, kernel]}.
 *
 * @param name      the canonical (OpenAI checkpoint) name, e.g. {@code encoder.blocks.0.attn.query.weight}
 * @param dtype     element type of {@code data}
 * @param shape     dimensions, outermost first
 * @param data      exactly {@code dtype.bytesFor(elementCount())} bytes
 * @param rowScales for {@link DType#I8} only: one f32 scale per row of the outermost dimension; else null
 */
public record HostTensor(String name, DType dtype, long[] shape, MemorySegment data, MemorySegment rowScales) {

    public HostTensor {
        shape = shape.clone();
        long count = 1;
        for (long d : shape) {
            if (d <= 0) {
                throw new IllegalArgumentException(name + ": dimension " + d + " in shape " + Arrays.toString(shape));
            }
            count = Math.multiplyExact(count, d);
        }
        long want = dtype.bytesFor(count);
        if (data.byteSize() != want) {
            throw new IllegalArgumentException(name + ": " + dtype + Arrays.toString(shape) + " needs " + want
                    + " bytes, has " + data.byteSize());
        }
        if ((dtype == DType.I8) != (rowScales != null)) {
            throw new IllegalArgumentException(name + ": row scales go with I8 and only with I8");
        }
    }

    public HostTensor(String name, DType dtype, long[] shape, MemorySegment data) {
        this(name, dtype, shape, data, null);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public long dim(int i) {
        return shape[i];
    }

    public long elementCount() {
        long c = 1;
        for (long d : shape) {
            c *= d;
        }
        return c;
    }

    /**
     * Rows when seen as a matrix: the outermost dimension. Every kernel reads a weight this way (a
     * linear weight {@code [out, in]}, a conv weight {@code [out, in, k]} as {@code [out, in·k]}, a
     * vector as a column), and block quantisation and int8 row scales run along it.
     */
    public long rows() {
        return shape[0];
    }

    /** Columns when seen as a matrix: everything inside the outermost dimension. */
    public long cols() {
        return elementCount() / shape[0];
    }

    public String describe() {
        return name + " " + dtype + Arrays.toString(shape);
    }
}
