package dev.dictum.app.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryStoreTest {
    @TempDir
    Path dir;

    private static HistoryEntry entry(long t, String text, HistoryStatus status) {
        return new HistoryEntry(0, Instant.ofEpochMilli(t), 2100, text, "en", "toy-en (whisper.cpp)", "cpu",
                310, 290, 120, 150, Path.of("/rec/" + t + ".wav"), status, status == HistoryStatus.FAILED ? "boom" : null);
    }

    @Test
    void entriesAreStoredQueriedSearchedAndDeleted() {
        try (HistoryStore h = HistoryStore.open(dir.resolve("history.db"))) {
            HistoryEntry a = h.add(entry(1000, "Grüße aus Köln", HistoryStatus.OK));
            HistoryEntry b = h.add(entry(2000, "", HistoryStatus.EMPTY));
            HistoryEntry c = h.add(entry(3000, "100% sure_thing", HistoryStatus.OK));
            assertThat(a.id()).isPositive();
            assertThat(h.count()).isEqualTo(3);
            assertThat(h.recent(10, 0)).extracting(HistoryEntry::id).containsExactly(c.id(), b.id(), a.id());
            assertThat(h.get(a.id())).hasValue(a);
            assertThat(h.search("KÖLN", 10)).containsExactly(a);
            assertThat(h.search("cologne", 10)).isEmpty();
            assertThat(h.search("100%", 10)).containsExactly(c);
            assertThat(h.search("_", 10)).containsExactly(c);
            assertThat(h.lastWithText()).hasValue(c);
            assertThat(h.delete(c.id())).isTrue();
            assertThat(h.lastWithText()).hasValue(a);
            HistoryEntry retried = new HistoryEntry(b.id(), b.time(), b.durationMillis(), "again", "en", "m", "cpu",
                    -1, 400, 1, 2, b.wavPath(), HistoryStatus.OK, null);
            h.update(retried);
            assertThat(h.get(b.id())).hasValue(retried);
            assertThat(h.deleteAll()).isEqualTo(2);
            assertThat(h.count()).isZero();
        }
    }

    @Test
    void whatWasAddedIsThereAfterReopeningWithoutAClose() {
        Path db = dir.resolve("history.db");
        HistoryStore first = HistoryStore.open(db); // never closed, as after a crash
        HistoryEntry a = first.add(entry(5000, "kept", HistoryStatus.FAILED));
        try (HistoryStore second = HistoryStore.open(db)) {
            assertThat(second.get(a.id())).hasValue(a);
        }
    }

    @Test
    void aVersion1DatabaseGainsRawTextAndKeepsItsRows() throws Exception {
        Path db = dir.resolve("old.db");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
             java.sql.Statement s = c.createStatement()) {
            s.execute("""
                    CREATE TABLE dictation (id INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER NOT NULL,
                      duration_ms INTEGER NOT NULL, text TEXT NOT NULL, language TEXT, model TEXT, backend TEXT,
                      release_to_text_ms INTEGER NOT NULL, transcribe_ms INTEGER NOT NULL, encode_ms INTEGER NOT NULL,
                      decode_ms INTEGER NOT NULL, wav_path TEXT, status TEXT NOT NULL, error TEXT)""");
            s.execute("INSERT INTO dictation (time_ms, duration_ms, text, release_to_text_ms, transcribe_ms, encode_ms,"
                    + " decode_ms, status) VALUES (1000, 2000, 'from before', -1, -1, -1, -1, 'OK')");
        }
        try (HistoryStore h = HistoryStore.open(db)) {
            HistoryEntry old = h.recent(1, 0).getFirst();
            assertThat(old.text()).isEqualTo("from before");
            assertThat(old.rawText()).isEqualTo("from before");
            assertThat(old.replaced()).isFalse();
            HistoryEntry e = h.add(new HistoryEntry(0, Instant.ofEpochMilli(5000), 1000, "Sofia, today.", "en", "toy",
                    "cpu", 1, 1, 1, 1, null, HistoryStatus.OK, null).withRawText("Sophie comma today.")
                    .withNote("audio not saved"));
            assertThat(h.get(e.id())).hasValue(e);
            assertThat(h.get(e.id()).orElseThrow().rawText()).isEqualTo("Sophie comma today.");
        }
        try (HistoryStore again = HistoryStore.open(db)) {
            assertThat(again.count()).isEqualTo(2);
        }
    }
}
