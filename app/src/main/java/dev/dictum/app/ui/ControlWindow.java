package dev.dictum.app.ui;

import dev.dictum.app.engine.EngineManager;
import dev.dictum.app.models.DiscoveredModel;
import dev.dictum.app.settings.DictationMode;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.tray.AppActions;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.util.StringConverter;

/**
 * The small JavaFX window that stands in for the tray where the desktop has no tray host: the
 * state, the model, the mode and the insertion method, and the tray's actions as buttons.
 * Closing it quits (there would be no other way back to Dictum).
 */
public final class ControlWindow {
    private final AppActions app;
    private Stage stage;
    private Label state;
    private Label notice;

    public ControlWindow(AppActions app) {
        this.app = app;
    }

    /** Builds and shows the window (on the FX thread). */
    public void show() {
        FxToolkit.later(() -> {
            stage = new Stage();
            stage.setTitle("Dictum");
            state = new Label();
            state.setStyle("-fx-font-size: 15px; -fx-font-weight: bold;");
            notice = new Label();
            notice.setWrapText(true);
            notice.setStyle("-fx-text-fill: #5f6368;");

            ComboBox<DiscoveredModel> model = new ComboBox<>();
            model.getItems().setAll(app.models());
            model.setConverter(labels(DiscoveredModel::name));
            String current = app.settings().models().modelPath();
            app.models().stream().filter(m -> m.path().toString().equals(current)).findFirst()
                    .ifPresent(model::setValue);
            model.setOnAction(e -> {
                if (model.getValue() != null) {
                    app.chooseModel(model.getValue());
                }
            });
            ComboBox<DictationMode> mode = new ComboBox<>();
            mode.getItems().setAll(DictationMode.values());
            mode.setConverter(labels(DictationMode::label));
            mode.setValue(app.settings().hotkeys().mode());
            mode.setOnAction(e -> app.chooseMode(mode.getValue()));
            ComboBox<InsertionMethod> insert = new ComboBox<>();
            insert.getItems().setAll(InsertionMethod.values());
            insert.setConverter(labels(InsertionMethod::label));
            insert.setValue(app.settings().insertion().method());
            insert.setOnAction(e -> app.chooseInsertion(insert.getValue()));

            GridPane grid = new GridPane();
            grid.setHgap(10);
            grid.setVgap(8);
            grid.addRow(0, new Label("Model"), model);
            grid.addRow(1, new Label("Mode"), mode);
            grid.addRow(2, new Label("Insert with"), insert);
            for (ComboBox<?> c : java.util.List.of(model, mode, insert)) {
                c.setMaxWidth(Double.MAX_VALUE);
                GridPane.setHgrow(c, javafx.scene.layout.Priority.ALWAYS);
            }

            Button copy = new Button("Copy last");
            copy.setOnAction(e -> app.copyLast());
            Button recordings = new Button("Recordings");
            recordings.setOnAction(e -> app.openRecordings());
            Button quit = new Button("Quit");
            quit.setOnAction(e -> app.quit());
            HBox buttons = new HBox(8, copy, recordings, quit); // paste last: its hotkey (this window has the focus)
            buttons.setAlignment(Pos.CENTER_RIGHT);

            Button settings = new Button("Settings…");
            settings.setOnAction(e -> app.openSettings());
            Button models = new Button("Models…");
            models.setOnAction(e -> app.openModels());
            Button history = new Button("History…");
            history.setOnAction(e -> app.openHistory());
            HBox windows = new HBox(8, settings, models, history);
            VBox root = new VBox(12, state, grid, notice, windows, buttons);
            root.setPadding(new Insets(16));
            stage.setScene(new Scene(root, 440, 250));
            stage.setOnCloseRequest(e -> app.quit());
            refresh();
            stage.show();
        });
    }

    /** Re-reads the state line. */
    public void refresh() {
        FxToolkit.later(() -> {
            if (state == null) {
                return;
            }
            EngineManager.State e = app.engineState();
            dev.dictum.app.tray.TrayStatus t = app.trayStatus();
            state.setText(e.phase() == EngineManager.Phase.FAILED ? "Model failed: " + e.detail()
                    : t.headline() + (t.model().isEmpty() ? "" : " — " + t.model()));
        });
    }

    private static <T> StringConverter<T> labels(java.util.function.Function<T, String> label) {
        return new StringConverter<>() {
            @Override
            public String toString(T v) {
                return v == null ? "" : label.apply(v);
            }

            @Override
            public T fromString(String s) {
                return null;
            }
        };
    }

    public void notice(String text) {
        FxToolkit.later(() -> {
            if (notice != null) {
                notice.setText(text);
            }
        });
    }

    public void close() {
        FxToolkit.later(() -> {
            if (stage != null) {
                stage.close();
            }
        });
    }
}
