package dev.dictum.app.tray;

import java.util.Locale;

/**
 * A backend's loader error as a few words for a menu ("no NVIDIA driver", "no AMD GPU found");
 * the full text stays available through "Copy details" and {@code dictum doctor}.
 */
final class BackendReason {
    static final int MAX = 48;

    private BackendReason() {
    }

    static String shortly(String full) {
        if (full == null || full.isBlank()) {
            return "";
        }
        String f = full.strip();
        String lower = f.toLowerCase(Locale.ROOT);
        if (lower.contains("no nvidia driver") || lower.contains("libcuda")) {
            return "no NVIDIA driver";
        }
        if (lower.contains("hiperrornodevice") || lower.contains("hiperrorinvaliddevice")
                || lower.contains("no device") || lower.contains("cuda_error_no_device")) {
            return "no GPU found";
        }
        if (lower.contains("libamdhip64") && (lower.contains("not found") || lower.contains("no libamdhip64")
                || lower.contains("cannot be loaded"))) {
            return "no ROCm (HIP) runtime";
        }
        if (lower.contains("self-test")) {
            return "failed its self-test";
        }
        // The first clause: before any parenthesis, bracket or second sentence.
        String first = f.split("\\s[(\\[]|[.;]\\s|\\n", 2)[0].strip();
        return first.length() <= MAX ? first : first.substring(0, MAX - 1).strip() + "…";
    }
}
