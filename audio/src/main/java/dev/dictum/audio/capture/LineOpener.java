package dev.dictum.audio.capture;

import java.io.IOException;

/** Opens the line for a device name (null or empty: the default); {@link InputDevices#open} in the app. */
@FunctionalInterface
public interface LineOpener {
  PcmLine open(String deviceName) throws IOException;
}
