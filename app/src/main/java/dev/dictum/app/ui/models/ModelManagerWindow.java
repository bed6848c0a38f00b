package dev.dictum.app.ui.models;

import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.models.ModelDiscovery;
import dev.dictum.app.models.ModelRemoval;
import dev.dictum.app.models.catalog.CatalogModel;
import dev.dictum.app.models.catalog.CatalogVariant;
import dev.dictum.app.models.catalog.ModelCatalog;
import dev.dictum.app.models.catalog.ModelRecommender;
import dev.dictum.app.models.download.DownloadFailure;
import dev.dictum.app.models.download.DownloadProgress;
import dev.dictum.app.models.download.DownloadTask;
import dev.dictum.app.models.download.ModelDownloader;
import dev.dictum.app.ui.kit.Ui;
import dev.dictum.app.ui.kit.WindowContext;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * The model manager: the catalog with the model recommended for this computer, a download with
 * progress, speed and time left (cancel keeps the part; Download again resumes it), and the models
 * already on disk, which can be made the one in use or removed.
 */
public final class ModelManagerWindow {

    private final WindowContext context;
    private final ModelCatalog catalog;
    private final ModelDownloader downloader;
    private final ModelRecommender.Recommendation recommended;
    private final Stage stage = new Stage();
    private final TableView<CatalogModel> available = new TableView<>();
    private final TableView<DiscoveredModel> installed = new TableView<>();
    private final ComboBox<CatalogVariant> variant = new ComboBox<>();
    private final Label detail = Ui.hint("");
    private final Button download = Ui.button("_Download", "mdi2d-download");
    private final Button cancel = Ui.button("_Cancel download", "mdi2c-close-circle-outline");
    private final ProgressBar progress = new ProgressBar(0);
    private final Label progressText = new Label();
    private final Label message = new Label();
    private final Map<String, DownloadTask> tasks = new HashMap<>();

    public ModelManagerWindow(WindowContext context, ModelCatalog catalog, ModelDownloader downloader) {
        this.context = context;
        this.catalog = catalog;
        this.downloader = downloader;
        this.recommended = new ModelRecommender(catalog).recommend(context.hardware(),
                ModelRecommender.prefersEnglish(Locale.getDefault()));
        build();
    }

    public Stage stage() {
        return stage;
    }

    public void show() {
        refreshInstalled();
        stage.show();
        stage.toFront();
    }

    /** Selects a model and format and starts downloading it (the first-run dialog's choice). */
    public void download(CatalogVariant v) {
        available.getSelectionModel().select(catalog.modelOf(v));
        variant.setValue(v);
        startDownload();
    }

    private void build() {
        VBox top = new VBox(10, Ui.heading("Models"), recommendationBanner());
        top.setPadding(new Insets(16, 20, 6, 20));

        TableColumn<CatalogModel, CatalogModel> name = new TableColumn<>("Model");
        name.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        name.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(CatalogModel m, boolean empty) {
                super.updateItem(m, empty);
                if (empty || m == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                setText(m.name());
                if (m.equals(recommended.model())) {
                    Label tag = new Label("Recommended");
                    tag.getStyleClass().addAll("tag", "recommended");
                    setGraphic(tag);
                    setContentDisplay(javafx.scene.control.ContentDisplay.RIGHT);
                    setGraphicTextGap(8);
                } else {
                    setGraphic(null);
                }
            }
        });
        name.setPrefWidth(270);
        TableColumn<CatalogModel, String> langs = Ui.column("Languages", 120, m -> m.languagesLabel());
        TableColumn<CatalogModel, String> params = Ui.column("Parameters", 100, m -> m.parametersMillions() + " M");
        TableColumn<CatalogModel, String> size = Ui.column("Download (ggml)", 130, m -> Ui.bytes(
                m.variants().getFirst().approxBytes()));
        available.getColumns().setAll(java.util.List.of(name, langs, params, size));
        available.getItems().setAll(catalog.models());
        available.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        available.setPrefHeight(250);
        available.getSelectionModel().selectedItemProperty().addListener((o, a, m) -> selectModel(m));

