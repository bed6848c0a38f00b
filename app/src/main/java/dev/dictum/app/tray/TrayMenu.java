package dev.dictum.app.tray;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.settings.Settings;
import java.awt.Font;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.swing.ButtonGroup;
import javax.swing.JLabel;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JPopupMenu;
import javax.swing.JRadioButtonMenuItem;
import javax.swing.border.EmptyBorder;

/** Builds the tray's menu from the app's current state, each time it opens (so it is never stale). */
final class TrayMenu {
    private static final int MAX_LANGUAGES_FLAT = 12;

    private TrayMenu() {
    }

    static JPopupMenu build(AppActions app) {
        Settings s = app.settings();
        JPopupMenu menu = new JPopupMenu();
        menu.add(header(app));
        menu.addSeparator();
        menu.add(modelMenu(app, s));
        menu.add(backendMenu(app, s));
        menu.add(deviceMenu(app, s));
        menu.add(languageMenu(app, s));
        menu.add(modeMenu(app, s));
        menu.add(insertMenu(app, s));
        menu.addSeparator();
        boolean hasText = app.lastText() != null;
        menu.add(item("Copy last transcript", hasText, app::copyLast));
        menu.add(item("Paste last transcript", hasText, app::pasteLast));
        if (app.status().retryAvailable()) {
            menu.add(item("Retry failed dictation", true, app::retry));
        }
        menu.add(item("Open recordings folder", true, app::openRecordings));
        menu.addSeparator();
        menu.add(item("Settings…", true, app::openSettings));
        menu.add(item("Models…", true, app::openModels));
        menu.add(item("History…", true, app::openHistory));
        menu.addSeparator();
        menu.add(item("Quit Dictum", true, app::quit));
        return menu;
    }

    private static JLabel header(AppActions app) {
        TrayStatus t = app.trayStatus();
        String state = t.headline();
        String model = t.model();
        JLabel l = new JLabel("<html><b>Dictum</b> — " + escape(state)
                + (model.isEmpty() ? "" : "<br><span style='color:#5f6368'>" + escape(model) + "</span>") + "</html>");
        l.setBorder(new EmptyBorder(6, 12, 6, 12));
        l.setFont(l.getFont().deriveFont(Font.PLAIN));
        return l;
    }

    private static JMenu modelMenu(AppActions app, Settings s) {
        JMenu m = new JMenu("Model");
        List<DiscoveredModel> models = app.models();
        ButtonGroup g = new ButtonGroup();
        Path current = s.models().modelPath().isBlank() ? null : Path.of(s.models().modelPath()).toAbsolutePath()
                .normalize();
        for (DiscoveredModel d : models) {
            boolean selected = d.path().toAbsolutePath().normalize().equals(current);
            m.add(radio(g, modelLabel(d), selected, () -> app.chooseModel(d)));
        }
        if (models.isEmpty()) {
            m.add(item("No models found in the models folder or the Hugging Face cache", false, () -> { }));
        }
        return m;
    }

    private static JMenu backendMenu(AppActions app, Settings s) {
        JMenu m = new JMenu("Backend");
        ButtonGroup g = new ButtonGroup();
        String active = app.engineState().backend();
        for (Map.Entry<String, String> b : app.backends().entrySet()) {
            String name = b.getKey();
            String label = name.equals("auto") ? "Auto" : name.toUpperCase(Locale.ROOT);
            if (name.equals("auto") && active != null) {
                label += " (uses " + active.toUpperCase(Locale.ROOT) + ")";
            }
            // A few words per backend; the loader's whole text would make the menu 1000 px wide.
            JRadioButtonMenuItem r = radio(g, label + (b.getValue() == null ? ""
                    : " — " + BackendReason.shortly(b.getValue())), name.equals(s.advanced().backend()),
                    () -> app.chooseBackend(name));
            if (b.getValue() != null) {
                r.setEnabled(false);
            }
            m.add(r);
        }
        StringBuilder details = new StringBuilder();
        app.backends().forEach((name, why) -> {
            if (why != null) {
                details.append(name).append(": ").append(why).append('\n');
            }
        });
        if (!details.isEmpty()) {
            m.addSeparator();
            m.add(item("Copy details (or run: dictum doctor)", true, () -> java.awt.Toolkit.getDefaultToolkit()
                    .getSystemClipboard().setContents(new java.awt.datatransfer.StringSelection(details.toString()),
                            null)));
        }
        return m;
    }

