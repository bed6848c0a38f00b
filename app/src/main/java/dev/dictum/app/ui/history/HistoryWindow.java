package dev.dictum.app.ui.history;

import dev.dictum.app.history.HistoryEntry;
import dev.dictum.app.history.HistoryStatus;
import dev.dictum.app.history.HistoryStore;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.ui.kit.Ui;
import dev.dictum.app.ui.kit.WindowContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

/**
 * The history: every dictation with its time, length, model, backend and release-to-text time;
 * search; copy, insert again, play the recording, transcribe it again with another model or backend;
 * delete one or all; export as text.
 */
public final class HistoryWindow {

    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
            .withZone(ZoneId.systemDefault());
    private static final int LIMIT = 500;

    private final WindowContext context;
    private final Stage stage = new Stage();
    private final TextField search = new TextField();
    private final TableView<HistoryEntry> table = new TableView<>();
    private final TextArea text = new TextArea();
    private final Label status = new Label();
    private final ComboBox<DiscoveredModel> model = new ComboBox<>();
    private final ComboBox<String> backend = new ComboBox<>();

    public HistoryWindow(WindowContext context) {
        this.context = context;
        build();
    }

    public Stage stage() {
        return stage;
    }

    public void show() {
        reload();
        stage.show();
        stage.toFront();
        search.requestFocus();
    }

    private void build() {
        search.setPromptText("Search transcripts");
        search.setAccessibleText("Search transcripts");
        search.textProperty().addListener((o, a, t) -> reload());
        HBox.setHgrow(search, Priority.ALWAYS);
        HBox searchBar = new HBox(8, Ui.icon("mdi2m-magnify"), search);
        searchBar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);

