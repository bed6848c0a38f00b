package dev.dictum.app.ui.settings;

import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.ui.kit.Ui;
import dev.dictum.app.ui.kit.WindowContext;
import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.HPos;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.util.StringConverter;

/**
 * One group's fields as a form: a label, an editor chosen by the field's type (check box, choice,
 * number, text, hotkey), and under it the reason a value is refused, or a line of help. Special
 * editors: the input device (with a live level meter and a 3-second test), the backend (with what each
 * backend's check says), folders (with Browse), the model (with the model manager).
 */
final class SettingsForm {

    private static final Set<String> HOTKEYS = Set.of("dictate", "cancel", "stopAndEnter", "pasteLast");
    private static final List<String> LANGUAGES = List.of("auto", "en", "de", "fr", "es", "it", "pt", "nl", "pl",
            "ru", "uk", "tr", "sv", "da", "no", "fi", "cs", "el", "hu", "ro", "ja", "zh", "ko", "ar", "hi");

    private final SettingsGroup group;
    private final String prefix;
    private final WindowContext context;
    private final BiConsumer<String, Object> edit;
    private final Consumer<String> unparsable;
    private final Runnable openModelManager;
    private final GridPane grid = new GridPane();
    private final Map<String, Label> messages = new HashMap<>();
    private final Map<String, Control> editors = new HashMap<>();
    private final Map<String, String> helps = new HashMap<>();
    private final List<AutoCloseable> open = new ArrayList<>();
    private int row;

    SettingsForm(SettingsGroup group, Settings draft, WindowContext context, BiConsumer<String, Object> edit,
                 Consumer<String> unparsable, Runnable openModelManager) {
        this.group = group;
        this.prefix = RecordFields.accessor(group);
        this.context = context;
        this.edit = edit;
        this.unparsable = unparsable;
        this.openModelManager = openModelManager;
        grid.getStyleClass().add("form");
        // One label width for every group, so the fields do not shift when switching groups.
        ColumnConstraints labels = new ColumnConstraints(220, 220, 220);
        labels.setHalignment(HPos.LEFT);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        fields.setFillWidth(true);
        grid.getColumnConstraints().addAll(labels, fields);
        Label title = Ui.heading(group.label());
        grid.add(title, 0, row++, 2, 1);
        Record values = RecordFields.group(draft, group);
        for (RecordComponent c : RecordFields.fields(values)) {
            addField(c, RecordFields.get(values, c));
        }
        showProblems(draft);
    }

    Node node() {
        return grid;
    }

    /** Puts each field's refusal reason (or its help) under it. */
    void showProblems(Settings draft) {
        for (var e : messages.entrySet()) {
            String key = e.getKey();
            Label l = e.getValue();
            if (l.getStyleClass().contains("parse-error")) {
                continue;
            }
            String reason = draft.reason(key).orElse(null);
            setMessage(key, reason);
        }
    }

    void close() {
        for (AutoCloseable c : open) {
            try {
                c.close();
            } catch (Exception ignored) {
                // a level watch that is already gone
            }
        }
        open.clear();
    }

    private void setMessage(String key, String error) {
        Label l = messages.get(key);
        Control editor = editors.get(key);
        l.getStyleClass().removeAll("field-error", "field-help");
        if (error != null) {
            l.setText(error);
            l.getStyleClass().add("field-error");
            editor.getStyleClass().add("invalid");
        } else {
            l.setText(helps.getOrDefault(key, ""));
            l.getStyleClass().add("field-help");
            editor.getStyleClass().remove("invalid");
        }
        l.setManaged(!l.getText().isEmpty());
        l.setVisible(!l.getText().isEmpty());
    }

