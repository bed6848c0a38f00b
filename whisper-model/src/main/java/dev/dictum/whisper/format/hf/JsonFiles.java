package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.whisper.format.ModelFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads the JSON files of a Hugging Face model directory, turning every way they can be wrong
 * into a one-line {@link ModelFormatException} that names the file.
 */
final class JsonFiles {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonFiles() {
    }

    /** The top-level object of a JSON file that must exist. */
    static JsonNode readObject(Path file) {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = JSON.readTree(in);
        } catch (NoSuchFileException e) {
            throw new ModelFormatException(file + ": no such file", e);
        } catch (JacksonException e) {
            throw new ModelFormatException(file + ": not valid JSON (" + UntrustedText.oneLine(e.getOriginalMessage())
                    + locationOf(e) + ")", e);
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read (" + UntrustedText.oneLine(String.valueOf(e.getMessage())) + ")",
                    e);
        }
        if (root == null || !root.isObject()) {
            throw new ModelFormatException(file + ": expected a JSON object");
        }
        return root;
    }

    /** Like {@link #readObject}, or null if the file does not exist. */
    static JsonNode readObjectIfPresent(Path file) {
        return Files.exists(file) ? readObject(file) : null;
    }

    /** A required integer field. */
    static int requiredInt(JsonNode obj, String field, Path file) {
        Integer v = optionalInt(obj, field, file);
        if (v == null) {
            throw new ModelFormatException(file + ": missing field " + field);
        }
        return v;
    }

    /** An integer field, or null if it is absent or JSON null. */
    static Integer optionalInt(JsonNode obj, String field, Path file) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new ModelFormatException(file + ": field " + field + " is " + UntrustedText.oneLine(v.toString())
                    + ", expected an integer");
        }
        return v.intValue();
    }

    /** An array of integers, or null if the field is absent or JSON null. */
    static int[] optionalIntArray(JsonNode obj, String field, Path file) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw new ModelFormatException(file + ": field " + field + " is not an array");
        }
        int[] out = new int[v.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode e = v.get(i);
            if (!e.isIntegralNumber() || !e.canConvertToInt()) {
                throw new ModelFormatException(file + ": field " + field + " holds " + UntrustedText.oneLine(e.toString())
                        + ", expected integers");
            }
            out[i] = e.intValue();
        }
        return out;
    }

    private static String locationOf(JacksonException e) {
        return e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }
}
