package dev.dictum.app.settings;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.dictum.app.files.PathText;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What was wrong with a settings file that could not be read, in words a user can act on: where
 * (line and column) and what ("not UTF-8 text", "a comma or } was expected", "hotkeys.tapMillis
 * must be a whole number"), never a decoder's "Input length = 1" or a Jackson type name.
 */
final class SettingsProblems {
    private SettingsProblems() {
    }

    /** The file's text; invalid UTF-8 fails with the line and column of the first bad byte. */
    static String utf8(byte[] bytes) throws IOException {
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        CoderResult r = dec.decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            String before = new String(bytes, 0, at, StandardCharsets.UTF_8);
            int line = (int) before.chars().filter(c -> c == '\n').count() + 1;
            int column = before.length() - before.lastIndexOf('\n');
            throw new NotUtf8(String.format("it is not UTF-8 text (byte 0x%02X at line %d, column %d)",
                    bytes[at] & 0xff, line, column));
        }
        dec.flush(out);
        String text = out.flip().toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text; // a byte-order mark some editors add
    }

    /** One clause (no full stop) saying what was wrong, with the line and column where the JSON parser knows them. */
    static String describe(Exception e) {
        if (e instanceof NotUtf8) {
            return e.getMessage();
        }
        if (e instanceof JsonProcessingException j) {
            String where = where(j.getLocation());
            if (j instanceof MismatchedInputException m && !m.getPath().isEmpty()) {
                return field(m) + " " + expected(m) + where;
            }
            String what = j.getOriginalMessage() == null ? "it is not valid JSON" : firstLine(j.getOriginalMessage());
            return "it is not valid JSON" + where + ": " + simplify(what);
        }
        return firstLine(String.valueOf(e.getMessage()));
    }

    static String ioReason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage());
    }

    static String quoted(Path p) {
        return PathText.quoted(p);
    }

    private static String where(JsonLocation l) {
        return l == null || l.getLineNr() < 1 ? "" : " at line " + l.getLineNr() + ", column " + l.getColumnNr();
    }

    /** "hotkeys.tapMillis" from Jackson's reference path. */
    private static String field(JsonMappingException m) {
        return m.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String expected(MismatchedInputException m) {
        Class<?> t = m.getTargetType();
        String got = m instanceof InvalidFormatException f && f.getValue() != null ? " (not " + quote(f.getValue()) + ")" : "";
        if (t == null) {
            return "has the wrong type" + got;
        }
        if (t == Integer.class || t == int.class || t == Long.class) {
            return "must be a whole number" + got;
        }
        if (t == Double.class || t == double.class) {
            return "must be a number" + got;
        }
        if (t == Boolean.class || t == boolean.class) {
            return "must be true or false" + got;
        }
        if (t == String.class) {
            return "must be text in quotes" + got;
        }
        if (t.isEnum()) {
            return "must be one of " + Arrays.stream(t.getEnumConstants()).map(SettingsProblems::jsonName)
                    .collect(Collectors.joining(", ")) + got;
        }
        if (java.util.Collection.class.isAssignableFrom(t)) {
            return "must be a list [ … ]" + got;
        }
        return "must be a group { … }" + got;
    }

    /** An enum constant as the file spells it (its @JsonProperty name). */
    private static String jsonName(Object constant) {
        try {
            var a = constant.getClass().getField(((Enum<?>) constant).name())
                    .getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
            return a != null ? a.value() : ((Enum<?>) constant).name();
        } catch (NoSuchFieldException e) {
            return constant.toString();
        }
    }

    private static String quote(Object v) {
        return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
    }

    /** Jackson's parser messages name characters by code and add hints meant for programmers; keep the first clause. */
    private static String simplify(String m) {
        String s = m.replaceAll(" \\(code \\d+\\)", "").replaceAll("\\s*\\(for Object starting at.*", "");
        int hint = s.indexOf(": was expecting");
        if (hint < 0) {
            hint = s.indexOf("; ");
        }
        return hint > 0 ? s.substring(0, hint) : s;
    }

    private static String firstLine(String s) {
        String line = s.strip().lines().findFirst().orElse("unreadable");
        return line.length() > 140 ? line.substring(0, 137) + "..." : line;
    }

    /** The file's bytes are not UTF-8. */
    static final class NotUtf8 extends IOException {
        NotUtf8(String message) {
            super(message);
        }
    }
}
