package dev.dictum.gpu.backend;

import dev.dictum.gpu.HostTensor;
import dev.dictum.gpu.LayerTurns;
import dev.dictum.gpu.Weight;
import dev.dictum.gpu.device.DeviceBuffer;
import dev.dictum.gpu.device.GpuDriver;
import dev.dictum.gpu.device.Stream;

/**
 * Layers whose weights take turns in two device slots (issue 22: a model larger than the device's free
 * memory). The first layers stay resident; each of the last {@code inTurns} is uploaded once through its
 * slot (converted there as any weight is), copied back into page-locked host memory, and from then on
 * copied in again before every pass reaches it.
 *
 * <p>The copies run on a stream of their own, so the copy of layer s+1 overlaps layer s's kernels:
 * {@link #enter}(s) makes the compute stream wait for s's copy, then records that everything queued so
 * far (through layer s-1, the other slot's occupant) is done with the other slot and queues s+1's copy
 * into it behind that event. {@link #begin} queues the first two copies before the pass, so they overlap
 * the convolutions and the resident layers. Copying a layer takes its bytes over the bus (large-v3's
 * encoder block: 39 MB, ~1.6 ms at PCIe 4.0 x16's ~25 GB/s against ~9 ms of its kernels on the
 * RX 5700 XT on paper), so the kernels rarely wait.
 *
 * <p>Every call holds {@code lock} (the backend's), as the backend's ops do: the compute stream is
 * shared with them.
 */
final class GpuLayerTurns implements LayerTurns {
    private static final int SLOTS = LayerTurns.DEVICE_SLOTS;

    private final Object lock;
    private final GpuDriver driver;
    private final Stream compute;
    private final Stream copies;
    private final GpuMemory memory;
    /** Layers {@code [0, resident)} are uploaded once; the rest take turns. */
    private final int resident;
    private final Weight[][] weights;
    /** Per layer in turns (index s = layer - resident): its slot image in page-locked host memory. */
    private final long[] host;
    private final long slotBytes;
    private final DeviceBuffer slots;
    /** Per slot: recorded on the copy stream after the copy into it. */
    private final long[] copied = new long[SLOTS];
    /** Per slot: recorded on the compute stream once everything queued before a copy into it is queued. */
    private final long[] free = new long[SLOTS];
    /** Per slot: the layer in turns it holds or is being copied in (-1: none). */
    private final int[] holding = new int[SLOTS];
    /** Per slot: whether a copy into it was queued (the compute stream has its event to wait for). */
    private final boolean[] copyQueued = new boolean[SLOTS];
    private boolean closed;

