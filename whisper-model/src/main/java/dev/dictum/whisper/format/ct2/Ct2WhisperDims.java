package dev.dictum.whisper.format.ct2;

import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.WhisperDims;
import java.util.Arrays;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whisper's dimensions from the variables of a WhisperSpec (CTranslate2 has no hparams block):
 * mels and audio state from conv1's weight, contexts from the position encodings, vocabulary and
 * text state from the token embedding, layer counts from the layer_N scopes, and heads from the
 * int16 scalars {@code encoder/num_heads} and {@code decoder/num_heads} the spec stores.
 */
final class Ct2WhisperDims {
    private static final Pattern LAYER = Pattern.compile("(encoder|decoder)/layer_(\\d{1,5})/.*");

    private Ct2WhisperDims() {
    }

    static WhisperDims of(Ct2Binary bin, String file) {
        long[] conv1 = shape(bin, "encoder/conv1/weight", 3, file);
        long[] audioPositions = shape(bin, "encoder/position_encodings/encodings", 2, file);
        long[] embedding = shape(bin, "decoder/embeddings/weight", 2, file);
        long[] textPositions = shape(bin, "decoder/position_encodings/encodings", 2, file);
        try {
            return new WhisperDims(toInt(conv1[1]), toInt(audioPositions[0]), toInt(conv1[0]),
                    heads(bin, "encoder/num_heads", file), layers(bin, "encoder", file), toInt(embedding[0]),
                    toInt(textPositions[0]), toInt(embedding[1]), heads(bin, "decoder/num_heads", file),
                    layers(bin, "decoder", file));
        } catch (IllegalArgumentException e) {
            throw new ModelFormatException(file + ": impossible dimensions: " + e.getMessage());
        }
    }

    private static long[] shape(Ct2Binary bin, String name, int rank, String file) {
        Ct2Variable v = bin.find(name);
        if (v == null) {
            throw new ModelFormatException(file + ": missing variable " + name);
        }
        if (v.shape().length != rank) {
            throw new ModelFormatException(file + ": variable " + name + " has shape " + Arrays.toString(v.shape())
                    + ", expected rank " + rank);
        }
        return v.shape();
    }

    private static int heads(Ct2Binary bin, String name, String file) {
        Ct2Variable v = bin.find(name);
        if (v == null || !v.isScalar() || (v.type() != Ct2DType.INT16 && v.type() != Ct2DType.INT32)) {
            throw new ModelFormatException(file + ": missing the integer scalar " + name);
        }
        return v.type() == Ct2DType.INT16 ? Ct2Values.int16(v.data(), 0) : Ct2Values.int32(v.data(), 0);
    }

    /** The number of layer_N scopes, which must be numbered 0 .. n-1. */
    private static int layers(Ct2Binary bin, String side, String file) {
        TreeSet<Integer> seen = new TreeSet<>();
        for (String name : bin.variables().keySet()) {
            Matcher m = LAYER.matcher(name);
            if (m.matches() && m.group(1).equals(side)) {
                seen.add(Integer.parseInt(m.group(2)));
            }
        }
        if (seen.isEmpty() || seen.last() != seen.size() - 1) {
            throw new ModelFormatException(file + ": the " + side + " layers are numbered " + seen
                    + ", not 0 to n-1");
        }
        return seen.size();
    }

    private static int toInt(long v) {
        // WhisperDims rejects anything this large anyway; keep the value recognisable in its message.
        return (int) Math.min(v, Integer.MAX_VALUE);
    }
}
