package dev.dictum.whisper.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.MemoryCategory;
import dev.dictum.gpu.cpu.CpuBackend;
import dev.dictum.whisper.model.ScratchRegion.Phase;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 22 item 1: who holds the region the encoder and the decoders share. One lease at a time: another
 * thread waits for it, the same thread asking again is an error that names both phases (never a wait, never
 * two phases in one memory), a lease's buffers are gone once it is closed. The decoders' buffers (kept: 60
 * floats here) never move; the encoder's 50 lie over them and its 100 in the tail, which a trim frees and the
 * next encoder lease allocates again. The CPU holds every buffer on its own, so its ledger shows each.
 */
class ScratchRegionTest {
    private static final long KEPT = 4 * (30 + 20 + 10 + 50);
    private static final long TAIL = 4 * 100;
    private static final Map<Phase, long[]> LAYOUTS = Map.of(Phase.ENCODER, new long[] {100, 50},
            Phase.DECODER, new long[] {30, 20, 10});

    private static long held(CpuBackend be) {
        return be.memoryReport().byCategory().get(MemoryCategory.SHARED_SCRATCH).current();
    }

    @Test
    void eachPhaseGetsItsLayoutAndTheSameThreadCannotHoldTwoPhases() {
        CpuBackend be = new CpuBackend();
        try (ScratchRegion r = new ScratchRegion(be, MemoryCategory.SHARED_SCRATCH, LAYOUTS, Phase.DECODER)) {
            assertThat(held(be)).as("nothing before the first lease").isZero();
            try (ScratchRegion.Lease enc = r.acquire(Phase.ENCODER)) {
                assertThat(enc.buffer(0).floats()).isEqualTo(100);
                assertThat(enc.buffer(1).floats()).isEqualTo(50);
                assertThat(held(be)).as("the kept allocation and the tail").isEqualTo(KEPT + TAIL);
                assertThatThrownBy(() -> r.acquire(Phase.DECODER)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("DECODER").hasMessageContaining("ENCODER");
                assertThatThrownBy(() -> r.acquire(Phase.ENCODER)).isInstanceOf(IllegalStateException.class);
            }
            ScratchRegion.Lease dec = r.acquire(Phase.DECODER);
            assertThat(dec.buffer(2).floats()).isEqualTo(10);
            dec.close();
            dec.close(); // a second close gives back nothing more
            assertThatThrownBy(() -> dec.buffer(0)).hasMessageContaining("closed");
            try (ScratchRegion.Lease again = r.acquire(Phase.ENCODER)) {
                assertThat(again.generation()).isEqualTo(dec.generation());
            }
        }
        assertThat(held(be)).as("closed").isZero();
    }

    @Test
    void anotherThreadWaitsUntilTheLeaseIsClosed() throws Exception {
        CpuBackend be = new CpuBackend();
        try (ScratchRegion r = new ScratchRegion(be, MemoryCategory.SHARED_SCRATCH, LAYOUTS, Phase.DECODER)) {
            ScratchRegion.Lease dec = r.acquire(Phase.DECODER);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch got = new CountDownLatch(1);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread encoder = Thread.ofPlatform().start(() -> {
                started.countDown();
                try (ScratchRegion.Lease enc = r.acquire(Phase.ENCODER)) {
                    got.countDown();
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(got.await(300, TimeUnit.MILLISECONDS)).as("the encoder waits while a feed holds the region")
                    .isFalse();
            dec.close();
            assertThat(got.await(10, TimeUnit.SECONDS)).as("and gets it once the feed is done").isTrue();
            encoder.join(10_000);
            assertThat(failed.get()).isNull();
        }
    }

    @Test
    void aTrimFreesTheTailOnlyAndTheDecodersBuffersStayPut() throws Exception {
        CpuBackend be = new CpuBackend();
        try (ScratchRegion r = new ScratchRegion(be, MemoryCategory.SHARED_SCRATCH, LAYOUTS, Phase.DECODER)) {
            int generation;
            dev.dictum.gpu.Buffer decoders;
            try (ScratchRegion.Lease l = r.acquire(Phase.DECODER)) {
                generation = l.generation();
                decoders = l.buffer(0);
                assertThat(held(be)).as("a decoder needs no tail").isEqualTo(KEPT);
            }
            dev.dictum.gpu.Buffer head;
            dev.dictum.gpu.Buffer inTail;
            try (ScratchRegion.Lease l = r.acquire(Phase.ENCODER)) {
                head = l.buffer(1);
                inTail = l.buffer(0);
                assertThat(held(be)).isEqualTo(KEPT + TAIL);
            }
            r.trim();
            assertThat(held(be)).as("trimmed").isEqualTo(KEPT);
            try (ScratchRegion.Lease l = r.acquire(Phase.DECODER)) {
                assertThat(l.generation()).isEqualTo(generation);
                assertThat(l.buffer(0)).as("the decoders' buffers stay put").isSameAs(decoders);
            }
            assertThat(held(be)).isEqualTo(KEPT);
            try (ScratchRegion.Lease l = r.acquire(Phase.ENCODER)) {
                assertThat(l.buffer(1)).as("the encoder's buffer over the decoders'").isSameAs(head);
                assertThat(l.buffer(0)).as("the tail, allocated again").isNotSameAs(inTail);
                assertThat(l.buffer(0).floats()).isEqualTo(100);
                assertThat(held(be)).isEqualTo(KEPT + TAIL);
            }
            // a trim waits for a lease in progress
            ScratchRegion.Lease enc = r.acquire(Phase.ENCODER);
            CountDownLatch trimmed = new CountDownLatch(1);
            Thread trim = Thread.ofPlatform().start(() -> {
                r.trim();
                trimmed.countDown();
            });
            assertThat(trimmed.await(300, TimeUnit.MILLISECONDS)).as("not while the encoder holds it").isFalse();
            assertThat(enc.buffer(0).floats()).isEqualTo(100);
            enc.close();
            assertThat(trimmed.await(10, TimeUnit.SECONDS)).isTrue();
            trim.join(10_000);
            assertThat(held(be)).isEqualTo(KEPT);
            // a release (a model without captured steps) frees both; the next lease is of a new generation
            r.release();
            assertThat(held(be)).isZero();
            try (ScratchRegion.Lease l = r.acquire(Phase.DECODER)) {
                assertThat(l.generation()).isNotEqualTo(generation);
                assertThat(l.buffer(0)).isNotSameAs(decoders);
                assertThat(held(be)).isEqualTo(KEPT);
            }
        }
        assertThat(held(be)).as("closed").isZero();
    }

    @Test
    void theEstimateCountsTheKeptAllocationAndTheTail() {
        assertThat(ScratchRegion.floatsHeld(LAYOUTS, Phase.DECODER)).as("max(60, 50) + 100").isEqualTo(160);
        // an encoder that fits the decoders' room entirely needs no tail
        assertThat(ScratchRegion.floatsHeld(Map.of(Phase.ENCODER, new long[] {40, 20}, Phase.DECODER,
                new long[] {30, 30}), Phase.DECODER)).isEqualTo(60);
        // largest first: 50 over the decoders' 60, then 10; 40 and 30 to the tail
        assertThat(ScratchRegion.floatsHeld(Map.of(Phase.ENCODER, new long[] {40, 50, 30, 10}, Phase.DECODER,
                new long[] {60}), Phase.DECODER)).isEqualTo(60 + 70);
    }

    @Test
    void aPhaseWithoutALayoutOrAClosedRegionIsRefused() throws Exception {
        CpuBackend be = new CpuBackend();
        ScratchRegion own = new ScratchRegion(be, MemoryCategory.DECODER_SCRATCH, Map.of(Phase.DECODER, new long[] {8}),
                Phase.DECODER);
        assertThatThrownBy(() -> own.acquire(Phase.ENCODER)).isInstanceOf(IllegalArgumentException.class);
        own.close();
        assertThatThrownBy(() -> own.acquire(Phase.DECODER)).hasMessageContaining("closed");
        // the refusal left the lock free: another thread takes it at once
        assertThat(java.util.concurrent.CompletableFuture.runAsync(own::trim).thenApply(v -> true)
                .get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(be.memoryReport().total().current()).isZero();
    }
}
