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
 * two phases in one memory), a lease's buffers are gone once it is closed, and a release makes the next
 * lease allocate anew under a new generation.
 */
class ScratchRegionTest {
    private static final Map<Phase, long[]> LAYOUTS = Map.of(Phase.ENCODER, new long[] {100, 50},
            Phase.DECODER, new long[] {30, 20, 10});

    private static long held(CpuBackend be) {
        return be.memoryReport().byCategory().get(MemoryCategory.SHARED_SCRATCH).current();
    }

    @Test
    void eachPhaseGetsItsLayoutAndTheSameThreadCannotHoldTwoPhases() {
        CpuBackend be = new CpuBackend();
        try (ScratchRegion r = new ScratchRegion(be, MemoryCategory.SHARED_SCRATCH, LAYOUTS)) {
            assertThat(held(be)).as("nothing before the first lease").isZero();
            try (ScratchRegion.Lease enc = r.acquire(Phase.ENCODER)) {
                assertThat(enc.buffer(0).floats()).isEqualTo(100);
                assertThat(enc.buffer(1).floats()).isEqualTo(50);
                assertThat(held(be)).as("the CPU holds both layouts side by side").isEqualTo(4 * (150 + 60));
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
        try (ScratchRegion r = new ScratchRegion(be, MemoryCategory.SHARED_SCRATCH, LAYOUTS)) {
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
    void aReleaseFreesTheMemoryAndTheNextLeaseHasANewGeneration() throws Exception {
        CpuBackend be = new CpuBackend();
        try (ScratchRegion r = new ScratchRegion(be, MemoryCategory.SHARED_SCRATCH, LAYOUTS)) {
            int first;
            dev.dictum.gpu.Buffer before;
            try (ScratchRegion.Lease l = r.acquire(Phase.DECODER)) {
                first = l.generation();
                before = l.buffer(0);
            }
            r.release();
            assertThat(r.held()).isFalse();
            assertThat(held(be)).isZero();
            try (ScratchRegion.Lease l = r.acquire(Phase.DECODER)) {
                assertThat(l.generation()).isNotEqualTo(first);
                assertThat(l.buffer(0)).isNotSameAs(before);
                assertThat(held(be)).isEqualTo(4 * (150 + 60));
            }
            // a release waits for a lease in progress
            ScratchRegion.Lease enc = r.acquire(Phase.ENCODER);
            CountDownLatch released = new CountDownLatch(1);
            Thread trim = Thread.ofPlatform().start(() -> {
                r.release();
                released.countDown();
            });
            assertThat(released.await(300, TimeUnit.MILLISECONDS)).as("not while the encoder holds it").isFalse();
            assertThat(enc.buffer(0).floats()).isEqualTo(100);
            enc.close();
            assertThat(released.await(10, TimeUnit.SECONDS)).isTrue();
            trim.join(10_000);
            assertThat(r.held()).isFalse();
        }
    }

    @Test
    void aPhaseWithoutALayoutOrAClosedRegionIsRefused() throws Exception {
        CpuBackend be = new CpuBackend();
        ScratchRegion own = new ScratchRegion(be, MemoryCategory.DECODER_SCRATCH, Map.of(Phase.DECODER, new long[] {8}));
        assertThatThrownBy(() -> own.acquire(Phase.ENCODER)).isInstanceOf(IllegalArgumentException.class);
        own.close();
        assertThatThrownBy(() -> own.acquire(Phase.DECODER)).hasMessageContaining("closed");
        // the refusal left the lock free: another thread takes it at once
        assertThat(java.util.concurrent.CompletableFuture.supplyAsync(own::held).get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(be.memoryReport().total().current()).isZero();
    }
}
