# Sourced by scripts/measure-memory.sh, scripts/measure-startup.sh, scripts/soak.sh and (harness_install)
# scripts/e2e-desktop.sh: a private headless desktop
# (Xvfb, a tray host when trayer is installed, PulseAudio with a virtual microphone) and helpers that
# start `./dictum app` (or another launcher) as a user does and dictate a WAV through the real hotkey.
# Needs Xvfb, xdotool and pulseaudio/pactl/paplay (scripts/e2e-desktop.sh installs them as root).
# Ends only the processes it started.

harness_pids=()
harness_cleanup() {
  disown -a 2>/dev/null || true # no "Killed" lines from bash for what is ended here
  for ((i=${#harness_pids[@]}-1; i>=0; i--)); do kill -TERM "${harness_pids[i]}" 2>/dev/null || true; done
  sleep 0.3
  for ((i=${#harness_pids[@]}-1; i>=0; i--)); do kill -KILL "${harness_pids[i]}" 2>/dev/null || true; done
  [ -n "${harness_work:-}" ] && [ "${harness_keep:-0}" != 1 ] && rm -rf "$harness_work"
  return 0
}
harness_wait() { # seconds, command...
  local until=$((SECONDS + $1)); shift
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $until ] || return 1
    sleep 0.05
  done
}
# Installs the Debian packages that give the tools named (as root, with apt-get) when any is missing;
# "python3-tk" stands for Tk in python3, "gnuplot" for gnuplot-nox. Exits 2 saying what is missing otherwise.
harness_install() { # tool...
  local missing=() t
  for t in "$@"; do
    case "$t" in
      python3-tk) /usr/bin/python3 -c 'import tkinter' >/dev/null 2>&1 || missing+=("$t") ;;
      *) command -v "$t" >/dev/null 2>&1 || missing+=("$t") ;;
    esac
  done
  [ ${#missing[@]} = 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "$(basename "$0"): missing: ${missing[*]} (run as root to install them, or install them)" >&2
    exit 2
  fi
  echo "$(basename "$0"): installing what is missing (${missing[*]})"
  local extra=()
  for t in "${missing[@]}"; do
    case "$t" in gnuplot) extra+=(gnuplot-nox) ;; openbox) extra+=(openbox) ;; esac
  done
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xvfb xauth x11-utils \
    x11-xserver-utils xdotool xclip imagemagick libxtst6 libxkbcommon-x11-0 libxkbcommon0 libx11-xcb1 libxt6 \
    libxinerama1 libxi6 libxrender1 libxrandr2 pulseaudio pulseaudio-utils libasound2 libasound2-plugins \
    alsa-utils sox trayer libgtk-3-0 libgl1 libglib2.0-0 fonts-dejavu-core python3-tk sqlite3 "${extra[@]}" >/dev/null
}

# Builds the app's jars when ./dictum has none yet.
harness_build_app() {
  if ! compgen -G "app/target/dictum-app-*.jar" >/dev/null || [ ! -d app/target/lib ]; then
    echo "$(basename "$0"): building the app"
    (source scripts/java-env.sh && mvn -B -q -pl app -am -DskipTests package)
  fi
}

harness_need() {
  local m=()
  for t in Xvfb xdotool pulseaudio pactl paplay xdpyinfo; do command -v "$t" >/dev/null || m+=("$t"); done
  [ ${#m[@]} = 0 ] || { echo "$(basename "$0"): missing ${m[*]} (scripts/e2e-desktop.sh installs them as root)" >&2; exit 2; }
}

# Starts Xvfb, the tray host and PulseAudio in a private HOME (exported); sets $harness_work.
harness_desktop() {
  harness_need
  harness_work="$(mktemp -d /tmp/dictum-harness.XXXXXX)"
  export HOME="$harness_work/home" XDG_CONFIG_HOME="$harness_work/config" XDG_DATA_HOME="$harness_work/data" \
         XDG_RUNTIME_DIR="$harness_work/run"
  mkdir -p "$HOME" "$XDG_CONFIG_HOME/dictum" "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
  chmod 700 "$XDG_RUNTIME_DIR"
  export PULSE_SERVER="unix:$XDG_RUNTIME_DIR/pulse/native"
  local display=""
  for n in $(seq 200 299); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
  done
  [ -n "$display" ] || { echo "$(basename "$0"): no free X display" >&2; exit 1; }
  Xvfb "$display" -screen 0 1280x800x24 -noreset -nolisten tcp +extension RECORD +extension XTEST >"$harness_work/xvfb.log" 2>&1 &
  harness_pids+=($!)
  export DISPLAY="$display"
  harness_wait 10 xdpyinfo || { echo "$(basename "$0"): Xvfb did not start" >&2; exit 1; }
  xset r off 2>/dev/null || true
  if command -v trayer >/dev/null; then
    trayer --edge top --align right --SetDockType true --widthtype request --height 32 >"$harness_work/trayer.log" 2>&1 &
    harness_pids+=($!)
  fi
  pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit --system=false --log-target=stderr \
    --load=module-native-protocol-unix --load=module-always-sink >"$harness_work/pulse.log" 2>&1 &
  harness_pids+=($!)
  harness_wait 10 pactl info || { echo "$(basename "$0"): PulseAudio did not start" >&2; exit 1; }
  pactl load-module module-null-sink sink_name=speaker >/dev/null
  pactl load-module module-null-sink sink_name=vmic_sink rate=16000 channels=1 format=s16le >/dev/null
  pactl set-default-sink speaker
  harness_mic vmic
}

# A virtual microphone NAME (a null sink NAME_sink whose monitor is remapped as the source NAME), made
# the default source and kept flowing with zeros as a real one is; $harness_mic_module is its source
# module (unload it to unplug the microphone), $harness_mic_sink where to play into it.
harness_mic() { # name
  pactl load-module module-null-sink sink_name="$1_sink" rate=16000 channels=1 format=s16le >/dev/null
  harness_mic_module=$(pactl load-module module-remap-source master="$1_sink.monitor" source_name="$1")
  harness_mic_sink="$1_sink"
  pactl set-default-source "$1"
  pacat --playback --device="$1_sink" --rate=16000 --channels=1 --format=s16le --latency-msec=20 /dev/zero \
    2>/dev/null &
  harness_pids+=($!)
}

# A python3-tk text window with the focus that writes what it holds to FILE ($harness_target_wid).
harness_target_window() { # file
  /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/../e2e/target_window.py" "$1" >"$harness_work/target.log" 2>&1 &
  harness_pids+=($!)
  harness_target_wid="$(timeout 20 xdotool search --sync --name '^dictum-e2e-target$' | head -1)" \
    || { echo "$(basename "$0"): the target window did not open" >&2; exit 1; }
  # Found before it is mapped under load: focusing an unmapped window is a BadMatch, so try for a while.
  harness_wait 10 xdotool windowfocus --sync "$harness_target_wid" \
    || { echo "$(basename "$0"): the target window cannot take the focus" >&2; exit 1; }
  harness_wait 5 test -f "$1" || { echo "$(basename "$0"): the target window does not write its text" >&2; exit 1; }
}

# The app log's lines that end a recording one way or another (one per recording).
harness_outcomes='release-to-text|nothing inserted|transcription failed|insertion failed|too short|recording cancelled|recording stopped: microphone'
# The last outcome line after line MARK of the log ("" when none yet).
harness_outcome_since() { # mark
  tail -n +"$(($1 + 1))" "$harness_log" | grep -E "$harness_outcomes" | tail -1 || true
}

# Writes the settings file choosing MODEL (push-to-talk on Ctrl+Alt+Space, paste).
harness_settings() { # model
  cat >"$XDG_CONFIG_HOME/dictum/settings.json" <<JSON
{"hotkeys": {"mode": "push-to-talk", "dictate": "Ctrl+Alt+Space"},
 "insertion": {"method": "paste"}, "models": {"modelPath": "$1"}}
JSON
  harness_log="$XDG_DATA_HOME/dictum/logs/dictum.log"
}

# Starts the app (the command given, default ./dictum app) in the background: $harness_app is its pid,
# its stdout goes to $harness_work/app.out, $harness_t0 is the launch time in ms.
harness_start() { # [command...]
  [ $# -gt 0 ] || set -- ./dictum app
  harness_t0=$(date +%s%3N)
  "$@" >"$harness_work/app.out" 2>"$harness_work/app.err" &
  harness_app=$!
  harness_pids+=($harness_app)
}

# Waits until the log (or stdout, with stdout as 3rd arg) matches; prints ms since launch.
harness_until() { # regex seconds [stdout]
  local f="$harness_log"; [ "${3:-}" = stdout ] && f="$harness_work/app.out"
  local until=$((SECONDS + $2))
  until grep -qE "$1" "$f" 2>/dev/null; do
    kill -0 "$harness_app" 2>/dev/null || { cat "$harness_work/app.err" >&2; echo "$(basename "$0"): the app exited" >&2; exit 1; }
    [ $SECONDS -lt $until ] || { echo "$(basename "$0"): no '$1' in $2 s" >&2; exit 1; }
    sleep 0.02
  done
  echo $(( $(date +%s%3N) - harness_t0 ))
}

# The app's JVM: the java process (the launcher may be a shell or a jpackage launcher in between).
harness_java_pid() {
  local p=$harness_app
  for _ in 1 2 3; do
    [ "$(cat /proc/$p/comm 2>/dev/null)" = java ] && { echo "$p"; return; }
    local c; c=$(pgrep -P "$p" | head -1) || true
    [ -n "$c" ] || break
    p=$c
  done
  echo "$p"
}
harness_rss_mb() { awk '/^VmRSS/ {printf "%d\n", $2 / 1024}' "/proc/$(harness_java_pid)/status"; }

# One push-to-talk dictation of WAV through the real hotkey; waits for its outcome; prints the
# engine's time after release (ms, from the app's "dictation: ..." log line).
harness_dictate() { # wav
  local mark; mark=$(wc -l <"$harness_log")
  xdotool keydown --delay 0 ctrl+alt+space
  sleep 0.3
  paplay --device="$harness_mic_sink" "$1"
  sleep 0.3
  xdotool keyup --delay 0 ctrl+alt+space
  local until=$((SECONDS + 120)) line=""
  while [ -z "$line" ]; do
    line=$(harness_outcome_since "$mark")
    [ $SECONDS -lt $until ] || { echo "$(basename "$0"): no dictation outcome in 120 s" >&2; exit 1; }
    [ -n "$line" ] || sleep 0.05
  done
  echo "$line" | sed -n 's/.*engine \([0-9]*\) ms after release.*/\1/p'
}

# Prints every file or folder under the given folders that group or others may read, write or enter
# (links and downloaded model files excepted: a model is not about the user); nothing when all are
# owner-only (issue 23 item 6). Missing folders are skipped.
harness_open_to_others() { # folder...
  local d
  for d in "$@"; do
    [ -d "$d" ] || continue
    find "$d" ! -type l ! -path '*/models/*' -perm /077 -printf '%m %p\n'
  done
}
