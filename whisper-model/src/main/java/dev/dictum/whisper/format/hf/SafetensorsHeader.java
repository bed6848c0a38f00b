package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dictum.gpu.DType;
import dev.dictum.whisper.format.ModelFormatException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses and checks the JSON header of a safetensors file: {@code {"name": {"dtype": "F16",
 * "shape": [..], "data_offsets": [begin, end]}, ..., "__metadata__": {..}}}. Everything in it is
 * untrusted, so every number is checked before it is used to address the mapped file.
 */
final class SafetensorsHeader {
    /** The safetensors library refuses headers above 100 MB; a Whisper header is about 20-60 KB. */
    static final long MAX_HEADER_BYTES = 100_000_000L;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private SafetensorsHeader() {
    }

    /**
     * The tensors of a header, in file order.
     *
     * @param json     the header bytes (UTF-8 JSON, possibly padded with spaces)
     * @param dataSize bytes in the data section that follows the header
     * @param file     the file, for messages
     */
    static Map<String, SafetensorsEntry> parse(byte[] json, long dataSize, String file) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JacksonException e) {
            throw new ModelFormatException(file + ": the safetensors header is not valid JSON ("
                    + UntrustedText.oneLine(e.getOriginalMessage()) + ")", e);
        } catch (java.io.IOException e) {
            throw new ModelFormatException(file + ": cannot parse the safetensors header: " + UntrustedText.oneLine(String.valueOf(
                    e.getMessage())), e);
        }
        if (root == null || !root.isObject()) {
            throw new ModelFormatException(file + ": the safetensors header is not a JSON object");
        }
        Map<String, SafetensorsEntry> entries = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            if (field.getKey().equals("__metadata__")) {
                continue; // free-form strings (e.g. {"format": "pt"}): nothing the engine needs
            }
            SafetensorsEntry e = entry(field.getKey(), field.getValue(), dataSize, file);
            entries.put(e.name(), e);
        }
        return Collections.unmodifiableMap(entries);
    }

    private static SafetensorsEntry entry(String name, JsonNode node, long dataSize, String file) {
        String what = file + ": tensor " + UntrustedText.quoted(name);
        if (!node.isObject()) {
            throw new ModelFormatException(what + " is not described by a JSON object");
        }
        JsonNode dtypeNode = node.get("dtype");
        if (dtypeNode == null || !dtypeNode.isTextual()) {
            throw new ModelFormatException(what + " has no dtype");
        }
        DType dtype = SafetensorsDTypes.of(dtypeNode.textValue());
        if (dtype == null) {
            throw new ModelFormatException(what + " has dtype " + UntrustedText.oneLine(dtypeNode.textValue())
                    + ", which is not supported (F32, F16 and BF16 are)");
        }
        long[] shape = longs(node.get("shape"), -1, what, "shape");
        long[] offsets = longs(node.get("data_offsets"), 2, what, "data_offsets");
        long begin = offsets[0];
        long end = offsets[1];
        if (begin > end) {
            throw new ModelFormatException(what + " has data_offsets " + Arrays.toString(offsets)
                    + " that end before they begin");
        }
        if (end > dataSize) {
            throw new ModelFormatException(what + " has data_offsets " + Arrays.toString(offsets)
                    + " beyond the end of the data (" + dataSize + " bytes): the file is truncated or corrupt");
        }
        long want;
        try {
            long count = 1;
            for (long d : shape) {
                count = Math.multiplyExact(count, d);
            }
            want = Math.multiplyExact(count, (long) SafetensorsDTypes.elementBytes(dtype));
        } catch (ArithmeticException overflow) {
            throw new ModelFormatException(what + " has a shape " + Arrays.toString(shape) + " too large to address");
        }
        if (end - begin != want) {
            throw new ModelFormatException(what + " is " + dtype + Arrays.toString(shape) + ", which needs " + want
                    + " bytes, but data_offsets " + Arrays.toString(offsets) + " give " + (end - begin));
        }
        return new SafetensorsEntry(name, dtype, shape, begin, end);
    }

    /** A JSON array of non-negative integers that fit a long, of the given length (-1: any). */
    private static long[] longs(JsonNode node, int length, String what, String field) {
        if (node == null || !node.isArray()) {
            throw new ModelFormatException(what + " has no " + field + " array");
        }
        if (length >= 0 && node.size() != length) {
            throw new ModelFormatException(what + " has " + node.size() + " " + field + ", expected " + length);
        }
        long[] out = new long[node.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode v = node.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
                throw new ModelFormatException(what + " has " + field + " entry " + UntrustedText.oneLine(v.toString())
                        + ", expected a non-negative integer");
            }
            out[i] = v.longValue();
        }
        return out;
    }
}