        variant.setConverter(Ui.shownAs(v -> v.label() + " · " + Ui.bytes(v.approxBytes())));
        variant.setMaxWidth(Double.MAX_VALUE);
        variant.setOnAction(e -> updateButtons());
        download.setDefaultButton(true);
        download.setOnAction(e -> startDownload());
        cancel.setOnAction(e -> {
            DownloadTask t = tasks.get(variant.getValue() == null ? "" : variant.getValue().id());
            if (t != null) {
                t.cancel();
            }
        });
        progress.setMaxWidth(Double.MAX_VALUE);
        progress.setAccessibleText("Download progress");
        message.setWrapText(true);
        GridPane form = new GridPane();
        form.getStyleClass().add("form");
        form.setPadding(new Insets(8, 0, 0, 0));
        Label formatLabel = new Label("Format");
        formatLabel.setLabelFor(variant);
        form.addRow(0, formatLabel, variant);
        HBox buttons = new HBox(8, download, cancel);
        form.add(buttons, 1, 1);
        progress.setMinHeight(14);
        VBox progressBox = new VBox(4, progress, progressText);
        progressBox.setFillWidth(true);
        form.add(progressBox, 1, 2);
        form.add(message, 1, 3);
        form.add(detail, 1, 4);
        GridPane.setHgrow(variant, Priority.ALWAYS);
        form.getColumnConstraints().addAll(new javafx.scene.layout.ColumnConstraints(90),
                new javafx.scene.layout.ColumnConstraints());
        form.getColumnConstraints().get(1).setHgrow(Priority.ALWAYS);

        VBox catalogBox = new VBox(8, Ui.heading("Available to download"), available, form);
        catalogBox.getChildren().get(0).getStyleClass().setAll("subheading");

        TableColumn<DiscoveredModel, String> iname = Ui.column("On this computer", 330, DiscoveredModel::name);
        TableColumn<DiscoveredModel, String> isize = Ui.column("Size", 80, m -> Ui.bytes(m.sizeBytes()));
        TableColumn<DiscoveredModel, String> iwhere = Ui.column("Location", 80, m -> m.path().toString()); // the last column takes the rest
        installed.getColumns().setAll(java.util.List.of(iname, isize, iwhere));
        installed.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        installed.setPrefHeight(150);
        installed.setPlaceholder(new Label("No models on this computer yet"));
        Button use = Ui.button("_Use this model", "mdi2c-check");
        use.setOnAction(e -> {
            DiscoveredModel m = installed.getSelectionModel().getSelectedItem();
            if (m != null) {
                context.useModel(m);
                message.setText("Loading " + m.name() + "…");
            }
        });
        Button remove = Ui.button("_Remove…", "mdi2t-trash-can-outline");
        remove.setOnAction(e -> removeSelected());
        use.disableProperty().bind(installed.getSelectionModel().selectedItemProperty().isNull());
        remove.disableProperty().bind(installed.getSelectionModel().selectedItemProperty().isNull());
        Button own = Ui.button("Use a model _file I have…", "mdi2f-file-upload-outline");
        own.setOnAction(e -> chooseOwnFile());
        Label folder = Ui.hint("Downloads go to " + context.modelsFolder() + ". Or drop a .bin file or a model folder here.");
        VBox installedBox = new VBox(8, installed, Ui.bar(1, folder, own, use, remove));
        ((HBox) installedBox.getChildren().get(1)).setPadding(Insets.EMPTY);