        table.getColumns().setAll(List.of(
                Ui.<HistoryEntry>column("Time", 130, e -> TIME.format(e.time())),
                Ui.<HistoryEntry>column("Length", 70, e -> seconds(e.durationMillis())),
                Ui.<HistoryEntry>column("Text", 330, HistoryWindow::shownText),
                Ui.<HistoryEntry>column("Model", 130, HistoryEntry::model),
                Ui.<HistoryEntry>column("Backend", 70, e -> e.backend() == null ? "" : e.backend().toUpperCase(Locale.ROOT)),
                Ui.<HistoryEntry>column("Release→text", 100, e -> e.releaseToTextMillis() < 0 ? "" : e.releaseToTextMillis() + " ms")));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("Nothing dictated yet"));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, e) -> {
            text.setText(e == null ? "" : e.text());
            status.setText(e == null ? "" : details(e));
        });
        text.setEditable(false);
        text.setWrapText(true);
        text.setPrefRowCount(3);
        text.setAccessibleText("Selected transcript");

        Button copy = Ui.button("_Copy", "mdi2c-content-copy");
        copy.setOnAction(e -> selected(h -> {
            ClipboardContent c = new ClipboardContent();
            c.putString(h.text());
            Clipboard.getSystemClipboard().setContent(c);
            say("Copied to the clipboard", false);
        }));
        Button insert = Ui.button("_Insert again", "mdi2c-cursor-text");
        insert.setOnAction(e -> selected(h -> {
            stage.setIconified(true); // the window that had the focus before gets it back
            context.insertText(h.text());
            say("Inserted into the focused window", false);
        }));
        Button play = Ui.button("_Play", "mdi2p-play-circle-outline");
        play.setOnAction(e -> selected(h -> {
            if (h.wavPath() == null || !Files.isRegularFile(h.wavPath())) {
                say("The recording of this dictation was not kept", true);
            } else {
                context.play(h.wavPath());
            }
        }));
        Button again = Ui.button("_Transcribe again", "mdi2r-refresh");
        again.setOnAction(e -> selected(this::retranscribe));
        Button delete = Ui.button("_Delete", "mdi2t-trash-can-outline");
        delete.setOnAction(e -> selected(h -> {
            store().ifPresent(s -> s.delete(h.id()));
            reload();
        }));
        Button deleteAll = Ui.button("Delete _all…", "mdi2d-delete-sweep-outline");
        deleteAll.setOnAction(e -> deleteAll());
        Button export = Ui.button("_Export…", "mdi2e-export-variant");
        export.setOnAction(e -> export());
        for (Button b : List.of(copy, insert, play, again, delete)) {
            b.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        }

        model.getItems().setAll(context.installedModels());
        model.setConverter(Ui.shownAs(DiscoveredModel::name));
        model.setPromptText("Model");
        model.setAccessibleText("Model for transcribing again");
        String current = context.settings().current().models().modelPath();
        model.getItems().stream().filter(m -> m.path().toString().equals(current)).findFirst().ifPresent(model::setValue);
        backend.getItems().setAll(context.backends().keySet());
        backend.setValue(context.settings().current().advanced().backend());
        backend.setAccessibleText("Backend for transcribing again");

        HBox actions = new HBox(8, copy, insert, play, delete);
        HBox redo = new HBox(8, new Label("With"), model, backend, again);
        redo.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        actions.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        status.setWrapText(true);
        VBox detail = new VBox(8, text, actions, redo, status);

        VBox center = new VBox(10, searchBar, table, detail);
        VBox.setVgrow(table, Priority.ALWAYS);
        center.setPadding(new Insets(12, 20, 8, 20));
        var footer = Ui.bar(1, new Label(), export, deleteAll, Ui.closeButton(stage));
        footer.getStyleClass().add("footer");
        VBox top = new VBox(Ui.heading("History"));
        top.setPadding(new Insets(16, 20, 0, 20));
        BorderPane root = new BorderPane(center);
        root.setTop(top);
        root.setBottom(footer);
        Scene scene = Ui.styled(new Scene(root, 960, 640));
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN), search::requestFocus);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.DELETE), delete::fire);
        stage.setScene(scene);
        stage.setTitle("Dictum History");
    }


    private java.util.Optional<HistoryStore> store() {
        return context.history();
    }

    private void reload() {
        if (store().isEmpty()) {
            table.getItems().clear();
            table.setPlaceholder(new Label("The history is unavailable (see the log)"));
            return;
        }
        String q = search.getText().strip();
        table.getItems().setAll(q.isEmpty() ? store().get().recent(LIMIT, 0) : store().get().search(q, LIMIT));
    }

    private void selected(java.util.function.Consumer<HistoryEntry> action) {
        HistoryEntry e = table.getSelectionModel().getSelectedItem();
        if (e != null) {
            action.accept(e);
        }
    }

    private void retranscribe(HistoryEntry h) {
        if (h.wavPath() == null || !Files.isRegularFile(h.wavPath())) {
            say("The recording of this dictation was not kept, so it cannot be transcribed again", true);
            return;
        }
        if (model.getValue() == null) {
            say("Choose a model first", true);
            return;
        }
        say("Transcribing with " + model.getValue().name() + " on " + backend.getValue() + "…", false);
        context.retranscribe(h.wavPath(), model.getValue(), backend.getValue()).whenComplete((t, err) ->
                Platform.runLater(() -> {
                    if (err != null) {
                        say("Transcription failed: " + (err.getCause() != null ? err.getCause() : err).getMessage(), true);
                    } else {
                        text.setText(t);
                        say("Transcribed again with " + model.getValue().name(), false);
                    }
                }));
    }

    private void deleteAll() {
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, "Every transcript in the history will be deleted. "
                + "Saved recordings stay in the recordings folder.", ButtonType.CANCEL, ButtonType.OK);
        confirm.setHeaderText("Delete the whole history?");
        confirm.initOwner(stage);
        Ui.styled(confirm.getDialogPane().getScene());
        if (confirm.showAndWait().orElse(ButtonType.CANCEL) == ButtonType.OK) {
            int n = store().map(HistoryStore::deleteAll).orElse(0);
            reload();
            say("Deleted " + n + " entries", false);
        }
    }

    private void export() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Export history as text");
        chooser.setInitialFileName("dictum-history.txt");
        java.io.File f = chooser.showSaveDialog(stage);
        if (f == null) {
            return;
        }
        try {
            Files.writeString(f.toPath(), exportText(table.getItems()), StandardCharsets.UTF_8);
            say("Exported " + table.getItems().size() + " entries to " + f, false);
        } catch (IOException e) {
            say("Could not export: " + e.getMessage(), true);
        }
    }

    /** One line per dictation: time, then the text (what "Export" writes). */
    static String exportText(List<HistoryEntry> entries) {
        StringBuilder b = new StringBuilder();
        for (HistoryEntry e : entries) {
            if (e.text().isEmpty()) {
                continue;
            }
            b.append(TIME.format(e.time())).append('\t').append(e.text().replace('\n', ' ')).append('\n');
        }
        return b.toString();
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private void say(String s, boolean error) {
        status.getStyleClass().removeAll("error", "hint");
        status.getStyleClass().add(error ? "error" : "hint");
        status.setText(s);
    }


    /** The Text column: what was inserted, or why nothing was. */
    static String shownText(HistoryEntry e) {
        return switch (e.status()) {
            case FAILED -> "Failed: " + e.error();
            case CANCELLED -> "(cancelled)" + (e.text().isEmpty() ? "" : " " + e.text());
            case EMPTY -> "(no speech)";
            case OK -> e.text().isEmpty() ? "(no speech)" : e.text();
        };
    }

    /** Under the text: what the engine heard when replacements changed it, and a note such as "audio not saved". */
    static String details(HistoryEntry e) {
        String heard = e.replaced() ? "Heard: \u201c" + e.rawText() + "\u201d" : "";
        String note = e.status() != HistoryStatus.FAILED && e.error() != null ? e.error() : "";
        return heard.isEmpty() || note.isEmpty() ? heard + note : heard + " \u00b7 " + note;
    }
}
