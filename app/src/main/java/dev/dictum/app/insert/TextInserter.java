package dev.dictum.app.insert;

import dev.dictum.app.dictation.TextOutput;
import dev.dictum.app.os.UnicodeTyper;
import dev.dictum.app.settings.InsertionMethod;
import dev.dictum.app.settings.InsertionSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Paste, type or clipboard only, as the settings say. */
public final class TextInserter implements TextOutput {
    private static final Logger log = LoggerFactory.getLogger(TextInserter.class);
    private final ClipboardPaste paste;
    private final KeySender keys;
    private final UnicodeTyper typer;

    /** @param typer null where typing is not available (then typing falls back to paste) */
    public TextInserter(ClipboardPaste paste, KeySender keys, UnicodeTyper typer) {
        this.paste = paste;
        this.keys = keys;
        this.typer = typer;
    }

    @Override
    public void prepare(InsertionSettings s) {
        if (s.method() == InsertionMethod.PASTE || s.method() == InsertionMethod.TYPE && typer == null) {
            paste.prepare();
        }
    }

    @Override
    public long insert(String text, InsertionSettings s, boolean enter) throws Exception {
        return switch (s.method()) {
            case CLIPBOARD_ONLY -> paste.copy(text);
            case TYPE -> {
                if (typer == null) {
                    yield paste.paste(text, s, enter);
                }
                try {
                    typer.type(text, s.typingDelayMillis());
                } catch (UnicodeTyper.CannotTypeException e) { // nothing was typed: the text still arrives
                    log.info("typing: {}; pasted instead", e.getMessage());
                    yield paste.paste(text, s, enter);
                }
                long at = System.nanoTime();
                if (enter) {
                    keys.enter();
                }
                yield at;
            }
            case PASTE -> paste.paste(text, s, enter);
        };
    }
}