    /**
     * Uploads {@code layers}: {@code [0, layers.length - inTurns)} resident through {@code memory}, the rest
     * into the slots and back to host memory. {@code inTurns} must be at least {@link #SLOTS} + 1 (fewer
     * would save nothing).
     */
    GpuLayerTurns(Object lock, GpuDriver driver, Stream compute, GpuMemory memory, HostTensor[][] layers,
            int inTurns) {
        if (inTurns <= SLOTS || inTurns > layers.length) {
            throw new IllegalArgumentException("layers in turns must be " + (SLOTS + 1) + ".." + layers.length
                    + ", got " + inTurns);
        }
        this.lock = lock;
        this.driver = driver;
        this.compute = compute;
        this.memory = memory;
        this.resident = layers.length - inTurns;
        this.weights = new Weight[layers.length][];
        for (int i = 0; i < resident; i++) {
            weights[i] = new Weight[layers[i].length];
            for (int j = 0; j < layers[i].length; j++) {
                weights[i][j] = memory.upload(layers[i][j]);
            }
        }
        HostTensor[] shape = layers[resident];
        long[] offsets = new long[shape.length];
        long bytes = 0;
        for (int j = 0; j < shape.length; j++) {
            offsets[j] = bytes;
            bytes += align(GpuBackend.weightBytes(shape[j]));
        }
        this.slotBytes = bytes;
        this.host = new long[inTurns];
        this.copies = compute.device().newStream();
        DeviceBuffer s = null;
        try {
            s = memory.weightSlots(SLOTS * slotBytes);
            for (int k = 0; k < SLOTS; k++) {
                copied[k] = driver.eventCreate();
                free[k] = driver.eventCreate();
                holding[k] = -1;
            }
            for (int t = 0; t < inTurns; t++) {
                HostTensor[] layer = layers[resident + t];
                if (layer.length != shape.length) {
                    throw new IllegalArgumentException("layer " + (resident + t) + " has " + layer.length
                            + " tensors, layer " + resident + " has " + shape.length);
                }
                long at = s.address() + (t % SLOTS) * slotBytes;
                weights[resident + t] = new Weight[layer.length];
                for (int j = 0; j < layer.length; j++) {
                    if (GpuBackend.weightBytes(layer[j]) != GpuBackend.weightBytes(shape[j])) {
                        throw new IllegalArgumentException(layer[j].describe() + " is not the size of "
                                + shape[j].describe());
                    }
                    weights[resident + t][j] = memory.uploadTo(layer[j], at + offsets[j]);
                }
                host[t] = driver.hostMalloc(slotBytes);
                compute.copyToHost(host[t], at, slotBytes);
                compute.synchronize();
                holding[t % SLOTS] = t;
            }
        } catch (RuntimeException e) {
            release(s);
            throw e;
        }
        this.slots = s;
    }

    private static long align(long bytes) {
        return (bytes + WeightArena.ALIGN - 1) / WeightArena.ALIGN * WeightArena.ALIGN;
    }

    @Override
    public Weight[] weights(int layer) {
        return weights[layer];
    }

    @Override
    public void begin() {
        synchronized (lock) {
            checkOpen();
            for (int t = 0; t < SLOTS; t++) {
                if (holding[t % SLOTS] != t) {
                    bringIn(t);
                }
            }
        }
    }

    @Override
    public void enter(int layer) {
        synchronized (lock) {
            checkOpen();
            if (layer < resident) {
                return;
            }
            int t = layer - resident;
            int slot = t % SLOTS;
            if (holding[slot] != t) {
                bringIn(t); // a pass that did not begin, or skipped a layer
            }
            if (copyQueued[slot]) {
                compute.waitFor(copied[slot]);
            }
            if (t + 1 < host.length && holding[(t + 1) % SLOTS] != t + 1) {
                bringIn(t + 1);
            }
        }
    }

    /**
     * Queues the copy of layer in turns {@code t} into its slot, behind everything the compute stream has
     * queued so far (the slot's previous layer's kernels among it).
     */
    private void bringIn(int t) {
        int slot = t % SLOTS;
        compute.record(free[slot]);
        copies.waitFor(free[slot]);
        copies.copyToDevice(slots.address() + slot * slotBytes, host[t], slotBytes);
        copies.record(copied[slot]);
        holding[slot] = t;
        copyQueued[slot] = true;
    }

    @Override
    public long hostBytes() {
        return host.length * slotBytes;
    }

    /** Layers that stay resident (tests). */
    int resident() {
        return resident;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("layer weights used after their backend closed");
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                copies.synchronize();
                compute.synchronize();
            } finally {
                release(slots);
            }
        }
    }

    /** Frees what the constructor made (any of it may be missing after a failure there). */
    private void release(DeviceBuffer s) {
        for (long h : host) {
            if (h != 0) {
                driver.hostFree(h);
            }
        }
        for (int k = 0; k < SLOTS; k++) {
            if (copied[k] != 0) {
                driver.eventDestroy(copied[k]);
            }
            if (free[k] != 0) {
                driver.eventDestroy(free[k]);
            }
        }
        copies.close();
        if (s != null) {
            memory.freeWeightSlots(s);
        }
    }
}
