package dev.dictum.gpu.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * The weights' device memory, packed into chunks of {@link #CHUNK} (issue 22, where large-v3's memory
 * went): the driver hands out device memory in 2 MiB pages, so one allocation per weight rounds most of
 * a model's matrices up (large-v3's 1280 × 1280 f16 matrix, 3.125 MiB, takes 4; its MLP's 12.5 MiB take
 * 14: about 530 MiB over its 2944 MiB of weights, 250 for turbo). Here each weight takes the first chunk
 * with room for it (256-byte aligned), so the small ones fill the room the large ones leave; a weight
 * larger than a chunk gets an allocation of its own. Weights are never freed one by one: everything goes
 * at {@link #close} (the backend's). {@code B} is the allocation's type (a DeviceBuffer; tests use
 * their own).
 */
final class WeightArena<B> implements AutoCloseable {
    /** A multiple of the driver's 2 MiB page; large-v3 packs into 3024 MiB of chunks (per weight: 3475). */
    static final long CHUNK = 16L << 20;
    /** Every weight starts 256-byte aligned (the kernels' widest loads need 16). */
    static final long ALIGN = 256;

    private final LongFunction<B> allocate;
    private final ToLongFunction<B> address;
    private final ToLongFunction<B> bytes;
    private final Consumer<B> free;
    private final List<B> chunks = new ArrayList<>();
    private final List<Long> used = new ArrayList<>();

    WeightArena(LongFunction<B> allocate, ToLongFunction<B> address, ToLongFunction<B> bytes, Consumer<B> free) {
        this.allocate = allocate;
        this.address = address;
        this.bytes = bytes;
        this.free = free;
    }

    /** The device address of {@code size} bytes for one weight, kept until {@link #close}. */
    long place(long size) {
        long need = (size + ALIGN - 1) / ALIGN * ALIGN;
        for (int i = 0; i < chunks.size(); i++) {
            if (used.get(i) + need <= bytes.applyAsLong(chunks.get(i))) {
                return take(i, need);
            }
        }
        chunks.add(allocate.apply(Math.max(CHUNK, need)));
        used.add(0L);
        return take(chunks.size() - 1, need);
    }

    private long take(int chunk, long need) {
        long at = used.get(chunk);
        used.set(chunk, at + need);
        return address.applyAsLong(chunks.get(chunk)) + at;
    }

    /** Bytes allocated from the device for weights (chunks and the weights larger than one). */
    long allocatedBytes() {
        long sum = 0;
        for (B c : chunks) {
            sum += bytes.applyAsLong(c);
        }
        return sum;
    }

    @Override
    public void close() {
        chunks.forEach(free);
        chunks.clear();
        used.clear();
    }
}
