package dev.dictum.app.ui.settings;

import dev.dictum.app.settings.Settings;
import dev.dictum.app.settings.SettingsGroup;
import dev.dictum.app.ui.kit.Ui;
import dev.dictum.app.ui.kit.WindowContext;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * The settings window: the groups on the left, the chosen group's fields on the right, Save and
 * Revert below. Edits go into a draft; a field whose value is refused says why under itself and keeps
 * Save disabled. Save applies the whole draft at once through {@code LiveSettings.update}, which writes
 * the file atomically and tells the running app (hotkeys, microphone, engine) what changed.
 */
public final class SettingsWindow {

    static final Map<SettingsGroup, String> ICONS = Map.of(
            SettingsGroup.GENERAL, "mdi2c-cog-outline",
            SettingsGroup.HOTKEYS, "mdi2k-keyboard-outline",
            SettingsGroup.AUDIO, "mdi2m-microphone-outline",
            SettingsGroup.TRANSCRIPTION, "mdi2t-text-recognition",
            SettingsGroup.INSERTION, "mdi2c-cursor-text",
            SettingsGroup.MODELS, "mdi2c-cube-outline",
            SettingsGroup.STORAGE, "mdi2s-shield-lock-outline",
            SettingsGroup.ADVANCED, "mdi2t-tune-variant");

    private final WindowContext context;
    private final Runnable openModelManager;
    private final Stage stage = new Stage();
    private final ListView<SettingsGroup> groups = new ListView<>();
    private final ScrollPane formPane = new ScrollPane();
    private final Label status = new Label();
    private final Button save = Ui.button("_Save", "mdi2c-content-save-outline");
    private final Button revert = Ui.button("Re_vert", "mdi2u-undo");
    private final Set<String> unparsable = new HashSet<>();
    private Settings saved;
    private Settings draft;
    private SettingsForm form;

    public SettingsWindow(WindowContext context, Runnable openModelManager) {
        this.context = context;
        this.openModelManager = openModelManager;
        saved = context.settings().current();
        draft = saved;
        build();
    }

    public Stage stage() {
        return stage;
    }

    /** Shows the window at a group (on the FX thread). */
    public void show(SettingsGroup group) {
        groups.getSelectionModel().select(group);
        stage.show();
        stage.toFront();
        groups.requestFocus();
    }

    private void build() {
        groups.getItems().setAll(SettingsGroup.values());
        groups.getStyleClass().add("group-list");
        groups.setPrefWidth(210);
        groups.setCellFactory(l -> new ListCell<>() {
            @Override
            protected void updateItem(SettingsGroup g, boolean empty) {
                super.updateItem(g, empty);
                setText(empty || g == null ? null : g.label());
                setGraphic(empty || g == null ? null : Ui.icon(ICONS.get(g)));
                setGraphicTextGap(10);
            }
        });
        groups.getSelectionModel().selectedItemProperty().addListener((o, a, g) -> showGroup(g));
        formPane.setFitToWidth(true);
        formPane.setStyle("-fx-background-color: transparent; -fx-background: #ffffff;");

        Button reset = Ui.button("_Reset group to defaults", "mdi2r-restore");
        reset.setOnAction(e -> {
            SettingsGroup g = groups.getSelectionModel().getSelectedItem();
            draft = draft.withDefaults(g);
            unparsable.removeIf(k -> k.startsWith(RecordFields.accessor(g) + "."));
            showGroup(g);
            refresh();
        });
        revert.setOnAction(e -> {
            draft = saved;
            unparsable.clear();
            showGroup(groups.getSelectionModel().getSelectedItem());
            refresh();
        });
        save.setDefaultButton(true);
        save.setOnAction(e -> save());
        Button close = Ui.closeButton(stage);
        status.setWrapText(true);
        status.setMaxWidth(360);

        var footer = Ui.bar(2, reset, status, revert, save, close);
        footer.getStyleClass().add("footer");
        BorderPane root = new BorderPane(formPane);
        root.setLeft(groups);
        root.setBottom(footer);
        Scene scene = Ui.styled(new Scene(root, 920, 640));
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.S, KeyCombination.SHORTCUT_DOWN), this::save);
        stage.setScene(scene);
        stage.setTitle("Dictum Settings");
        stage.setMinWidth(760);
        stage.setMinHeight(480);
        stage.setOnHidden(e -> {
            if (form != null) {
                form.close();
            }
        });
        groups.getSelectionModel().selectFirst();
        refresh();
    }

    /** The model list changed: the Models group re-reads it (the draft, with any unsaved edit, stays). */
    public void modelsChanged() {
        if (groups.getSelectionModel().getSelectedItem() == SettingsGroup.MODELS) {
            double at = formPane.getVvalue();
            showGroup(SettingsGroup.MODELS);
            formPane.setVvalue(at);
        }
    }

    private void showGroup(SettingsGroup g) {
        if (g == null) {
            return;
        }
        if (form != null) {
            form.close();
        }
        form = new SettingsForm(g, draft, context, this::edit, this::unparsable, openModelManager);
        VBox box = new VBox(form.node());
        box.setPadding(new Insets(0, 0, 12, 0));
        formPane.setContent(box);
        formPane.setVvalue(0);
    }

    /** A field changed to a parsable value. */
    private void edit(String key, Object value) {
        unparsable.remove(key);
        try {
            draft = RecordFields.with(draft, groups.getSelectionModel().getSelectedItem(),
                    key.substring(key.indexOf('.') + 1), value);
        } catch (IllegalArgumentException e) {
            unparsable.add(key);
        }
        form.showProblems(draft);
        refresh();
    }

    /** A field holds text that is not a value of its type (letters in a number). */
    private void unparsable(String key) {
        unparsable.add(key);
        refresh();
    }

    private void refresh() {
        int problems = draft.problems().size() + unparsable.size();
        boolean changed = !draft.equals(saved);
        save.setDisable(!changed || problems > 0);
        revert.setDisable(!changed && unparsable.isEmpty());
        status.getStyleClass().removeAll("error", "hint", "ok");
        if (problems > 0) {
            status.setText(problems == 1 ? "1 value needs fixing before saving" : problems + " values need fixing before saving");
            status.getStyleClass().add("error");
        } else if (changed) {
            status.setText("Unsaved changes");
            status.getStyleClass().add("hint");
        } else if (!"Saved".equals(status.getText())) {
            status.setText("");
        }
    }

    private void save() {
        if (save.isDisabled()) {
            return;
        }
        Settings before = saved;
        Settings target = draft;
        try {
            if (!target.general().startWithOs().equals(before.general().startWithOs())) {
                context.startWithSystem(target.general().startWithOs());
            }
            saved = context.settings().update(current -> RecordFields.changedGroups(current, before, target));
            draft = saved;
            status.getStyleClass().removeAll("error", "hint");
            status.getStyleClass().add("ok");
            status.setText("Saved");
        } catch (RuntimeException | java.io.IOException e) {
            status.getStyleClass().removeAll("ok", "hint");
            status.getStyleClass().add("error");
            status.setText("Not saved: " + e.getMessage());
        }
        refresh();
        Platform.runLater(() -> form.showProblems(draft));
    }
}
