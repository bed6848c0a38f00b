package dev.dictum.app.history;

import dev.dictum.app.files.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.sqlite.Function;

/**
 * The dictation history in SQLite (sqlite-jdbc). Every write is its own transaction in WAL mode
 * with {@code synchronous=FULL}, so an entry that {@link #add} returned survives a crash or a
 * power cut. Thread-safe: one connection, used under this object's lock.
 */
public final class HistoryStore implements AutoCloseable {
    private static final String COLUMNS = "id, time_ms, duration_ms, text, language, model, backend,"
            + " release_to_text_ms, transcribe_ms, encode_ms, decode_ms, wav_path, status, error, raw_text";

    private final Connection db;

    private HistoryStore(Connection db) {
        this.db = db;
    }

    /**
     * Opens (creating if needed) the history database.
     *
     * @throws UncheckedIOException when the file cannot be opened or is not a history database
     */
    public static HistoryStore open(Path file) {
        try {
            // Owner-only before SQLite opens it: its -wal and -shm files take the database file's mode.
            OwnerOnly.createFile(file);
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=FULL");
                s.execute("PRAGMA busy_timeout=5000");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS dictation (
                          id INTEGER PRIMARY KEY AUTOINCREMENT,
                          time_ms INTEGER NOT NULL,
                          duration_ms INTEGER NOT NULL,
                          text TEXT NOT NULL,
                          language TEXT,
                          model TEXT,
                          backend TEXT,
                          release_to_text_ms INTEGER NOT NULL,
                          transcribe_ms INTEGER NOT NULL,
                          encode_ms INTEGER NOT NULL,
                          decode_ms INTEGER NOT NULL,
                          wav_path TEXT,
                          status TEXT NOT NULL,
                          error TEXT)""");
                s.execute("CREATE INDEX IF NOT EXISTS dictation_time ON dictation(time_ms)");
                migrate(s);
                // SQLite's LIKE and lower() fold ASCII only; search must find "Köln" from "köln".
                Function.create(c, "dictum_fold", new Function() {
                    @Override
                    protected void xFunc() throws SQLException {
                        String v = value_text(0);
                        result(v == null ? null : v.toLowerCase(Locale.ROOT));
                    }
                }, 1, Function.FLAG_DETERMINISTIC);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return new HistoryStore(c);
        } catch (SQLException | IOException e) {
            throw new UncheckedIOException("cannot open the history " + file + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * Brings a database of an older version up to this one. Version 2 adds raw_text (the engine's text
     * before replacements); older rows read it as null, which means "the same as text".
     */
    private static void migrate(Statement s) throws SQLException {
        boolean hasRaw = false;
        try (ResultSet cols = s.executeQuery("PRAGMA table_info(dictation)")) {
            while (cols.next()) {
                hasRaw |= cols.getString("name").equals("raw_text");
            }
        }
        if (!hasRaw) {
            s.execute("ALTER TABLE dictation ADD COLUMN raw_text TEXT");
        }
        s.execute("PRAGMA user_version=2");
    }

    /** Stores an entry and returns it with its id. */
    public synchronized HistoryEntry add(HistoryEntry e) {
        String sql = "INSERT INTO dictation (time_ms, duration_ms, text, language, model, backend, release_to_text_ms,"
                + " transcribe_ms, encode_ms, decode_ms, wav_path, status, error, raw_text)"
                + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        try (PreparedStatement ps = db.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            bind(ps, e);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return e.withId(keys.getLong(1));
            }
        } catch (SQLException ex) {
            throw failure("store a history entry", ex);
        }
    }

    /** Replaces a stored entry (a retry that succeeded, a re-transcription). */
    public synchronized void update(HistoryEntry e) {
        String sql = "UPDATE dictation SET time_ms=?, duration_ms=?, text=?, language=?, model=?, backend=?,"
                + " release_to_text_ms=?, transcribe_ms=?, encode_ms=?, decode_ms=?, wav_path=?, status=?, error=?,"
                + " raw_text=? WHERE id=?";
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            bind(ps, e);
            ps.setLong(15, e.id());
            ps.executeUpdate();
        } catch (SQLException ex) {
            throw failure("update a history entry", ex);
        }
    }

    public synchronized Optional<HistoryEntry> get(long id) {
        List<HistoryEntry> r = query("SELECT " + COLUMNS + " FROM dictation WHERE id=?", ps -> ps.setLong(1, id));
        return r.stream().findFirst();
    }

    /** The newest entries first. */
    public synchronized List<HistoryEntry> recent(int limit, int offset) {
        return query("SELECT " + COLUMNS + " FROM dictation ORDER BY time_ms DESC, id DESC LIMIT ? OFFSET ?", ps -> {
            ps.setInt(1, limit);
            ps.setInt(2, offset);
        });
    }

    /** Entries whose text contains {@code text}, ignoring case in any script ("köln" finds "Köln"), newest first. */
    public synchronized List<HistoryEntry> search(String text, int limit) {
        return query("SELECT " + COLUMNS + " FROM dictation WHERE instr(dictum_fold(text), dictum_fold(?)) > 0"
                + " ORDER BY time_ms DESC, id DESC LIMIT ?", ps -> {
                    ps.setString(1, text);
                    ps.setInt(2, limit);
                });
    }

    /** The newest entry with text (what "paste last transcript" inserts). */
    public synchronized Optional<HistoryEntry> lastWithText() {
        return query("SELECT " + COLUMNS + " FROM dictation WHERE status='OK' AND text<>''"
                + " ORDER BY time_ms DESC, id DESC LIMIT 1", ps -> { }).stream().findFirst();
    }

    public synchronized int count() {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM dictation")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException ex) {
            throw failure("count the history", ex);
        }
    }

    /** Deletes one entry (not its WAV: the recordings folder keeps its own limit). */
    public synchronized boolean delete(long id) {
        try (PreparedStatement ps = db.prepareStatement("DELETE FROM dictation WHERE id=?")) {
            ps.setLong(1, id);
            return ps.executeUpdate() == 1;
        } catch (SQLException ex) {
            throw failure("delete a history entry", ex);
        }
    }

    public synchronized int deleteAll() {
        try (Statement s = db.createStatement()) {
            return s.executeUpdate("DELETE FROM dictation");
        } catch (SQLException ex) {
            throw failure("clear the history", ex);
        }
    }

    @Override
    public synchronized void close() {
        try {
            db.close();
        } catch (SQLException ex) {
            throw failure("close the history", ex);
        }
    }

    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private List<HistoryEntry> query(String sql, Binder binder) {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                List<HistoryEntry> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(read(rs));
                }
                return out;
            }
        } catch (SQLException ex) {
            throw failure("read the history", ex);
        }
    }

    private static void bind(PreparedStatement ps, HistoryEntry e) throws SQLException {
        ps.setLong(1, e.time().toEpochMilli());
        ps.setLong(2, e.durationMillis());
        ps.setString(3, e.text());
        setNullable(ps, 4, e.language());
        setNullable(ps, 5, e.model());
        setNullable(ps, 6, e.backend());
        ps.setLong(7, e.releaseToTextMillis());
        ps.setLong(8, e.transcribeMillis());
        ps.setLong(9, e.encodeMillis());
        ps.setLong(10, e.decodeMillis());
        setNullable(ps, 11, e.wavPath() == null ? null : e.wavPath().toString());
        ps.setString(12, e.status().name());
        setNullable(ps, 13, e.error());
        setNullable(ps, 14, e.replaced() ? e.rawText() : null);
    }

    private static void setNullable(PreparedStatement ps, int i, String v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.VARCHAR);
        } else {
            ps.setString(i, v);
        }
    }

    private static HistoryEntry read(ResultSet rs) throws SQLException {
        String wav = rs.getString("wav_path");
        return new HistoryEntry(rs.getLong("id"), Instant.ofEpochMilli(rs.getLong("time_ms")),
                rs.getLong("duration_ms"), rs.getString("text"), rs.getString("language"), rs.getString("model"),
                rs.getString("backend"), rs.getLong("release_to_text_ms"), rs.getLong("transcribe_ms"),
                rs.getLong("encode_ms"), rs.getLong("decode_ms"), wav == null ? null : Path.of(wav),
                HistoryStatus.valueOf(rs.getString("status")), rs.getString("error"), rs.getString("raw_text"));
    }

    private static UncheckedIOException failure(String what, SQLException e) {
        return new UncheckedIOException("cannot " + what + ": " + e.getMessage(), new IOException(e));
    }
}
