package dev.dictum.app.ui;

import dev.dictum.app.ui.kit.Ui;
import java.nio.file.Path;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * Shown once at start when the settings file could not be used: what was wrong (line and column
 * for JSON) and where the old file is kept, with the path selectable and a button to copy it. A
 * notice in the indicator is cut at one line; the user's lost configuration deserves a window.
 */
public final class SettingsProblemWindow {
    private final Stage stage = new Stage();

    /**
     * @param notice what {@code SettingsStore.Loaded.notice()} says
     * @param backup the kept file, or null when it could not be copied
     */
    public SettingsProblemWindow(String notice, Path backup) {
        Label head = Ui.heading(backup != null ? "Your settings could not be read" : "Some settings were reset");
        Label icon = new Label(null, Ui.icon("mdi2a-alert-outline"));
        icon.getStyleClass().add("warning-icon");
        HBox top = new HBox(10, icon, head);
        top.setAlignment(Pos.CENTER_LEFT);
        // The path has its own field below: the sentence ends at what was wrong.
        Label what = new Label(backup == null ? notice : notice.replace("; your old file is kept as "
                + dev.dictum.app.files.PathText.quoted(backup) + ".", "."));
        what.setWrapText(true);
        VBox body = new VBox(12, top, what);
        if (backup != null) {
            TextField path = new TextField(backup.toString());
            path.setEditable(false);
            path.setAccessibleText("Where the old settings file is kept");
            HBox.setHgrow(path, Priority.ALWAYS);
            Button copy = Ui.button("Copy _path", "mdi2c-content-copy");
            copy.setOnAction(e -> {
                ClipboardContent c = new ClipboardContent();
                c.putString(backup.toString());
                Clipboard.getSystemClipboard().setContent(c);
            });
            HBox kept = new HBox(8, path, copy);
            kept.setAlignment(Pos.CENTER_LEFT);
            body.getChildren().addAll(new Label("Your old file, to fix and copy back over settings.json:"), kept,
                    Ui.hint("Dictum works with default settings until then; what you change now is saved as usual."));
        }
        Button close = Ui.closeButton(stage);
        HBox buttons = Ui.bar(0, close);
        buttons.setPadding(Insets.EMPTY);
        body.getChildren().add(buttons);
        body.setPadding(new Insets(22));
        stage.setScene(Ui.styled(new Scene(body, 760, backup != null ? 280 : 200)));
        stage.setOnShown(e -> close.requestFocus());
        stage.setTitle("Dictum settings");
    }

    public Stage stage() {
        return stage;
    }

    public void show() {
        stage.show();
        stage.toFront();
    }
}
