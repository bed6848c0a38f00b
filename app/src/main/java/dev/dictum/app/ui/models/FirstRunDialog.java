package dev.dictum.app.ui.models;

import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.catalog.ModelRecommender;
import dev.dictum.app.ui.kit.Ui;
import dev.dictum.app.ui.kit.WindowContext;
import java.util.Locale;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * Shown when Dictum starts with no model on disk: the model that fits this computer, with Download
 * (which opens the model manager with that download running), Choose another, and Later.
 */
public final class FirstRunDialog {

    private final Stage stage = new Stage();
    private final Runnable useOwnFile;

    /**
     * @param download called with the recommended variant when the user accepts it
     * @param browse   opens the model manager
     */
    public FirstRunDialog(WindowContext context, ModelCatalog catalog,
                          Consumer<dev.dictum.app.models.catalog.CatalogVariant> download, Runnable browse,
                          Runnable useOwnFile) {
        this.useOwnFile = useOwnFile;
        var r = new ModelRecommender(catalog).recommend(context.hardware(),
                ModelRecommender.prefersEnglish(Locale.getDefault()));
        var icon = new org.kordamp.ikonli.javafx.FontIcon("mdi2m-microphone-outline");
        icon.getStyleClass().add("hero-icon");
        Label title = Ui.heading("Welcome to Dictum");
        Label intro = Ui.hint("Dictum turns speech into text on this computer. It needs a speech model first; "
                + "nothing you say leaves the computer.");
        HBox head = new HBox(16, icon, new VBox(4, title, intro));
        head.setAlignment(Pos.CENTER_LEFT);

        Label pick = new Label(r.model().name() + " · " + r.variant().label() + " · " + Ui.bytes(r.variant().approxBytes()));
        pick.getStyleClass().add("subheading");
        Label why = Ui.hint(r.reason());
        Label langs = Ui.hint(r.model().englishOnly() ? "English only. For other languages choose a multilingual model."
                : r.model().languageCount() + " languages, and translation into English.");
        VBox choice = new VBox(6, new Label("Recommended model"), pick, why, langs);
        choice.getStyleClass().add("banner");

        Button get = Ui.button("_Download " + Ui.bytes(r.variant().approxBytes()), "mdi2d-download");
        get.setDefaultButton(true);
        get.setOnAction(e -> {
            stage.close();
            download.accept(r.variant());
        });
        Button other = Ui.button("_Choose another…", "mdi2v-view-list-outline");
        other.setOnAction(e -> {
            stage.close();
            browse.run();
        });
        // Offline at first run, or a model already downloaded by another program.
        Button own = Ui.button("Use a model _file I have…", "mdi2f-file-upload-outline");
        own.setOnAction(e -> {
            stage.close();
            useOwnFile.run();
        });
        Button later = Ui.button("_Later", "mdi2c-clock-outline");
        later.setCancelButton(true);
        later.setOnAction(e -> stage.close());
        HBox buttons = Ui.bar(1, later, own, other, get);
        buttons.setPadding(Insets.EMPTY);

        VBox root = new VBox(20, head, choice, buttons);
        root.setPadding(new Insets(24));
        stage.setScene(Ui.styled(new Scene(root, 760, 360)));
        stage.setTitle("Welcome to Dictum");
        stage.setResizable(false);
    }

    public Stage stage() {
        return stage;
    }

    public void show() {
        stage.show();
        stage.toFront();
    }
}
