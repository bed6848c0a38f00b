package dev.dictum.kernels;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;

/**
 * The AMDGPU metadata of a code object (v3+): the NT_AMDGPU_METADATA note, a MessagePack map with
 * {@code amdhsa.version}, {@code amdhsa.target} and {@code amdhsa.kernels} (one map per kernel:
 * {@code .name}, {@code .vgpr_count}, {@code .sgpr_count}, {@code .group_segment_fixed_size},
 * {@code .private_segment_fixed_size}, {@code .wavefront_size}, …), decoded with msgpack-core.
 */
record AmdgpuMetadata(List<Long> version, String target, List<Map<String, Object>> kernels) {
    private static final int NT_AMDGPU_METADATA = 32;

    static AmdgpuMetadata of(ElfImage elf) {
        for (ElfImage.Note n : elf.notes()) {
            if (n.owner().equals("AMDGPU") && n.type() == NT_AMDGPU_METADATA) {
                return decode(n.desc());
            }
        }
        throw new IllegalArgumentException("no NT_AMDGPU_METADATA note");
    }

    @SuppressWarnings("unchecked")
    private static AmdgpuMetadata decode(byte[] msgpack) {
        Object root;
        try (MessageUnpacker u = MessagePack.newDefaultUnpacker(msgpack)) {
            root = toJava(u.unpackValue());
        } catch (IOException e) {
            throw new IllegalArgumentException("AMDGPU metadata is not MessagePack: " + e.getMessage(), e);
        }
        Map<String, Object> m = (Map<String, Object>) root;
        return new AmdgpuMetadata((List<Long>) m.get("amdhsa.version"), (String) m.get("amdhsa.target"),
                (List<Map<String, Object>>) m.get("amdhsa.kernels"));
    }

    Map<String, Object> kernel(String name) {
        return kernels.stream().filter(k -> name.equals(k.get(".name"))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no kernel " + name + " in the metadata"));
    }

    static long number(Map<String, Object> kernel, String key) {
        Object v = kernel.get(key);
        if (!(v instanceof Long l)) {
            throw new IllegalArgumentException(kernel.get(".name") + ": " + key + " missing or not a number: " + v);
        }
        return l;
    }

    private static Object toJava(Value v) {
        return switch (v.getValueType()) {
            case NIL -> null;
            case BOOLEAN -> v.asBooleanValue().getBoolean();
            case INTEGER -> v.asIntegerValue().toLong();
            case FLOAT -> v.asFloatValue().toDouble();
            case STRING -> v.asStringValue().asString();
            case BINARY -> v.asBinaryValue().asByteArray();
            case ARRAY -> {
                List<Object> list = new ArrayList<>();
                for (Value e : v.asArrayValue()) {
                    list.add(toJava(e));
                }
                yield list;
            }
            case MAP -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (Map.Entry<Value, Value> e : v.asMapValue().entrySet()) {
                    map.put(e.getKey().asStringValue().asString(), toJava(e.getValue()));
                }
                yield map;
            }
            case EXTENSION -> v.toJson();
        };
    }
}
