package dev.dictum.kernels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The little of a 64-bit little-endian ELF file the kernel tests read: section headers, the notes
 * of SHT_NOTE sections and the names of FUNC symbols. AMD code objects and NVIDIA cubins are both
 * such files. Written by hand because no maintained Java ELF reader covers notes and symbols in a
 * few lines; it checks every offset it follows so that a corrupt file fails with a message.
 */
final class ElfImage {
    private static final int SHT_SYMTAB = 2;
    private static final int SHT_NOTE = 7;
    private static final int STT_FUNC = 2;

    record Section(String name, int type, long offset, long size, int link, long entrySize) {
    }

    record Note(String owner, int type, byte[] desc) {
    }

    private final String label;
    private final ByteBuffer buf;
    final int machine;
    final List<Section> sections = new ArrayList<>();

    ElfImage(String label, byte[] bytes) {
        this.label = label;
        this.buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 64 || buf.getInt(0) != 0x464c457f) {
            throw new IllegalArgumentException(label + ": not an ELF file");
        }
        if (bytes[4] != 2 || bytes[5] != 1) {
            throw new IllegalArgumentException(label + ": not a 64-bit little-endian ELF file");
        }
        machine = Short.toUnsignedInt(buf.getShort(18));
        long shoff = buf.getLong(40);
        int shentsize = Short.toUnsignedInt(buf.getShort(58));
        int shnum = Short.toUnsignedInt(buf.getShort(60));
        int shstrndx = Short.toUnsignedInt(buf.getShort(62));
        check(shoff, (long) shentsize * shnum);
        long[][] raw = new long[shnum][];
        for (int i = 0; i < shnum; i++) {
            int at = Math.toIntExact(shoff + (long) i * shentsize);
            raw[i] = new long[] {Integer.toUnsignedLong(buf.getInt(at)), buf.getInt(at + 4), buf.getLong(at + 24),
                    buf.getLong(at + 32), buf.getInt(at + 40), buf.getLong(at + 56)};
        }
        long strOff = raw[shstrndx][2];
        for (long[] s : raw) {
            check(s[2], s[1] == 8 ? 0 : s[3]); // SHT_NOBITS has no file content
            sections.add(new Section(string(strOff + s[0]), (int) s[1], s[2], s[3], (int) s[4], s[5]));
        }
    }

    /** The code object's ELF ABI version byte (AMDGPU HSA: 2 = code object v4, 3 = v5). */
    int abiVersion() {
        return buf.get(8);
    }

    List<Note> notes() {
        List<Note> notes = new ArrayList<>();
        for (Section s : sections) {
            if (s.type() != SHT_NOTE) {
                continue;
            }
            long p = s.offset();
            long end = s.offset() + s.size();
            while (p + 12 <= end) {
                int namesz = buf.getInt((int) p);
                int descsz = buf.getInt((int) p + 4);
                int type = buf.getInt((int) p + 8);
                long name = p + 12;
                long desc = name + align4(namesz);
                check(desc, descsz);
                String owner = new String(bytes(name, Math.max(0, namesz - 1)), StandardCharsets.US_ASCII);
                notes.add(new Note(owner, type, bytes(desc, descsz)));
                p = desc + align4(descsz);
            }
        }
        return notes;
    }

    /** Names of the FUNC symbols of every symbol table. */
    List<String> functionSymbols() {
        List<String> names = new ArrayList<>();
        for (Section s : sections) {
            if (s.type() != SHT_SYMTAB || s.entrySize() != 24) {
                continue;
            }
            long strOff = sections.get(s.link()).offset();
            for (long p = s.offset(); p + 24 <= s.offset() + s.size(); p += 24) {
                int info = buf.get((int) p + 4) & 0xff;
                if ((info & 0xf) == STT_FUNC) {
                    names.add(string(strOff + Integer.toUnsignedLong(buf.getInt((int) p))));
                }
            }
        }
        return names;
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }

    private void check(long offset, long size) {
        if (offset < 0 || size < 0 || offset + size > buf.capacity()) {
            throw new IllegalArgumentException(label + ": ELF offset " + offset + "+" + size + " beyond the file ("
                    + buf.capacity() + " bytes)");
        }
    }

    private byte[] bytes(long offset, int n) {
        check(offset, n);
        byte[] out = new byte[n];
        buf.get(Math.toIntExact(offset), out);
        return out;
    }

    private String string(long offset) {
        check(offset, 1);
        int end = (int) offset;
        while (end < buf.capacity() && buf.get(end) != 0) {
            end++;
        }
        return new String(bytes(offset, end - (int) offset), StandardCharsets.US_ASCII);
    }
}
