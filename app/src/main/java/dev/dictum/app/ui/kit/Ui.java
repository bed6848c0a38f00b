package dev.dictum.app.ui.kit;

import java.util.Objects;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The look shared by Dictum's windows: one style sheet (sizes in em, so 200 % scaling stays readable),
 * one icon set (Material Design Icons), and the few controls every window builds the same way.
 */
public final class Ui {

    private static final String CSS = Objects.requireNonNull(Ui.class.getResource("dictum.css")).toExternalForm();

    private Ui() {
    }

    /** Applies Dictum's style sheet to a scene. */
    public static Scene styled(Scene scene) {
        scene.getStylesheets().add(CSS);
        return scene;
    }

    /** An icon from Material Design Icons, e.g. {@code "mdi2d-download"}. */
    public static FontIcon icon(String literal) {
        FontIcon i = new FontIcon(literal);
        i.getStyleClass().add("icon");
        return i;
    }

    /** A button with an icon and text; the text is also its accessible name. */
    public static Button button(String text, String icon) {
        Button b = new Button(text, icon(icon));
        b.setMnemonicParsing(true);
        b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        return b;
    }

    /** A toolbar button that shows only an icon, with its text as tooltip and accessible name. */
    public static Button iconButton(String text, String icon) {
        Button b = new Button(null, icon(icon));
        b.setTooltip(new Tooltip(text));
        b.setAccessibleText(text);
        b.getStyleClass().add("icon-button");
        return b;
    }

    /**
     * The window's visible Close button. It is the scene's cancel button, so Escape closes the
     * window too, with or without a window manager (Xvfb, kiosk sessions have none to click).
     */
    public static Button closeButton(javafx.stage.Stage stage) {
        Button close = button("_Close", "mdi2c-close");
        close.setCancelButton(true);
        close.setOnAction(e -> stage.close());
        return close;
    }

    public static Label heading(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("heading");
        return l;
    }

    public static Label hint(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("hint");
        l.setWrapText(true);
        return l;
    }

    /** A row of nodes with a growing gap at {@code gapIndex} (e.g. buttons left and right). */
    public static HBox bar(int gapIndex, Node... nodes) {
        HBox box = new HBox();
        box.getStyleClass().add("toolbar-row");
        box.setAlignment(Pos.CENTER_LEFT);
        for (int i = 0; i < nodes.length; i++) {
            if (i == gapIndex) {
                box.getChildren().add(spacer());
            }
            box.getChildren().add(nodes[i]);
        }
        if (gapIndex >= nodes.length) {
            box.getChildren().add(spacer());
        }
        return box;
    }

    public static Region spacer() {
        Region r = new Region();
        HBox.setHgrow(r, Priority.ALWAYS);
        return r;
    }

    /** A table column of text computed from each row. */
    public static <R> javafx.scene.control.TableColumn<R, String> column(String title, double width,
                                                                         java.util.function.Function<R, String> text) {
        javafx.scene.control.TableColumn<R, String> c = new javafx.scene.control.TableColumn<>(title);
        c.setCellValueFactory(d -> new javafx.beans.property.ReadOnlyStringWrapper(text.apply(d.getValue())));
        c.setPrefWidth(width);
        return c;
    }

    /** A one-way converter for choice boxes: how an item is shown (null shows as ""). */
    public static <T> javafx.util.StringConverter<T> shownAs(java.util.function.Function<T, String> text) {
        return new javafx.util.StringConverter<>() {
            @Override
            public String toString(T item) {
                return item == null ? "" : text.apply(item);
            }

            @Override
            public T fromString(String s) {
                return null;
            }
        };
    }

    /** "1.5 GB", "466 MB", "75 MB": sizes as the model manager shows them (decimal units, as disks do). */
    public static String bytes(long bytes) {
        if (bytes >= 1_000_000_000L) {
            return String.format(java.util.Locale.ROOT, "%.1f GB", bytes / 1e9);
        }
        if (bytes >= 10_000_000L) {
            return String.format(java.util.Locale.ROOT, "%d MB", Math.round(bytes / 1e6));
        }
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