    private static JMenu deviceMenu(AppActions app, Settings s) {
        JMenu m = new JMenu("Input device");
        ButtonGroup g = new ButtonGroup();
        String chosen = s.audio().inputDevice();
        m.add(radio(g, "System default", chosen.isBlank(), () -> app.chooseInputDevice("")));
        List<String> devices = app.inputDevices();
        for (String d : devices) {
            m.add(radio(g, d, d.equals(chosen), () -> app.chooseInputDevice(d)));
        }
        if (!chosen.isBlank() && !devices.contains(chosen)) {
            JRadioButtonMenuItem r = radio(g, chosen + " (not connected)", true, () -> { });
            r.setEnabled(false);
            m.add(r);
        }
        return m;
    }

    private static JMenu languageMenu(AppActions app, Settings s) {
        JMenu m = new JMenu("Language");
        ButtonGroup g = new ButtonGroup();
        String chosen = s.transcription().language();
        m.add(radio(g, "Detect automatically", chosen.equals("auto"), () -> app.chooseLanguage("auto")));
        List<String> langs = app.languages();
        JMenu target = m;
        for (int i = 0; i < langs.size(); i++) {
            if (i == MAX_LANGUAGES_FLAT && langs.size() > MAX_LANGUAGES_FLAT + 2) {
                target = new JMenu("More languages");
                m.add(target);
            }
            String code = langs.get(i);
            target.add(radio(g, languageName(code), code.equals(chosen), () -> app.chooseLanguage(code)));
        }
        return m;
    }

    private static JMenu modeMenu(AppActions app, Settings s) {
        JMenu m = new JMenu("Mode");
        ButtonGroup g = new ButtonGroup();
        for (DictationMode mode : DictationMode.values()) {
            m.add(radio(g, mode.label(), mode == s.hotkeys().mode(), () -> app.chooseMode(mode)));
        }
        return m;
    }

    private static JMenu insertMenu(AppActions app, Settings s) {
        JMenu m = new JMenu("Insert with");
        ButtonGroup g = new ButtonGroup();
        for (InsertionMethod im : InsertionMethod.values()) {
            m.add(radio(g, im.label(), im == s.insertion().method(), () -> app.chooseInsertion(im)));
        }
        return m;
    }

    private static JRadioButtonMenuItem radio(ButtonGroup g, String label, boolean selected, Runnable action) {
        JRadioButtonMenuItem r = new JRadioButtonMenuItem(label, selected);
        g.add(r);
        r.addActionListener(e -> {
            if (!selected) {
                action.run();
            }
        });
        return r;
    }

    private static JMenuItem item(String label, boolean enabled, Runnable action) {
        JMenuItem i = new JMenuItem(label);
        i.setEnabled(enabled);
        i.addActionListener(e -> action.run());
        return i;
    }

    /** "toy-en  whisper.cpp · 44 MB" with the details in grey. */
    private static String modelLabel(DiscoveredModel d) {
        String name = d.name();
        int paren = name.lastIndexOf(" (");
        String title = paren > 0 ? name.substring(0, paren) : name;
        String detail = paren > 0 ? name.substring(paren + 2, name.length() - 1) : d.format().label();
        String sz = size(d.sizeBytes());
        return "<html>" + escape(title) + "&nbsp;&nbsp;<font color='#80868b'>" + escape(detail)
                + (sz.isEmpty() ? "" : " · " + sz) + "</font></html>";
    }

    /** "de" → "German (de)"; unknown codes stay as they are. */
    static String languageName(String code) {
        String name = Locale.forLanguageTag(code).getDisplayLanguage(Locale.ENGLISH);
        return name.isBlank() || name.equals(code) ? code : name + " (" + code + ")";
    }

    private static String size(long bytes) {
        if (bytes <= 0) {
            return "";
        }
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30))
                : String.format(Locale.ROOT, "%d MB", Math.max(1, bytes >> 20));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
