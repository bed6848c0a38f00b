package dev.dictum.app.insert;

import java.awt.datatransfer.DataFlavor;
import java.awt.datatransfer.Transferable;
import java.awt.datatransfer.UnsupportedFlavorException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A copy of everything the clipboard held, in every flavour it offered (text, HTML, images, file
 * lists, application formats), taken eagerly: once Dictum sets its text the previous owner's data
 * is gone, so the bytes must be in hand before. Streams and readers are read fully and handed out
 * fresh on each request. Flavours that fail to read are left out rather than failing the paste.
 *
 * <p>One representation per MIME type is kept (plain text as a String, others as bytes where
 * offered): Java lists each native format under several classes (String, Reader, InputStream,
 * CharBuffer, ByteBuffer, per charset), and on X11 every read is a round trip to the owner, so
 * reading them all cost over half a second; the platform exports every native format again from
 * the one kept.
 */
final class SavedClipboard implements Transferable {
    private final Map<DataFlavor, Object> data;

    private SavedClipboard(Map<DataFlavor, Object> data) {
        this.data = data;
    }

    /** Copies every flavour of {@code t} (null: an empty clipboard). */
    static SavedClipboard of(Transferable t) {
        Map<DataFlavor, Object> copy = new LinkedHashMap<>();
        if (t != null) {
            java.util.Set<String> mimes = new java.util.HashSet<>();
            for (DataFlavor f : preferred(t.getTransferDataFlavors())) {
                if (!mimes.add(mime(f))) {
                    continue;
                }
                try {
                    Object v = t.getTransferData(f);
                    if (v instanceof InputStream in) {
                        try (in) {
                            v = new Bytes(in.readAllBytes());
                        }
                    } else if (v instanceof Reader r) {
                        StringBuilder b = new StringBuilder();
                        try (r) {
                            char[] buf = new char[4096];
                            for (int n; (n = r.read(buf)) > 0; ) {
                                b.append(buf, 0, n);
                            }
                        }
                        v = new Chars(b.toString());
                    } else if (v instanceof ByteBuffer bb) {
                        byte[] bytes = new byte[bb.remaining()];
                        bb.duplicate().get(bytes);
                        v = new Bytes(bytes);
                    } else if (v instanceof CharBuffer cb) {
                        v = new Chars(cb.toString());
                    }
                    copy.put(f, v);
                } catch (UnsupportedFlavorException | IOException | RuntimeException e) {
                    mimes.remove(mime(f)); // try another representation
                }
            }
        }
        return new SavedClipboard(copy);
    }

    /** The format a flavour stands for; Java's String flavour is plain text. */
    private static String mime(DataFlavor f) {
        return f.equals(DataFlavor.stringFlavor) ? "text/plain" : f.getPrimaryType() + "/" + f.getSubType();
    }

    /** Plain text as a String first, then byte streams, then the rest, each group in the owner's order. */
    private static List<DataFlavor> preferred(DataFlavor[] flavors) {
        List<DataFlavor> out = new ArrayList<>();
        for (DataFlavor f : flavors) {
            if (f.equals(DataFlavor.stringFlavor)) {
                out.add(f);
            }
        }
        for (DataFlavor f : flavors) {
            if (f.isRepresentationClassInputStream() && !out.contains(f)) {
                out.add(f);
            }
        }
        for (DataFlavor f : flavors) {
            if (!out.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }

    boolean isEmpty() {
        return data.isEmpty();
    }

    List<DataFlavor> flavors() {
        return new ArrayList<>(data.keySet());
    }

    @Override
    public DataFlavor[] getTransferDataFlavors() {
        return data.keySet().toArray(DataFlavor[]::new);
    }

    @Override
    public boolean isDataFlavorSupported(DataFlavor flavor) {
        return data.containsKey(flavor);
    }

    @Override
    public Object getTransferData(DataFlavor flavor) throws UnsupportedFlavorException {
        Object v = data.get(flavor);
        if (v == null) {
            throw new UnsupportedFlavorException(flavor);
        }
        if (v instanceof Bytes b) {
            if (ByteBuffer.class.isAssignableFrom(flavor.getRepresentationClass())) {
                return ByteBuffer.wrap(b.bytes().clone());
            }
            return new ByteArrayInputStream(b.bytes());
        }
        if (v instanceof Chars c) {
            if (CharBuffer.class.isAssignableFrom(flavor.getRepresentationClass())) {
                return CharBuffer.wrap(c.text());
            }
            return new StringReader(c.text());
        }
        return v;
    }

    private record Bytes(byte[] bytes) {
    }

    private record Chars(String text) {
    }
}
