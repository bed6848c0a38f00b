package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import com.fasterxml.jackson.databind.JsonNode;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The weights of a Hugging Face directory under canonical names: model.safetensors, or the shards
 * that model.safetensors.index.json lists. All files are mapped into one arena owned by the caller.
 */
final class HfWeights {
    private static final Logger LOG = LoggerFactory.getLogger(HfWeights.class);
    static final String SINGLE_FILE = "model.safetensors";
    static final String INDEX_FILE = "model.safetensors.index.json";

    /** Where a canonical tensor lives. */
    private record Location(SafetensorsFile file, String hfName) {
    }

    private final Map<String, Location> byCanonicalName;

    private HfWeights(Map<String, Location> byCanonicalName) {
        this.byCanonicalName = byCanonicalName;
    }

    static HfWeights open(Path dir, Arena arena) {
        Map<String, Location> out = new LinkedHashMap<>();
        String projOut = null;
        SafetensorsFile projOutFile = null;
        for (SafetensorsFile file : files(dir, arena)) {
            for (String hfName : file.names()) {
                String canonical = HfTensorNames.toCanonical(hfName);
                if (canonical == null) {
                    if (hfName.equals(HfTensorNames.OUTPUT_PROJECTION)) {
                        projOut = hfName;
                        projOutFile = file;
                    } else {
                        LOG.debug("{}: ignoring tensor {}, which is not part of Whisper", file.description(), hfName);
                    }
                    continue;
                }
                Location previous = out.putIfAbsent(canonical, new Location(file, hfName));
                if (previous != null) {
                    throw new ModelFormatException(file.description() + ": tensor " + UntrustedText.oneLine(hfName)
                            + " duplicates " + previous.hfName() + " of " + previous.file().description());
                }
            }
        }
        if (projOut != null) {
            checkTied(projOutFile, out.get("decoder.token_embedding.weight"));
        }
        return new HfWeights(Collections.unmodifiableMap(out));
    }

    /** The engine ties the output projection to the token embedding, so an untied one must match it. */
    private static void checkTied(SafetensorsFile file, Location embedding) {
        long[] proj = file.shape(HfTensorNames.OUTPUT_PROJECTION);
        if (embedding != null && !Arrays.equals(proj, embedding.file().shape(embedding.hfName()))) {
            throw new ModelFormatException(file.description() + ": proj_out.weight has shape " + Arrays.toString(proj)
                    + ", unlike the token embedding " + Arrays.toString(embedding.file().shape(embedding.hfName()))
                    + ": an untied output projection is not supported");
        }
    }

    private static Iterable<SafetensorsFile> files(Path dir, Arena arena) {
        Path index = dir.resolve(INDEX_FILE);
        Path single = dir.resolve(SINGLE_FILE);
        if (!Files.exists(index)) {
            if (!Files.exists(single) && Files.exists(dir.resolve("pytorch_model.bin"))) {
                throw new ModelFormatException(dir + ": has only PyTorch weights (pytorch_model.bin); "
                        + "Dictum reads safetensors, so convert the model or download its model.safetensors");
            }
            return java.util.List.of(SafetensorsFile.open(single, arena));
        }
        JsonNode map = JsonFiles.readObject(index).get("weight_map");
        if (map == null || !map.isObject()) {
            throw new ModelFormatException(index + ": has no weight_map object");
        }
        Set<String> shards = new TreeSet<>();
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            String shard = e.getValue().asText("");
            // A shard is a file next to the index: a path elsewhere is a corrupt or hostile index.
            if (!e.getValue().isTextual() || shard.isEmpty() || shard.contains("/") || shard.contains("\\")
                    || shard.equals("..") || shard.equals(".")) {
                throw new ModelFormatException(index + ": tensor " + UntrustedText.oneLine(e.getKey()) + " is in "
                        + UntrustedText.oneLine(e.getValue().toString()) + ", which is not a file name in the directory");
            }
            shards.add(shard);
        }
        if (shards.isEmpty()) {
            throw new ModelFormatException(index + ": weight_map lists no tensors");
        }
        Map<String, SafetensorsFile> opened = new LinkedHashMap<>();
        for (String shard : shards) {
            opened.put(shard, SafetensorsFile.open(dir.resolve(shard), arena));
        }
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            SafetensorsFile f = opened.get(e.getValue().asText());
            if (!f.contains(e.getKey())) {
                throw new ModelFormatException(f.description() + ": missing tensor " + UntrustedText.oneLine(e.getKey())
                        + ", which " + INDEX_FILE + " places there");
            }
        }
        return opened.values();
    }

    Set<String> names() {
        return byCanonicalName.keySet();
    }

    /** The tensor under its canonical name, checked against the expected shape. */
    HostTensor tensor(String canonicalName, long[] expectedShape, String directory) {
        Location at = byCanonicalName.get(canonicalName);
        if (at == null) {
            throw new ModelFormatException(directory + ": missing tensor " + canonicalName);
        }
        long[] shape = at.file().shape(at.hfName());
        if (!Arrays.equals(shape, expectedShape)) {
            throw new ModelFormatException(at.file().description() + ": tensor " + canonicalName + " ("
                    + at.hfName() + ") has shape " + Arrays.toString(shape) + ", expected "
                    + Arrays.toString(expectedShape));
        }
        HostTensor t = at.file().tensor(at.hfName());
        return new HostTensor(canonicalName, t.dtype(), shape, t.data());
    }
}
