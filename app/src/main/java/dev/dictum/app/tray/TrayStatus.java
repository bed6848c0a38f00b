package dev.dictum.app.tray;

import dev.dictum.app.dictation.DictationState;
import dev.dictum.app.engine.EngineManager;
import java.util.Locale;

/**
 * What the tray icon, its tooltip and the menu's header say, decided in one place so they always
 * agree: the header never says "Ready" while the icon shows the no-microphone mark.
 *
 * @param look     the icon
 * @param headline the state in a few words ("Ready", "No microphone", "Loading model…")
 * @param model    "toy-en · CPU", or "" before a model is known
 */
public record TrayStatus(TrayIcons.Look look, String headline, String model) {
    /** Linux tray hosts and Windows (before 2000: 64, since: 128 characters) cut longer tooltips. */
    static final int TOOLTIP_MAX = 63;

    public static TrayStatus of(EngineManager.State e, DictationState st, String micProblem) {
        String model = e.model() == null ? "" : e.model() + (e.backend() == null ? ""
                : " · " + e.backend().toUpperCase(Locale.ROOT));
        if (e.phase() == EngineManager.Phase.FAILED) {
            return new TrayStatus(TrayIcons.Look.ERROR, "Model failed to load", model);
        }
        if (micProblem != null && st == DictationState.IDLE) {
            return new TrayStatus(TrayIcons.Look.ERROR, shortProblem(micProblem), model);
        }
        if (e.phase() != EngineManager.Phase.READY && st == DictationState.IDLE) {
            String what = switch (e.phase()) {
                case NONE -> "No model chosen";
                case WARMING_UP -> "Warming up…";
                default -> "Loading model…";
            };
            return new TrayStatus(TrayIcons.Look.LOADING, what, model);
        }
        TrayIcons.Look look = switch (st) {
            case RECORDING -> TrayIcons.Look.RECORDING;
            case TRANSCRIBING, INSERTING -> TrayIcons.Look.TRANSCRIBING;
            case IDLE -> TrayIcons.Look.IDLE;
        };
        return new TrayStatus(look, st.label(), model);
    }

    /** "Dictum: No microphone · toy-en · CPU", each part once, at most {@value #TOOLTIP_MAX} characters. */
    public String tooltip() {
        String text = "Dictum: " + headline + (model.isEmpty() || headline.contains(model) ? "" : " · " + model);
        return text.length() <= TOOLTIP_MAX ? text : text.substring(0, TOOLTIP_MAX - 1).strip() + "…";
    }

    /** A microphone problem's first clause ("No microphone: Java Sound lists no …" → "No microphone"). */
    static String shortProblem(String problem) {
        String first = problem.strip().split("[:(\\n]", 2)[0].strip();
        if (first.isEmpty()) {
            return "Microphone problem";
        }
        return first.length() <= 40 ? first : first.substring(0, 39).strip() + "…";
    }
}
