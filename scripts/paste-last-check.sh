#!/usr/bin/env bash
# Paste-last, pressed again and again (issue 24: the soak's 5 wrong were paste-lasts): one dictation, then
# PRESSES x `xdotool key --delay 0 ctrl+alt+v`, each checked against the last text. Run it with a busy loop per
# core to provoke the race (see docs/benchmarks.md). Needs ./dictum built and the tools scripts/e2e-desktop.sh
# installs. Usage: scripts/paste-last-check.sh REPO [PRESSES]
set -euo pipefail
repo="$1"; presses="${2:-200}"
cd "$repo"
export LC_ALL=C.UTF-8
source scripts/java-env.sh
source scripts/lib/desktop-harness.sh
trap harness_cleanup EXIT
harness_desktop
typed="$harness_work/typed.txt"
harness_target_window "$typed"
harness_log="$XDG_DATA_HOME/dictum/logs/dictum.log"
model="$repo/testdata/models/toy-en/ggml-toy-en.bin"
mkdir -p "$XDG_CONFIG_HOME/dictum"
cat >"$XDG_CONFIG_HOME/dictum/settings.json" <<JSON
{"hotkeys": {"mode": "push-to-talk", "dictate": "Ctrl+Alt+Space"},
 "insertion": {"method": "paste"},
 "models": {"modelPath": "$model", "modelsFolder": "$(dirname "$model")"}}
JSON
DICTUM_JAVA_OPTS="-Dprism.order=sw" harness_start ./dictum app
harness_until "Dictum ready" 240 >/dev/null
wav="$repo/testdata/data/toy-en-samples/$(ls testdata/data/toy-en-samples | grep wav | head -1)"
window() { cat "$typed"; printf x; }
xdotool keydown --delay 0 ctrl+alt+space; sleep 0.3; paplay --device="$harness_mic_sink" "$wav"; sleep 0.4; xdotool keyup --delay 0 ctrl+alt+space
sleep 3
first="$(window)"; first="${first%x}"; last="${first# }"
echo "dictated: [$last]"
ok=0 bad=0
for i in $(seq 1 "$presses"); do
  before="$(window)"; before="${before%x}"
  xdotool key --delay 0 ctrl+alt+v
  until=$((SECONDS + 5))
  while :; do got="$(window)"; got="${got%x}"; got="${got:${#before}}"; [ ${#got} -lt ${#last} ] && [ $SECONDS -lt $until ] || break; sleep 0.05; done
  sleep 0.3; got="$(window)"; got="${got%x}"; got="${got:${#before}}"; got="${got# }"
  if [ "$got" = "$last" ]; then ok=$((ok + 1)); else bad=$((bad + 1)); echo "paste-last $i: got [$got]"; fi
done
echo "paste-last: $ok exact, $bad wrong of $presses"
grep "hand-off" "$harness_log" | sed 's/.*hand-off: //' | awk '{print $4}' | sort -n | uniq -c | sort -rn | head -5
