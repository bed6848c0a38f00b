package dev.dictum.whisper.format.hf;

import dev.dictum.whisper.format.UntrustedText;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * A memory-mapped safetensors file: an 8-byte little-endian header length, a JSON header, then
 * the raw little-endian tensor data. Tensors are returned as slices of the mapping, never copied;
 * they stay valid until the arena given to {@link #open} is closed (the caller owns it, so that
 * the shards of one model share one lifetime).
 */
public final class SafetensorsFile {
    private static final ValueLayout.OfLong HEADER_LENGTH = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(
            ByteOrder.LITTLE_ENDIAN);

    private final String description;
    private final MemorySegment data;
    private final Map<String, SafetensorsEntry> entries;

    private SafetensorsFile(String description, MemorySegment data, Map<String, SafetensorsEntry> entries) {
        this.description = description;
        this.data = data;
        this.entries = entries;
    }

    /**
     * Maps and checks a safetensors file.
     *
     * @param arena owns the mapping: closing it unmaps the file and invalidates every tensor
     * @throws ModelFormatException if the file is missing, unreadable, truncated or its header is corrupt
     */
    public static SafetensorsFile open(Path file, Arena arena) {
        String name = file.toString();
        MemorySegment mapped;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < Long.BYTES) {
                throw new ModelFormatException(name + ": truncated safetensors file (" + size
                        + " bytes, less than the 8-byte header length)");
            }
            mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        } catch (NoSuchFileException e) {
            throw new ModelFormatException(name + ": no such file", e);
        } catch (IOException e) {
            throw new ModelFormatException(name + ": cannot read (" + UntrustedText.oneLine(String.valueOf(e.getMessage())) + ")",
                    e);
        }
        long size = mapped.byteSize();
        long headerBytes = mapped.get(HEADER_LENGTH, 0);
        long available = size - Long.BYTES;
        if (headerBytes < 0 || headerBytes > available) {
            throw new ModelFormatException(name + ": the header length " + Long.toUnsignedString(headerBytes)
                    + " is larger than the file (" + size + " bytes): truncated or not a safetensors file");
        }
        if (headerBytes > SafetensorsHeader.MAX_HEADER_BYTES) {
            throw new ModelFormatException(name + ": the header length " + headerBytes + " is over the limit of "
                    + SafetensorsHeader.MAX_HEADER_BYTES + " bytes: not a safetensors file");
        }
        // The header is small and parsed once, so copying it to the heap is fine; the data is not copied.
        byte[] json = mapped.asSlice(Long.BYTES, headerBytes).toArray(ValueLayout.JAVA_BYTE);
        MemorySegment data = mapped.asSlice(Long.BYTES + headerBytes);
        return new SafetensorsFile(name, data, SafetensorsHeader.parse(json, data.byteSize(), name));
    }

    public String description() {
        return description;
    }

    /** Names of the tensors, in header order ({@code __metadata__} excluded). */
    public Set<String> names() {
        return entries.keySet();
    }

    public boolean contains(String name) {
        return entries.containsKey(name);
    }

    /** The shape of a tensor, without touching its data. */
    public long[] shape(String name) {
        return entry(name).shape();
    }

    /**
     * A tensor as a slice of the mapping, named as in the file.
     *
     * @throws ModelFormatException if there is no such tensor or it has no elements
     */
    public HostTensor tensor(String name) {
        SafetensorsEntry e = entry(name);
        if (e.elementCount() == 0) {
            throw new ModelFormatException(description + ": tensor " + UntrustedText.quoted(name) + " has shape "
                    + Arrays.toString(e.shape()) + " with no elements");
        }
        return new HostTensor(name, e.dtype(), e.shape(), data.asSlice(e.begin(), e.byteCount()));
    }

    private SafetensorsEntry entry(String name) {
        SafetensorsEntry e = entries.get(name);
        if (e == null) {
            throw new ModelFormatException(description + ": missing tensor " + UntrustedText.oneLine(name));
        }
        return e;
    }
}
