package dev.dictum.gpu.backend;

import static dev.dictum.gpu.backend.GpuMemory.anyBuf;
import static dev.dictum.gpu.backend.GpuMemory.buf;
import static dev.dictum.gpu.backend.GpuMemory.checkRange;
import static dev.dictum.gpu.backend.LaunchGeometry.BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.CROSS_BLOCK;
import static dev.dictum.gpu.backend.LaunchGeometry.MAX_GRID;
import static dev.dictum.gpu.backend.LaunchGeometry.ceil;
import static dev.dictum.gpu.backend.LaunchGeometry.crossChunks;

import dev.dictum.gpu.Buffer;
import dev.dictum.gpu.device.DeviceProps;
import dev.dictum.gpu.device.KernelArgs;
import dev.dictum.gpu.device.KernelCache;
import dev.dictum.gpu.device.Stream;

/**
 * The launches of the cross-attention keys' and values' way (issue 22): the keys transposed into their
 * buffer (f32, or rounded to f16 by transpose_f32_to_f16) and the decoder's cross-attention reading
 * them, whose entry follows how the keys and values are stored (cross_attention_f32*, or
 * cross_attention_f16kv* for the f16 buffers of Backend#allocateHalf that the model uses on the GPU).
 * Called under {@link GpuBackend}'s lock.
 */
final class CrossKvOps {
    private final Stream stream;
    private final KernelCache kernels;
    private final GpuMemory memory;
    private final DeviceProps props;

    CrossKvOps(Stream stream, KernelCache kernels, GpuMemory memory, DeviceProps props) {
        this.stream = stream;
        this.kernels = kernels;
        this.memory = memory;
        this.props = props;
    }

    void crossAttention(Buffer q, int rows, Buffer keysT, int keysStride, Buffer values, int keys, int heads,
            int headDim, Buffer out) {
        if (rows == 0) {
            return;
        }
        GpuBuffer k = anyBuf(keysT);
        GpuBuffer v = anyBuf(values);
        if (k.half() != v.half()) {
            throw new IllegalArgumentException("cross-attention keys and values stored alike (both f16 or both f32)");
        }
        int d = heads * headDim;
        checkRange(buf(q), 0, (long) rows * d);
        checkRange(buf(out), 0, (long) rows * d);
        checkRange(k, 0, (long) (d - 1) * keysStride + keys);
        checkRange(v, 0, (long) keys * d);
        int warp = props.warpSize();
        int chunks = crossChunks(rows, keys, heads, headDim, props.multiprocessors());
        int chunk = ceil(keys, chunks);
        int block = Math.max(CROSS_BLOCK, ceil(headDim, warp) * warp);
        // Every Whisper's heads are 64 wide: that entry keeps a key's 64 channels in flight and sums
        // P·V in float4 groups, whose partials take 4 × block floats instead of block.
        boolean hd64 = headDim == 64 && block <= 256;
        int shared = 4 * (chunk + headDim + 64 + (hd64 ? 4 : 1) * block);
        if (shared > 48 * 1024) {
            throw new IllegalArgumentException("cross-attention over " + keys + " keys needs " + shared
                    + " bytes of shared memory (48 KiB at most)");
        }
        String entry = (k.half() ? "cross_attention_f16kv" : "cross_attention_f32") + (hd64 ? "_hd64" : "");
        kernels.kernel("cross_attention", entry).launch(stream, heads, rows, chunks, block, shared,
                new KernelArgs().ptr(buf(q).at(0)).i32(rows).ptr(k.at(0)).i32(keysStride).ptr(v.at(0)).i32(keys)
                        .i32(heads).i32(headDim).ptr(buf(out).at(0)).ptr(memory.crossPartials())
                        .ptr(memory.crossTickets()));
    }

    void transpose(Buffer src, int rows, int cols, Buffer dst, int dstStride) {
        if (rows == 0 || cols == 0) {
            return;
        }
        GpuBuffer d = anyBuf(dst);
        checkRange(buf(src), 0, (long) rows * cols);
        checkRange(d, 0, (long) (cols - 1) * dstStride + rows);
        kernels.kernel("transpose", d.half() ? "transpose_f32_to_f16" : "transpose_f32").launch(stream,
                ceil(cols, 32), Math.min(ceil(rows, 32), MAX_GRID), 1, BLOCK, 0, new KernelArgs()
                        .ptr(buf(src).at(0)).i32(rows).i32(cols).ptr(d.at(0)).i32(dstStride));
    }
}
