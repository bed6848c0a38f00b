package dev.dictum.audio.capture;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SourceWatch} through PulseAudio's own command-line client: {@code pactl subscribe} tells
 * when sources or streams change, {@code pactl list source-outputs} which source this process's
 * stream reads from. The client ships with every PulseAudio and PipeWire-Pulse install; binding
 * libpulse's asynchronous API by hand for three questions would be far more code.
 */
final class PulseSourceWatch implements SourceWatch {
  private static final Logger LOG = LoggerFactory.getLogger(PulseSourceWatch.class);
  private static final long PID = ProcessHandle.current().pid();
  private Process subscription;

  /** Whether {@code pactl} is installed and reaches a server (Linux only). */
  static boolean available() {
    if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
      return false;
    }
    return run("info") != null;
  }

  @Override
  public synchronized void start(Runnable onChange) {
    try {
      subscription = command("subscribe").start();
    } catch (IOException e) {
      LOG.debug("pactl subscribe: {}", e.getMessage());
      return;
    }
    Process p = subscription;
    Thread.ofPlatform().name("dictum-pulse-watch").daemon().start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.contains(" source") || line.contains(" server")) { // not sinks, sink inputs, clients
            while (r.ready()) {
              r.readLine(); // one look per burst of events (a removal moves streams: several lines)
            }
            onChange.run();
          }
        }
      } catch (IOException | RuntimeException e) {
        LOG.debug("pactl subscribe ended: {}", e.getMessage());
      }
    });
  }

  @Override
  public String streamSource() {
    String outputs = run("list", "source-outputs");
    String shortSources = run("list", "short", "sources");
    return outputs == null || shortSources == null ? null : sourceOf(outputs, shortSources, PID);
  }

  @Override
  public String defaultSource() {
    String out = run("get-default-source");
    return out == null || out.isBlank() ? null : out.strip();
  }

  @Override
  public synchronized void close() {
    if (subscription != null) {
      subscription.destroy();
    }
  }

  /**
   * The name of the source that the stream of process {@code pid} reads from, from the text of
   * {@code pactl list source-outputs} and {@code pactl list short sources}; null when it has none or
   * its source is not in the second list (the two are separate calls: a source can come or go between).
   */
  static String sourceOf(String sourceOutputs, String shortSources, long pid) {
    Map<String, String> names = new HashMap<>();
    for (String line : shortSources.split("\n")) {
      String[] f = line.split("\t");
      if (f.length >= 2) {
        names.put(f[0].strip(), f[1].strip());
      }
    }
    String source = null;
    for (String line : sourceOutputs.split("\n")) {
      String l = line.strip();
      if (l.startsWith("Source Output #")) {
        source = null;
      } else if (l.startsWith("Source: ")) {
        source = l.substring("Source: ".length()).strip();
      } else if (l.equals("application.process.id = \"" + pid + "\"") && source != null) {
        return names.get(source);
      }
    }
    return null;
  }

  private static ProcessBuilder command(String... args) {
    List<String> cmd = new ArrayList<>(List.of("pactl"));
    cmd.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
    b.environment().put("LC_ALL", "C"); // the parsed words are English
    return b;
  }

  /** Runs pactl; its output, or null when it failed or took over two seconds. */
  private static String run(String... args) {
    try {
      Process p = command(args).start();
      // Wait first, read after: a wedged server must not hang the capture thread in a read. The
      // answers are a few kilobytes, well within the pipe's buffer.
      if (!p.waitFor(2, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      byte[] out = p.getInputStream().readAllBytes();
      return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