    private void addField(RecordComponent c, Object value) {
        String key = prefix + "." + c.getName();
        FieldLabels.Text text = FieldLabels.of(key);
        Class<?> type = c.getType();
        Node editorNode;
        Control editor;
        if (type == Boolean.class) {
            CheckBox box = new CheckBox(text.label());
            box.setSelected((Boolean) value);
            box.setOnAction(e -> edit.accept(key, box.isSelected()));
            editor = box;
            editorNode = box;
        } else if (type.isEnum()) {
            ComboBox<Object> combo = new ComboBox<>();
            combo.getItems().setAll(type.getEnumConstants());
            combo.setValue(value);
            combo.setConverter(labelConverter());
            combo.setOnAction(e -> edit.accept(key, combo.getValue()));
            editor = combo;
            editorNode = combo;
        } else if (type == Integer.class || type == Double.class) {
            TextField field = new TextField(String.valueOf(value));
            field.setPrefColumnCount(8);
            field.setMaxWidth(160);
            field.textProperty().addListener((o, a, t) -> number(key, type, t));
            editor = field;
            editorNode = field;
        } else if (group == SettingsGroup.HOTKEYS && HOTKEYS.contains(c.getName())) {
            HotkeyField field = new HotkeyField((String) value, !c.getName().equals("dictate"), t -> edit.accept(key, t));
            field.setMaxWidth(320);
            editor = field;
            editorNode = field;
        } else if (key.equals("audio.inputDevice")) {
            ComboBox<String> combo = deviceChoice((String) value, key);
            editor = combo;
            editorNode = new VBox(8, combo, levelAndTest());
        } else if (key.equals("advanced.backend")) {
            ComboBox<String> combo = new ComboBox<>();
            combo.getItems().setAll("auto", "cpu", "cuda", "hip");
            combo.setValue((String) value);
            combo.setOnAction(e -> edit.accept(key, combo.getValue()));
            editor = combo;
            editorNode = new VBox(8, combo, backendReport());
        } else if (key.equals("transcription.language")) {
            ComboBox<String> combo = new ComboBox<>();
            combo.setEditable(true);
            combo.getItems().setAll(LANGUAGES);
            combo.setValue((String) value);
            combo.getEditor().textProperty().addListener((o, a, t) -> edit.accept(key, t.strip()));
            editor = combo;
            editorNode = combo;
        } else if (key.equals("insertion.replacements")) {
            @SuppressWarnings("unchecked")
            ReplacementsEditor rules = new ReplacementsEditor((List<dev.dictum.app.settings.Replacement>) value,
                    v -> edit.accept(key, v));
            editor = rules.editor();
            editorNode = rules.node();
        } else if (key.equals("transcription.initialPrompt") || key.equals("transcription.vocabulary")) {
            TextArea area = new TextArea((String) value);
            area.setPrefRowCount(key.equals("transcription.vocabulary") ? 5 : 3);
            area.setWrapText(true);
            area.textProperty().addListener((o, a, t) -> edit.accept(key, t));
            editor = area;
            editorNode = area;
        } else if (key.equals("models.modelPath")) {
            ComboBox<String> combo = modelChoice((String) value, key);
            Button manage = Ui.button("Manage _models…", "mdi2d-download-outline");
            manage.setOnAction(e -> openModelManager.run());
            editor = combo;
            editorNode = new HBox(8, combo, manage);
        } else if (key.equals("models.modelsFolder") || key.equals("advanced.rocmDirectory")) {
            TextField field = new TextField((String) value);
            field.textProperty().addListener((o, a, t) -> edit.accept(key, t));
            Button browse = Ui.button("_Browse…", "mdi2f-folder-open-outline");
            browse.setOnAction(e -> {
                DirectoryChooser chooser = new DirectoryChooser();
                chooser.setTitle(text.label());
                File f = chooser.showDialog(grid.getScene().getWindow());
                if (f != null) {
                    field.setText(f.getAbsolutePath());
                }
            });
            HBox.setHgrow(field, Priority.ALWAYS);
            editor = field;
            editorNode = new HBox(8, field, browse);
        } else {
            TextField field = new TextField((String) value);
            field.textProperty().addListener((o, a, t) -> edit.accept(key, t));
            editor = field;
            editorNode = field;
        }
        editor.setAccessibleText(text.label());
        editors.put(key, editor);
        if (text.help() != null) {
            helps.put(key, text.help());
        }
        Label message = new Label();
        message.setWrapText(true);
        messages.put(key, message);
        VBox cell = new VBox(3, editorNode, message);
        if (type == Boolean.class) {
            grid.add(cell, 1, row++);
        } else {
            Label label = new Label(text.label());
            label.getStyleClass().add("form-label");
            label.setLabelFor(editor);
            label.setWrapText(true);
            GridPane.setValignment(label, VPos.TOP);
            grid.add(label, 0, row);
            grid.add(cell, 1, row++);
        }
    }

