package dev.dictum.whisper.decode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Word-level stand-in for the BPE: token 100 is " alpha", ..., any other text token t is " t&lt;t&gt;". */
final class ToyCodec implements TextCodec {
    static final int ALPHA = 100;
    static final int BRAVO = 101;
    static final int CHARLIE = 102;
    static final int DELTA = 103;
    static final int ECHO = 104;
    static final int SPACE = 220;

    private static final Map<Integer, String> WORDS = Map.of(ALPHA, "alpha", BRAVO, "bravo", CHARLIE, "charlie",
            DELTA, "delta", ECHO, "echo");
    private final int eot;

    ToyCodec(int eot) {
        this.eot = eot;
    }

    @Override
    public int[] encode(String text) {
        Map<String, Integer> ids = new HashMap<>();
        WORDS.forEach((id, w) -> ids.put(w, id));
        List<Integer> out = new ArrayList<>();
        for (String w : text.strip().split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(ids.containsKey(w) ? ids.get(w) : Integer.parseInt(w.substring(1)));
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public String decode(int[] tokens) {
        StringBuilder sb = new StringBuilder();
        for (int t : tokens) {
            if (t == SPACE) {
                sb.append(' ');
            } else if (t < eot) {
                sb.append(' ').append(WORDS.getOrDefault(t, "t" + t));
            }
        }
        return sb.toString();
    }
}
