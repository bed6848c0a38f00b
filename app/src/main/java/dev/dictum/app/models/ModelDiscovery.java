package dev.dictum.app.models;

import dev.dictum.whisper.format.detect.ModelFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Finds the Whisper models already on disk: in the models folder (whisper.cpp {@code ggml-*.bin}
 * files, Hugging Face and CTranslate2 folders, two levels of sub-folders), and in the Hugging Face
 * hub cache ({@code models--org--name/snapshots/REV/}, the revision {@code refs/main} names, or the
 * newest). Formats are recognised by content (the ggml magic, config.json with safetensors,
 * model.bin), as {@code ModelFiles} opens them; nothing is loaded. Unreadable places are skipped.
 */
public final class ModelDiscovery {
    private static final byte[] GGML_MAGIC = {0x6c, 0x6d, 0x67, 0x67};

    private ModelDiscovery() {
    }

    /** The Hugging Face hub cache as the hub library finds it: HF_HUB_CACHE, HF_HOME/hub, XDG or ~/.cache. */
    public static Path huggingFaceCache(Map<String, String> env, Path home) {
        if (notBlank(env.get("HF_HUB_CACHE"))) {
            return Path.of(env.get("HF_HUB_CACHE"));
        }
        if (notBlank(env.get("HF_HOME"))) {
            return Path.of(env.get("HF_HOME")).resolve("hub");
        }
        Path cache = notBlank(env.get("XDG_CACHE_HOME")) ? Path.of(env.get("XDG_CACHE_HOME")) : home.resolve(".cache");
        return cache.resolve("huggingface").resolve("hub");
    }

    /**
     * Every model in the given folders and the hub cache, each path once, in a stable order
     * (folders first, then the cache; by name within each).
     */
    public static List<DiscoveredModel> discover(List<Path> modelsFolders, Path huggingFaceCache) {
        Map<Path, DiscoveredModel> found = new LinkedHashMap<>();
        for (Path folder : modelsFolders) {
            List<DiscoveredModel> here = new ArrayList<>();
            scanFolder(folder, 3, here);
            here.sort(Comparator.comparing(DiscoveredModel::name));
            here.forEach(m -> found.putIfAbsent(m.path().toAbsolutePath().normalize(), m));
        }
        List<DiscoveredModel> cached = scanHubCache(huggingFaceCache);
        cached.forEach(m -> found.putIfAbsent(m.path().toAbsolutePath().normalize(), m));
        return List.copyOf(found.values());
    }

    /** What one path is, if it is a model: a ggml file or a HF/CT2 folder; null otherwise. */
    public static DiscoveredModel describe(Path path, DiscoveredModel.Source source) {
        if (Files.isRegularFile(path) && isGgml(path)) {
            return new DiscoveredModel(ggmlName(path.getFileName().toString()) + " (whisper.cpp)", path,
                    ModelFormat.GGML, source, size(path));
        }
        if (Files.isDirectory(path)) {
            ModelFormat f = folderFormat(path);
            if (f != null) {
                return new DiscoveredModel(path.getFileName() + " (" + f.label() + ")", path, f, source,
                        folderSize(path));
            }
        }
        return null;
    }

    private static void scanFolder(Path folder, int depth, List<DiscoveredModel> out) {
        if (!Files.isDirectory(folder)) {
            return;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(folder)) {
            for (Path p : ds) {
                DiscoveredModel m = describe(p, DiscoveredModel.Source.MODELS_FOLDER);
                if (m != null) {
                    out.add(m);
                }
                // A model folder may hold other formats too (a converted ggml file beside the safetensors).
                if (depth > 1 && Files.isDirectory(p) && !p.getFileName().toString().startsWith(".")) {
                    scanFolder(p, depth - 1, out);
                }
            }
        } catch (IOException | SecurityException e) {
            // unreadable folder: nothing found there
        }
    }

    private static List<DiscoveredModel> scanHubCache(Path cache) {
        List<DiscoveredModel> out = new ArrayList<>();
        if (!Files.isDirectory(cache)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(cache, "models--*")) {
            for (Path repo : ds) {
                Path snapshot = snapshot(repo);
                if (snapshot == null) {
                    continue;
                }
                ModelFormat f = folderFormat(snapshot);
                if (f != null) {
                    String id = repo.getFileName().toString().substring("models--".length()).replace("--", "/");
                    out.add(new DiscoveredModel(id + " (" + f.label() + ", Hugging Face cache)", snapshot, f,
                            DiscoveredModel.Source.HUGGING_FACE_CACHE, folderSize(snapshot)));
                }
            }
        } catch (IOException | SecurityException e) {
            // unreadable cache: nothing found there
        }
        out.sort(Comparator.comparing(DiscoveredModel::name));
        return out;
    }

    /** The snapshot refs/main names, else the most recently modified one. */
    private static Path snapshot(Path repo) {
        Path snapshots = repo.resolve("snapshots");
        try {
            Path ref = repo.resolve("refs").resolve("main");
            if (Files.isRegularFile(ref)) {
                Path s = snapshots.resolve(Files.readString(ref).strip());
                if (Files.isDirectory(s)) {
                    return s;
                }
            }
            if (!Files.isDirectory(snapshots)) {
                return null;
            }
            try (Stream<Path> s = Files.list(snapshots)) {
                return s.filter(Files::isDirectory)
                        .max(Comparator.comparingLong(ModelDiscovery::modified)).orElse(null);
            }
        } catch (IOException | SecurityException | java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    private static ModelFormat folderFormat(Path dir) {
        if (Files.isRegularFile(dir.resolve("model.bin")) && Files.isRegularFile(dir.resolve("config.json"))) {
            return ModelFormat.CTRANSLATE2;
        }
        if (Files.isRegularFile(dir.resolve("config.json")) && (Files.isRegularFile(dir.resolve("model.safetensors"))
                || Files.isRegularFile(dir.resolve("model.safetensors.index.json")))) {
            return ModelFormat.HUGGING_FACE;
        }
        return null;
    }

    /** "ggml-base.en-q5_1.bin" → "base.en q5_1"; "ggml-toy-en.bin" → "toy-en". */
    static String ggmlName(String file) {
        String n = file.replaceFirst("(?i)\\.bin$", "").replaceFirst("^ggml-", "");
        String[] quants = {"q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "f16", "f32"};
        for (String q : quants) {
            if (n.toLowerCase(Locale.ROOT).endsWith("-" + q)) {
                return n.substring(0, n.length() - q.length() - 1) + " " + q;
            }
        }
        return n;
    }

    private static boolean isGgml(Path file) {
        byte[] head = new byte[4];
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(head, 0, 4) == 4 && Arrays.equals(head, GGML_MAGIC);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The weights' size: safetensors files or model.bin (not other formats kept in the same folder). */
    private static long folderSize(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            // HF cache snapshots hold symlinks into blobs/: size() follows them.
            return s.filter(Files::isRegularFile).filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".safetensors") || n.equals("model.bin");
            }).mapToLong(ModelDiscovery::size).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
