package dev.dictum.whisper.format.ct2;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.whisper.format.ModelFormatException;
import dev.dictum.whisper.format.UntrustedText;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The token spellings of a CTranslate2 model directory, id order, as CTranslate2 looks for them
 * (models/model_reader.cc load_vocabulary): {@code vocabulary.json} (a JSON list of strings),
 * else {@code vocabulary.txt} (one token a line; a trailing CR is dropped only if every line has
 * one), else, as faster-whisper directories also carry, {@code tokenizer.json} (model.vocab plus
 * added_tokens). Text tokens are spelled in GPT-2's byte-level alphabet; special tokens as {@code <|...|>}.
 */
final class Ct2VocabularyFile {
    private static final long MAX_BYTES = 64L << 20;
    private static final int MAX_TOKENS = 1 << 20;

    /** Where the tokens came from, for messages. */
    record Tokens(Path file, List<String> spellings) {
    }

    private Ct2VocabularyFile() {
    }

    static Tokens read(Path dir) {
        Path json = dir.resolve("vocabulary.json");
        if (Files.isRegularFile(json)) {
            return new Tokens(json, jsonList(json));
        }
        Path txt = dir.resolve("vocabulary.txt");
        if (Files.isRegularFile(txt)) {
            return new Tokens(txt, lines(txt));
        }
        Path tokenizer = dir.resolve("tokenizer.json");
        if (Files.isRegularFile(tokenizer)) {
            return new Tokens(tokenizer, tokenizerJson(tokenizer));
        }
        throw new ModelFormatException(dir + ": no vocabulary (vocabulary.json, vocabulary.txt or tokenizer.json)");
    }

    private static List<String> jsonList(Path file) {
        JsonNode root = json(file);
        if (!root.isArray() || root.size() > MAX_TOKENS) {
            throw new ModelFormatException(file + ": expected a JSON list of at most " + MAX_TOKENS + " token strings");
        }
        List<String> tokens = new ArrayList<>(root.size());
        for (JsonNode n : root) {
            if (!n.isTextual()) {
                throw new ModelFormatException(file + ": token " + tokens.size() + " is not a string");
            }
            tokens.add(n.textValue());
        }
        return tokens;
    }

    private static List<String> lines(Path file) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes(file))).toString();
        } catch (CharacterCodingException e) {
            throw new ModelFormatException(file + ": not UTF-8 text");
        }
        List<String> tokens = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        if (!tokens.isEmpty() && tokens.getLast().isEmpty()) {
            tokens.removeLast(); // the newline that ends the last line
        }
        if (tokens.size() > MAX_TOKENS) {
            throw new ModelFormatException(file + ": more than " + MAX_TOKENS + " tokens");
        }
        if (!tokens.isEmpty() && tokens.stream().allMatch(t -> t.endsWith("\r"))) {
            tokens.replaceAll(t -> t.substring(0, t.length() - 1));
        }
        return tokens;
    }

    private static List<String> tokenizerJson(Path file) {
        JsonNode root = json(file);
        JsonNode vocab = root.path("model").path("vocab");
        if (!vocab.isObject()) {
            throw new ModelFormatException(file + ": no model.vocab object");
        }
        List<String> tokens = new ArrayList<>();
        vocab.properties().forEach(e -> put(tokens, e.getValue(), e.getKey(), file));
        for (JsonNode added : root.path("added_tokens")) {
            put(tokens, added.path("id"), added.path("content").asText(null), file);
        }
        int gap = tokens.indexOf(null);
        if (gap >= 0) {
            throw new ModelFormatException(file + ": no token has id " + gap);
        }
        return tokens;
    }

    private static void put(List<String> tokens, JsonNode idNode, String spelling, Path file) {
        if (!idNode.canConvertToInt() || idNode.intValue() < 0 || idNode.intValue() >= MAX_TOKENS || spelling == null) {
            throw new ModelFormatException(file + ": bad token entry " + UntrustedText.quoted(String.valueOf(spelling))
                    + " -> " + UntrustedText.oneLine(idNode.toString()));
        }
        int id = idNode.intValue();
        while (tokens.size() <= id) {
            tokens.add(null);
        }
        String previous = tokens.set(id, spelling);
        if (previous != null && !previous.equals(spelling)) {
            throw new ModelFormatException(file + ": two tokens have id " + id);
        }
    }

    static JsonNode json(Path file) {
        try {
            return new ObjectMapper().readTree(bytes(file));
        } catch (JacksonException e) {
            throw new ModelFormatException(file + ": not valid JSON ("
                    + UntrustedText.oneLine(e.getOriginalMessage()) + ")");
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read (" + UntrustedText.oneLine(String.valueOf(e.getMessage()))
                    + ")", e);
        }
    }

    static byte[] bytes(Path file) {
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ModelFormatException(file + ": " + size + " bytes, over the limit of " + MAX_BYTES);
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read (" + UntrustedText.oneLine(String.valueOf(e.getMessage()))
                    + ")", e);
        }
    }
}
