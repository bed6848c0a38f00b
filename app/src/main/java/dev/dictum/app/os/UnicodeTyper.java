package dev.dictum.app.os;

/** Types text as key events, any Unicode character included. */
public interface UnicodeTyper {

    void type(String text, int delayMillis) throws InterruptedException;
}