        VBox center = new VBox(14, catalogBox, installedBox);
        center.setPadding(new Insets(6, 20, 16, 20));
        VBox.setVgrow(available, Priority.ALWAYS);
        BorderPane root = new BorderPane(center);
        root.setTop(top);
        var footer = Ui.bar(0, Ui.closeButton(stage));
        footer.getStyleClass().add("footer");
        root.setBottom(footer);
        Scene scene = Ui.styled(new Scene(root, 900, 800));
        acceptDrops(scene);
        stage.setScene(scene);
        stage.setTitle("Dictum Models");
        stage.setOnHidden(e -> tasks.values().forEach(DownloadTask::cancel));
        available.getSelectionModel().select(recommended.model());
    }

    private HBox recommendationBanner() {
        CatalogVariant v = recommended.variant();
        Label title = new Label("Recommended for this computer: " + recommended.model().name());
        title.getStyleClass().add("subheading");
        Label why = Ui.hint(v.label() + ", " + Ui.bytes(v.approxBytes()) + ". " + recommended.reason());
        VBox text = new VBox(3, title, why);
        HBox.setHgrow(text, Priority.ALWAYS);
        Button get = Ui.button("Download recommended", "mdi2d-download");
        get.setOnAction(e -> download(v));
        HBox banner = new HBox(12, Ui.icon("mdi2l-lightbulb-on-outline"), text, get);
        banner.setAlignment(Pos.CENTER_LEFT);
        banner.getStyleClass().add("banner");
        return banner;
    }


    private void selectModel(CatalogModel m) {
        if (m == null) {
            return;
        }
        variant.getItems().setAll(m.variants());
        variant.setValue(m.equals(recommended.model()) ? recommended.variant() : m.variants().getFirst());
        String note = m.note() == null ? "" : m.note() + " ";
        detail.setText(note + (m.englishOnly() ? "Transcribes English only; no translation." : "Transcribes "
                + m.languageCount() + " languages and translates them into English."));
        updateButtons();
    }

    private void updateButtons() {
        CatalogVariant v = variant.getValue();
        DownloadTask t = v == null ? null : tasks.get(v.id());
        boolean running = t != null && !t.result().isDone();
        boolean present = v != null && Files.exists(ModelDownloader.installPath(v, context.modelsFolder()));
        long partial = v == null ? 0 : ModelDownloader.partialBytes(v, context.modelsFolder());
        download.setDisable(v == null || running || present);
        boolean failed = t != null && t.result().isCompletedExceptionally();
        download.setText(present ? "Downloaded" : failed ? (partial > 0 ? "_Retry (" + Ui.bytes(partial) + " kept)" : "_Retry download")
                : partial > 0 ? "_Resume download (" + Ui.bytes(partial) + " kept)" : "_Download");
        cancel.setDisable(!running);
        progress.setVisible(running || t != null);
        if (running) {
            showProgress(t.progress());
        } else if (t == null) {
            progressText.setText("");
            progress.setProgress(0);
        }
    }

    private void startDownload() {
        CatalogVariant v = variant.getValue();
        if (v == null) {
            return;
        }
        message.getStyleClass().removeAll("error", "ok");
        message.setText("");
        try {
            DownloadTask t = downloader.start(v, context.modelsFolder(),
                    p -> Platform.runLater(() -> {
                        if (v.equals(variant.getValue())) {
                            showProgress(p);
                        }
                    }));
            tasks.put(v.id(), t);
            t.result().whenComplete((m, err) -> Platform.runLater(() -> finished(v, m == null ? null : m.path(), err)));
        } catch (DownloadFailure f) {
            message.getStyleClass().add("error");
            message.setText(f.getMessage());
        }
        updateButtons();
    }

    private void finished(CatalogVariant v, java.nio.file.Path path, Throwable err) {
        message.getStyleClass().removeAll("error", "ok");
        if (err == null) {
            tasks.remove(v.id());
            message.getStyleClass().add("ok");
            message.setText("Downloaded and verified: " + path);
            context.modelsChanged();
        } else {
            Throwable cause = err.getCause() != null ? err.getCause() : err;
            boolean cancelled = cause instanceof DownloadFailure f && f.reason() == DownloadFailure.Reason.CANCELLED;
            message.getStyleClass().add(cancelled ? "hint" : "error");
            message.setText(cancelled ? cause.getMessage() : failureText(cause));
        }
        updateButtons();
    }

    /** One sentence: why, and what Retry does; offline, the way to use a file already on this computer. */
    static String failureText(Throwable cause) {
        String why = String.valueOf(cause.getMessage()).strip().replaceAll("[.]$", "");
        if (!(cause instanceof DownloadFailure f)) {
            return "Download failed: " + why + ". Press Retry to try again.";
        }
        String retry = f.resumable() ? "Retry continues from what was kept" : "Retry starts again";
        String offline = f.reason() == DownloadFailure.Reason.NETWORK
                ? "; offline, use \u201cUse a model file I have\u201d below" : "";
        return "Download failed: " + why + ". " + retry + offline + ".";
    }

    void showProgress(DownloadProgress p) {
        progress.setVisible(true);
        progress.setProgress(p.fraction());
        String speed = p.bytesPerSecond() > 0 ? " · " + Ui.bytes((long) p.bytesPerSecond()) + "/s" : "";
        String left = p.remaining() == null ? "" : " · " + duration(p.remaining()) + " left";
        progressText.setText(Ui.bytes(p.bytesDone()) + " of " + Ui.bytes(p.bytesTotal())
                + String.format(Locale.ROOT, " (%d %%)", Math.round(p.fraction() * 100)) + speed + left
                + (p.file().isEmpty() ? "" : " · " + p.file()));
    }

    static String duration(Duration d) {
        long s = d.toSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%d h %02d min", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
    }

    private void refreshInstalled() {
        installed.getItems().setAll(context.installedModels());
    }

    /** "Use a model file I have": offline, or a model downloaded by another program. */
    public void chooseOwnFile() {
        javafx.stage.FileChooser chooser = new javafx.stage.FileChooser();
        chooser.setTitle("Choose a Whisper model (.bin) or a file in a model folder");
        chooser.getExtensionFilters().addAll(new javafx.stage.FileChooser.ExtensionFilter("Whisper models (*.bin)",
                "*.bin"), new javafx.stage.FileChooser.ExtensionFilter("Model folder files (config.json, *.safetensors)",
                "config.json", "*.safetensors", "model.bin"));
        java.io.File f = chooser.showOpenDialog(stage);
        if (f != null) {
            useOwn(f.toPath());
        }
    }

    /** A .bin file or a model folder dropped anywhere on the window is used like "Use a model file I have". */
    private void acceptDrops(Scene scene) {
        scene.setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) {
                e.acceptTransferModes(javafx.scene.input.TransferMode.COPY, javafx.scene.input.TransferMode.LINK);
            }
            e.consume();
        });
        scene.setOnDragDropped(e -> {
            boolean done = e.getDragboard().hasFiles() && !e.getDragboard().getFiles().isEmpty();
            if (done) {
                useOwn(e.getDragboard().getFiles().getFirst().toPath());
            }
            e.setDropCompleted(done);
            e.consume();
        });
    }

    /** A file inside a Hugging Face folder (config.json, model.safetensors) means its folder. */
    void useOwn(java.nio.file.Path chosen) {
        java.nio.file.Path p = chosen;
        DiscoveredModel m = ModelDiscovery.describe(p, DiscoveredModel.Source.CONFIGURED);
        if (m == null && p.getParent() != null && !p.getFileName().toString().endsWith(".bin")) {
            p = p.getParent();
            m = ModelDiscovery.describe(p, DiscoveredModel.Source.CONFIGURED);
        }
        message.getStyleClass().removeAll("error", "ok", "hint");
        if (m == null) {
            message.getStyleClass().add("error");
            message.setText(dev.dictum.app.files.PathText.quoted(chosen) + " is not a Whisper model: choose a"
                    + " whisper.cpp .bin file, or a folder with config.json and model.safetensors.");
            return;
        }
        context.useModel(m);
        message.getStyleClass().add("hint");
        message.setText("Loading " + m.name() + " from " + dev.dictum.app.files.PathText.quoted(p)
                + "; it is kept as your model once it works.");
    }

    /** Another view changed the list (a model loaded from elsewhere). */
    public void modelsChanged() {
        refreshInstalled();
    }

    private void removeSelected() {
        DiscoveredModel m = installed.getSelectionModel().getSelectedItem();
        if (m == null) {
            return;
        }
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, "This deletes " + ModelRemoval.target(m) + " ("
                + Ui.bytes(m.sizeBytes()) + ").", ButtonType.CANCEL, ButtonType.OK);
        confirm.setHeaderText("Remove " + m.name() + "?");
        confirm.initOwner(stage);
        Ui.styled(confirm.getDialogPane().getScene());
        if (confirm.showAndWait().orElse(ButtonType.CANCEL) != ButtonType.OK) {
            return;
        }
        try {
            ModelRemoval.remove(m);
            message.getStyleClass().setAll("label", "ok");
            message.setText("Removed " + m.name());
        } catch (IOException | RuntimeException e) {
            message.getStyleClass().setAll("label", "error");
            message.setText("Could not remove " + m.name() + ": " + e.getMessage());
        }
        context.modelsChanged();
        refreshInstalled();
        updateButtons();
    }
}
