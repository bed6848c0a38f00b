package dev.dictum.whisper.decode;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Ready-made {@link FakeWhisper.Script}s: probability trees and planned token sequences. */
final class Scripts {
    private Scripts() {
    }

    /**
     * Next-token probabilities keyed by the sampled tokens so far (the tokens after sot, less the
     * {@code skip} that belong to the sot sequence). Unknown prefixes end with eot. At the sot
     * position only the no-speech logits are written.
     */
    static final class Tree implements FakeWhisper.Script {
        private final int skip;
        private final Map<List<Integer>, Map<Integer, Double>> nodes = new HashMap<>();
        private Map<Integer, Double> atSot = Map.of();

        Tree(int skip) {
            this.skip = skip;
        }

        Tree on(List<Integer> prefix, Map<Integer, Double> next) {
            nodes.put(prefix, next);
            return this;
        }

        /** Probabilities at the sot position, e.g. of nospeech. */
        Tree sot(Map<Integer, Double> p) {
            atSot = p;
            return this;
        }

        @Override
        public void logits(FakeWhisper.Context c, float[] out) {
            int[] after = c.afterSot();
            if (c.atSot()) {
                Logits.probabilities(out, atSot);
                if (skip > 0) {
                    return;
                }
            }
            if (after.length < skip) {
                return;
            }
            List<Integer> sampled = Arrays.stream(after, skip, after.length).boxed().toList();
            Logits.probabilities(out, nodes.getOrDefault(sampled, Map.of(c.sp().eot(), 1.0)));
        }
    }

    /** Each audio's tokens in a fixed order, each at probability ~1; then eot. */
    static FakeWhisper.Script plan(int skip, Map<Integer, int[]> byAudio) {
        return (c, out) -> {
            int[] after = c.afterSot();
            if (after.length < skip || c.atSot() && skip > 0) {
                return;
            }
            int[] plan = byAudio.get(c.audio());
            int i = after.length - skip;
            int next = plan != null && i < plan.length ? plan[i] : c.sp().eot();
            out[next] = 0f;
        };
    }
}
