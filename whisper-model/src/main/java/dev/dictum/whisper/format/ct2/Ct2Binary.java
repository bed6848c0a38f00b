package dev.dictum.whisper.format.ct2;

import dev.dictum.whisper.format.ByteCursor;
import dev.dictum.whisper.format.UntrustedText;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The variables of a CTranslate2 model.bin, as model_spec.py's _serialize writes them and
 * model.cc's Model::load reads them (native byte order, little-endian in practice):
 * <pre>
 * uint32 binary_version                                   (1 .. 6; 6 since 2022, all Whisper models)
 * v2+:  string spec_name, uint32 spec_revision             (string = uint16 length incl. NUL, bytes, NUL)
 * uint32 n; n x { string name; uint8 rank; uint32 dims[rank];
 *                 v4+: uint8 dtype id, uint32 byte count | v1-3: uint8 item size, uint32 element count;
 *                 data }
 * v3+:  uint32 m; m x { string alias; string variable }
 * </pre>
 * Version 5 changed only how int8 values are rounded, version 6 moved model attributes to
 * config.json; neither changed the layout.
 *
 * @param variables by name, data as slices of the mapping
 * @param aliases   alias name to the name of the variable it stands for
 */
record Ct2Binary(int version, String spec, int revision, Map<String, Ct2Variable> variables,
        Map<String, String> aliases) {

    static final int NEWEST_VERSION = 6;
    private static final int MAX_VARIABLES = 1 << 20;
    private static final int MAX_RANK = 8;
    /** Beyond any Whisper variable (large-v3's token embedding is 2^26 values), far below overflow. */
    private static final long MAX_ELEMENTS = 1L << 34;

    static Ct2Binary parse(MemorySegment file, String name) {
        ByteCursor in = new ByteCursor(file, name);
        long version = in.u32("the binary version");
        if (version < 1 || version > NEWEST_VERSION) {
            throw in.error("binary version " + version + " is not a CTranslate2 model.bin version Dictum reads (1 to "
                    + NEWEST_VERSION + ")");
        }
        String spec = "";
        int revision = 1;
        if (version >= 2) {
            spec = string(in, "the spec name");
            long r = in.u32("the spec revision");
            revision = (int) Math.min(r, Integer.MAX_VALUE);
        }
        long count = in.u32("the variable count");
        if (count > MAX_VARIABLES) {
            throw in.error(count + " variables is over the limit of " + MAX_VARIABLES);
        }
        Map<String, Ct2Variable> variables = new LinkedHashMap<>();
        for (long i = 0; i < count; i++) {
            Ct2Variable v = variable(in, (int) version, i);
            if (variables.putIfAbsent(v.name(), v) != null) {
                throw in.error("variable " + UntrustedText.quoted(v.name()) + " appears twice");
            }
        }
        Map<String, String> aliases = new HashMap<>();
        if (version >= 3) {
            long n = in.u32("the alias count");
            if (n > MAX_VARIABLES) {
                throw in.error(n + " aliases is over the limit of " + MAX_VARIABLES);
            }
            for (long i = 0; i < n; i++) {
                String alias = string(in, "alias #" + i);
                String target = string(in, "alias #" + i);
                if (!variables.containsKey(target)) {
                    throw in.error("alias " + UntrustedText.quoted(alias) + " names the missing variable "
                            + UntrustedText.quoted(target));
                }
                if (variables.containsKey(alias) || aliases.putIfAbsent(alias, target) != null) {
                    throw in.error("alias " + UntrustedText.quoted(alias) + " is defined twice");
                }
            }
        }
        return new Ct2Binary((int) version, spec, revision, variables, aliases);
    }

    /** The variable with this name, following an alias; null if neither exists. */
    Ct2Variable find(String name) {
        Ct2Variable v = variables.get(name);
        if (v == null && aliases.containsKey(name)) {
            v = variables.get(aliases.get(name));
        }
        return v;
    }

    private static Ct2Variable variable(ByteCursor in, int version, long index) {
        String where = "the header of variable #" + index;
        String name = string(in, where);
        String quoted = UntrustedText.quoted(name);
        int rank = in.u8(where);
        if (rank > MAX_RANK) {
            throw in.error("variable " + quoted + " has rank " + rank + ", over the limit of " + MAX_RANK);
        }
        long[] shape = new long[rank];
        long elements = 1;
        for (int i = 0; i < rank; i++) {
            shape[i] = in.u32(where);
            if (shape[i] != 0 && elements > MAX_ELEMENTS / shape[i]) {
                throw in.error("variable " + quoted + " has more than 2^34 elements");
            }
            elements *= shape[i];
        }
        Ct2DType type;
        long bytes;
        if (version >= 4) {
            int id = in.u8(where);
            type = Ct2DType.byId(id);
            if (type == null) {
                throw in.error("variable " + quoted + " has unknown dtype id " + id);
            }
            bytes = in.u32(where);
        } else {
            int itemSize = in.u8(where);
            type = Ct2DType.byItemSize(itemSize);
            if (type == null) {
                throw in.error("variable " + quoted + " has an unknown item size " + itemSize);
            }
            bytes = in.u32(where) * itemSize;
        }
        if (bytes != elements * type.itemSize) {
            throw in.error("variable " + quoted + " is " + type.spelling() + Arrays.toString(shape) + " but has "
                    + bytes + " bytes");
        }
        MemorySegment data = in.slice(bytes, "the data of variable " + quoted);
        return new Ct2Variable(name, type, shape, data);
    }

    /** uint16 length including the terminating NUL, the UTF-8 bytes, the NUL. */
    private static String string(ByteCursor in, String where) {
        int length = in.u16(where);
        if (length == 0) {
            throw in.error("a string of length 0 in " + where);
        }
        byte[] b = in.bytes(length, where);
        if (b[length - 1] != 0) {
            throw in.error("a string in " + where + " does not end with NUL");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, 0, length - 1))
                    .toString();
        } catch (CharacterCodingException e) {
            throw in.error("a string in " + where + " is not UTF-8");
        }
    }
}