    private void number(String key, Class<?> type, String text) {
        Label l = messages.get(key);
        try {
            // Not a conditional expression: `c ? Integer : Double` would promote the Integer to a double.
            Object v;
            if (type == Integer.class) {
                v = Integer.valueOf(text.strip());
            } else {
                v = Double.valueOf(text.strip());
            }
            l.getStyleClass().remove("parse-error");
            edit.accept(key, v);
        } catch (NumberFormatException e) {
            l.getStyleClass().add("parse-error");
            setMessage(key, type == Integer.class ? "enter a whole number" : "enter a number (e.g. 0.6)");
            unparsable.accept(key);
        }
    }

    private ComboBox<String> deviceChoice(String value, String key) {
        ComboBox<String> combo = new ComboBox<>();
        combo.getItems().add("");
        combo.getItems().addAll(context.inputDevices());
        if (!value.isEmpty() && !combo.getItems().contains(value)) {
            combo.getItems().add(value); // a configured device that is unplugged now stays visible
        }
        combo.setValue(value);
        combo.setConverter(Ui.shownAs(s -> s.isEmpty() ? "System default" : s));
        combo.setMaxWidth(Double.MAX_VALUE);
        combo.setOnAction(e -> edit.accept(key, combo.getValue()));
        return combo;
    }

    private Node levelAndTest() {
        ProgressBar meter = new ProgressBar(0);
        meter.getStyleClass().add("level-meter");
        meter.setAccessibleText("Input level");
        Label result = new Label();
        result.getStyleClass().add("hint");
        result.managedProperty().bind(result.textProperty().isNotEmpty());
        Button test = Ui.button("_Test (3 s)", "mdi2r-record-circle-outline");
        test.setTooltip(new javafx.scene.control.Tooltip("Record three seconds and play them back"));
        test.setOnAction(e -> {
            test.setDisable(true);
            result.setText("Recording… speak now");
            context.testRecording().whenComplete((msg, err) -> Platform.runLater(() -> {
                test.setDisable(false);
                result.setText(err != null ? "Test failed: " + rootMessage(err) : msg);
            }));
        });
        open.add(context.watchLevel(v -> Platform.runLater(() -> meter.setProgress(v))));
        HBox line = new HBox(10, Ui.icon("mdi2v-volume-high"), meter, test);
        line.setAlignment(Pos.CENTER_LEFT);
        return new VBox(6, line, result);
    }

    private Node backendReport() {
        VBox box = new VBox(4);
        for (var e : context.backends().entrySet()) {
            if (e.getKey().equals("auto")) {
                continue;
            }
            boolean ok = e.getValue() == null;
            Label l = new Label(e.getKey().toUpperCase(java.util.Locale.ROOT) + ": " + (ok ? "available" : e.getValue()),
                    Ui.icon(ok ? "mdi2c-check-circle-outline" : "mdi2c-close-circle-outline"));
            l.getStyleClass().add(ok ? "ok" : "hint");
            l.setWrapText(true);
            box.getChildren().add(l);
        }
        return box;
    }

    private ComboBox<String> modelChoice(String value, String key) {
        ComboBox<String> combo = new ComboBox<>();
        Map<String, String> names = new HashMap<>();
        for (DiscoveredModel m : context.installedModels()) {
            combo.getItems().add(m.path().toString());
            names.put(m.path().toString(), m.name() + " · " + Ui.bytes(m.sizeBytes()));
        }
        if (!value.isEmpty() && !combo.getItems().contains(value)) {
            combo.getItems().add(value);
        }
        combo.setValue(value);
        combo.setConverter(Ui.shownAs(s -> s.isEmpty() ? "None chosen" : names.getOrDefault(s, s)));
        combo.setOnAction(e -> edit.accept(key, combo.getValue()));
        combo.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(combo, Priority.ALWAYS);
        return combo;
    }

    /** Enums show their {@code label()} where they have one. */
    private static StringConverter<Object> labelConverter() {
        return Ui.shownAs(o -> {
                try {
                Method label = o.getClass().getMethod("label");
                return (String) label.invoke(o);
            } catch (ReflectiveOperationException e) {
                String n = o.toString().replace('_', ' ').toLowerCase(java.util.Locale.ROOT);
                return Character.toUpperCase(n.charAt(0)) + n.substring(1);
            }
        });
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
