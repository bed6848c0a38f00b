package dev.dictum.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An edit of settings.json from outside reaches the running app's listeners; a broken edit does not. */
class SettingsFileWatchTest {
    @TempDir
    Path dir;

    @Test
    void anOutsideEditIsAppliedAndABrokenOneIsNot() throws Exception {
        SettingsStore store = new SettingsStore(dir.resolve("settings.json"));
        store.save(Settings.defaults());
        LiveSettings live = new LiveSettings(store, store.load().settings());
        List<String> changes = new CopyOnWriteArrayList<>();
        live.addListener((before, after) -> changes.add(before.insertion().method() + "->" + after.insertion().method()));
        List<String> problems = new CopyOnWriteArrayList<>();
        SettingsFileWatch w = SettingsFileWatch.create(live, problems::add);

        w.check();
        assertThat(changes).isEmpty(); // nothing changed yet

        edit(store.file(), "{\"insertion\": {\"method\": \"type\"}}");
        w.check();
        assertThat(live.current().insertion().method()).isEqualTo(InsertionMethod.TYPE);
        assertThat(changes).containsExactly("PASTE->TYPE");
        assertThat(problems).isEmpty();
        w.check(); // the app's own save of the change reads back equal
        assertThat(changes).hasSize(1);

        edit(store.file(), "{\"insertion\": {\"method\": \"pas");
        w.check();
        assertThat(live.current().insertion().method()).isEqualTo(InsertionMethod.TYPE);
        assertThat(problems).hasSize(1);
        assertThat(changes).hasSize(1);
    }

    private static void edit(Path file, String json) throws Exception {
        FileTime before = Files.getLastModifiedTime(file);
        Files.writeString(file, json);
        // Coarse file systems: make the edit visible as a new time even within the same tick.
        Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 2000));
    }
}
