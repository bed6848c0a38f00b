#!/usr/bin/env bash
# Installs the .deb that packaging/build.sh made, runs the installed Dictum as a user would, and removes
# it again; fails unless every step works and the removal leaves nothing behind. CI runs it after ./test.
# Needs root (dpkg -i). Usage: packaging/test-deb.sh [DEB]
set -euo pipefail
cd "$(dirname "$0")/.."
deb=${1:-$(ls packaging/target/dictum_*_amd64.deb 2>/dev/null | head -1)}
[ -f "${deb:-}" ] || { echo "test-deb: no .deb; run packaging/build.sh first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "test-deb: needs root for dpkg -i" >&2; exit 2; }
if dpkg-query -W -f='${Status}' dictum 2>/dev/null | grep -q 'ok installed'; then
  echo "test-deb: a dictum package is already installed here; remove it first (dpkg -r dictum)" >&2
  exit 2
fi
fail() { echo "test-deb: FAIL: $*" >&2; exit 1; }
ms() { date +%s%3N; }
step() { echo "test-deb: $*"; }

step "dpkg -i $deb"
t=$(ms)
if ! dpkg -i "$deb" >/dev/null 2>/tmp/test-deb.dpkg; then
  # Missing dependencies (a bare machine): let apt bring them, as a user's package manager would.
  apt-get update -qq && apt-get install -f -y -qq >/dev/null || { cat /tmp/test-deb.dpkg >&2; fail "dpkg -i"; }
fi
dpkg-query -W -f='${Status}' dictum | grep -q 'ok installed' || fail "dictum is not installed after dpkg -i"
step "installed in $(( $(ms) - t )) ms"
trap 'dpkg -P dictum >/dev/null 2>&1 || true' EXIT

[ "$(command -v dictum)" = /usr/bin/dictum ] || fail "dictum is not on the PATH as /usr/bin/dictum"
t=$(ms); version=$(dictum --version); step "dictum --version: $version ($(( $(ms) - t )) ms)"
[[ "$version" == dictum* ]] || fail "unexpected --version output: $version"

if [ -f /opt/dictum/lib/app/dictum.aot ]; then
  shared=$(JAVA_TOOL_OPTIONS=-Xlog:class+load=info dictum --version 2>/dev/null | grep -c 'source: shared objects file' || true)
  [ "$shared" -gt 100 ] || fail "the installed AOT cache is not used ($shared classes from it): $(dictum --version 2>&1 >/dev/null | head -2)"
  step "AOT cache in use: $shared classes from it at start-up"
fi

wav=testdata/data/toy-en-samples/sample_01.wav
expected=$(awk -F'\t' '$1=="sample_01.wav"{print $2}' testdata/data/toy-en-samples/transcripts.tsv)
t=$(ms); text=$(dictum transcribe --model testdata/models/toy-en "$wav" 2>/tmp/test-deb.err) || { cat /tmp/test-deb.err >&2; fail "dictum transcribe"; }
step "dictum transcribe: \"$text\" ($(( $(ms) - t )) ms from launch to result)"
[ "$(echo "$text" | sed 's/^ *//')" = "$expected" ] || fail "transcript \"$text\" is not \"$expected\""
if grep -q 'Using incubator modules' /tmp/test-deb.err; then fail "the JVM's incubator notice reached the terminal"; fi

# A command exists when `dictum --help` lists it (picocli accepts `--help` after any word).
has_command() { dictum --help 2>/dev/null | grep -qE "^ +$1( |$)"; }
if has_command doctor; then
  t=$(ms); dictum doctor || fail "dictum doctor"; step "dictum doctor ran ($(( $(ms) - t )) ms)"
else
  step "dictum doctor: not in this build (skipped)"
fi

desktop=/usr/share/applications/dev.dictum.Dictum.desktop
[ -f "$desktop" ] || fail "no desktop menu entry at $desktop"
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$desktop" || fail "invalid $desktop"; fi
exec_line=$(sed -n 's/^Exec=//p' "$desktop")
program=${exec_line%% *}
[ -x "$program" ] || fail "the menu entry runs $program, which is not executable"
# Nothing the program writes may land in /opt/dictum (a normal user cannot write there, and dpkg -r
# would leave it behind); JNativeHook's library must be the packaged one.
dpkg -S /opt/dictum/lib/app/libJNativeHook-*.so >/dev/null || fail "JNativeHook's native library is not in the package"
if has_command app; then
  "$program" ${exec_line#* } --help >/dev/null || fail "the menu entry's command ($exec_line --help) fails"
  if command -v Xvfb >/dev/null; then
    # Start the app as the menu does, on a virtual display, as a user who cannot write /opt: the tray
    # (or its control window) and global hotkeys come up, then it is stopped.
    Xvfb :95 -screen 0 1024x768x24 -nolisten tcp +extension RECORD >/dev/null 2>&1 &
    xvfb=$!
    home=$(mktemp -d)
    chmod 777 "$home"
    sleep 1
    su nobody -s /bin/bash -c "DISPLAY=:95 HOME=$home XDG_CONFIG_HOME=$home/c XDG_DATA_HOME=$home/d timeout 25 $exec_line" \
      >/dev/null 2>&1 || true
    kill $xvfb 2>/dev/null || true
    log=$home/d/dictum/logs/dictum.log
    grep -q 'Dictum running' "$log" 2>/dev/null || fail "the app did not start from the menu command: $(tail -3 "$log" 2>/dev/null)"
    if grep -q 'global hotkeys unavailable' "$log"; then fail "hotkeys did not start: $(grep 'hotkeys unavailable' "$log")"; fi
    step "the menu command started the app as an unprivileged user (tray or control window, hotkeys)"
    rm -rf "$home"
  fi
  step "menu entry: $exec_line (its --help runs)"
else
  step "menu entry: $exec_line (the app command is not in this build; its program runs: $("$program" --version))"
fi
[ -f /usr/share/icons/hicolor/scalable/apps/dev.dictum.Dictum.svg ] || fail "no icon"

step "dpkg -r dictum"
trap - EXIT
dpkg -r dictum >/dev/null || fail "dpkg -r"
for p in /opt/dictum /usr/bin/dictum "$desktop" /usr/share/icons/hicolor/scalable/apps/dev.dictum.Dictum.svg; do
  [ ! -e "$p" ] || fail "$p is still there after dpkg -r"
done
dpkg -P dictum >/dev/null
step "removed cleanly"
