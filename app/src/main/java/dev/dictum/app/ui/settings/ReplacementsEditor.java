package dev.dictum.app.ui.settings;

import dev.dictum.app.settings.Replacement;
import dev.dictum.app.ui.kit.Ui;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The replacement rules as rows: what the model writes, what to insert, whole word or anywhere,
 * and a remove button; "Add rule" below. Every edit hands the whole list to {@code changed}, so the
 * settings window validates and saves it like any other field.
 */
final class ReplacementsEditor {
    private final VBox rows = new VBox(6);
    private final Button add = Ui.button("_Add rule", "mdi2p-plus");
    private final VBox node;
    private final Consumer<List<Replacement>> changed;

    ReplacementsEditor(List<Replacement> value, Consumer<List<Replacement>> changed) {
        this.changed = changed;
        for (Replacement r : value) {
            rows.getChildren().add(row(r));
        }
        add.setOnAction(e -> {
            HBox row = row(new Replacement("", "", true));
            rows.getChildren().add(row);
            row.getChildren().getFirst().requestFocus();
            publish();
        });
        add.setAccessibleText("Add a replacement rule");
        node = new VBox(8, rows, add);
    }

    VBox node() {
        return node;
    }

    /** The control that carries the field's invalid mark and accessible name. */
    Button editor() {
        return add;
    }

    private HBox row(Replacement r) {
        TextField from = new TextField(r.from());
        from.setPromptText("the model writes");
        from.setAccessibleText("Replace");
        TextField to = new TextField(r.to());
        to.setPromptText("insert instead");
        to.setAccessibleText("With");
        CheckBox whole = new CheckBox("Whole word");
        whole.setSelected(r.wholeWord());
        whole.setTooltip(new javafx.scene.control.Tooltip(
                "On: only whole words, any case. Off: these exact characters anywhere, even inside words"));
        Button remove = Ui.iconButton("Remove this rule", "mdi2c-close");
        from.setPrefColumnCount(9);
        to.setPrefColumnCount(9);
        whole.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        HBox.setHgrow(from, Priority.ALWAYS);
        HBox.setHgrow(to, Priority.ALWAYS);
        HBox row = new HBox(6, from, new Label("→"), to, whole, remove);
        row.setAlignment(Pos.CENTER_LEFT);
        from.textProperty().addListener((o, a, t) -> publish());
        to.textProperty().addListener((o, a, t) -> publish());
        whole.setOnAction(e -> publish());
        remove.setOnAction(e -> {
            rows.getChildren().remove(row);
            publish();
        });
        return row;
    }

    private void publish() {
        List<Replacement> out = new ArrayList<>();
        for (var n : rows.getChildren()) {
            HBox row = (HBox) n;
            TextField from = (TextField) row.getChildren().get(0);
            TextField to = (TextField) row.getChildren().get(2);
            CheckBox whole = (CheckBox) row.getChildren().get(3);
            out.add(new Replacement(from.getText(), to.getText(), whole.isSelected()));
        }
        changed.accept(out);
    }
}
