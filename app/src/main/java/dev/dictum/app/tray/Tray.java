package dev.dictum.app.tray;

import dev.dictum.app.tray.TrayIcons.Look;
import java.awt.AWTException;
import java.awt.Dimension;
import java.awt.SystemTray;
import java.awt.TrayIcon;
import java.awt.event.MouseAdapter;
import java.awt.event.MouseEvent;
import javax.swing.JPopupMenu;
import javax.swing.JWindow;
import javax.swing.SwingUtilities;
import javax.swing.event.PopupMenuEvent;
import javax.swing.event.PopupMenuListener;

/**
 * The system tray icon (AWT: JavaFX has no tray) with a Swing menu (AWT's native menu cannot
 * be styled and looks dated on Linux). The menu hangs off a tiny window that never takes the
 * focus, so "Paste last transcript" goes to the window the user was in.
 */
public final class Tray {
    private final AppActions app;
    private final TrayIcon icon;
    private final JWindow invoker = new JWindow();
    private Look look = Look.LOADING;

    /** Whether this desktop has a tray host (some Linux desktops have none: then the control window). */
    public static boolean supported() {
        return SystemTray.isSupported();
    }

    public Tray(AppActions app) throws AWTException {
        this.app = app;
        Dimension size = SystemTray.getSystemTray().getTrayIconSize();
        icon = new TrayIcon(TrayIcons.draw(look, Math.max(16, Math.max(size.width, size.height)) * 2), "Dictum");
        icon.setImageAutoSize(true);
        invoker.setName("dictum-tray-anchor");
        invoker.setFocusableWindowState(false);
        invoker.setType(java.awt.Window.Type.POPUP);
        icon.addMouseListener(new MouseAdapter() {
            @Override
            public void mouseReleased(MouseEvent e) {
                if (e.getButton() == MouseEvent.BUTTON3 || e.getButton() == MouseEvent.BUTTON1 || e.isPopupTrigger()) {
                    SwingUtilities.invokeLater(() -> open(e.getXOnScreen(), e.getYOnScreen()));
                }
            }
        });
        SystemTray.getSystemTray().add(icon);
    }

    /** Sets the icon and the tooltip ("Dictum — Recording — toy-en on CPU"). */
    public void show(Look newLook, String tooltip) {
        SwingUtilities.invokeLater(() -> {
            if (newLook != look) {
                look = newLook;
                Dimension size = SystemTray.getSystemTray().getTrayIconSize();
                icon.setImage(TrayIcons.draw(look, Math.max(16, Math.max(size.width, size.height)) * 2));
            }
            icon.setToolTip(tooltip);
        });
    }

    public void remove() {
        SwingUtilities.invokeLater(() -> {
            SystemTray.getSystemTray().remove(icon);
            invoker.dispose();
        });
    }

    private void open(int x, int y) {
        app.menuOpening();
        JPopupMenu menu = TrayMenu.build(app);
        invoker.setBounds(x, y, 1, 1);
        invoker.setVisible(true);
        menu.addPopupMenuListener(new PopupMenuListener() {
            @Override
            public void popupMenuWillBecomeVisible(PopupMenuEvent e) {
            }

            @Override
            public void popupMenuWillBecomeInvisible(PopupMenuEvent e) {
                invoker.setVisible(false);
            }

            @Override
            public void popupMenuCanceled(PopupMenuEvent e) {
                invoker.setVisible(false);
            }
        });
        menu.show(invoker, 0, 0);
    }
}
