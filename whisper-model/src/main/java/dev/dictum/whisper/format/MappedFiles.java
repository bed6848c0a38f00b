package dev.dictum.whisper.format;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Maps a whole model file read-only into an arena, turning I/O failures into one-line messages. */
public final class MappedFiles {
    private MappedFiles() {
    }

    /**
     * @param arena owns the mapping: closing it unmaps the file
     * @throws ModelFormatException if the file is missing, a directory or unreadable
     */
    public static MemorySegment map(Path file, Arena arena) {
        if (Files.isDirectory(file)) {
            throw new ModelFormatException(file + ": is a directory, not a model file");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        } catch (NoSuchFileException e) {
            throw new ModelFormatException(file + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new ModelFormatException(file + ": permission denied", e);
        } catch (IOException e) {
            throw new ModelFormatException(file + ": cannot read ("
                    + UntrustedText.oneLine(String.valueOf(e.getMessage())) + ")", e);
        }
    }
}
