#!/usr/bin/env bash
# A day of dictation (issue 24): the real app (`./dictum app`) on a private headless desktop
# (scripts/lib/desktop-harness.sh: Xvfb, PulseAudio with a virtual microphone, a Tk text window with
# the focus) through N dictations that mix what a day brings, every insertion checked:
#   per 10: six clips (push-to-talk, or toggle in the toggle phases; one ended with stop-and-Enter, one
#   followed by paste-last), one Escape mid-clip, one hold of digital silence, one of noise (pink, or
#   breathing-like brown noise with a tremolo), one hold shorter than the minimum;
#   every 40, from the 21st: 20 dictations with the settings file changed to toggle + typing, then back;
#   every 100, at the 7th: the microphone unplugged mid-clip (nothing may arrive) and a new one plugged in;
#   every 100, at the 33rd: a model switch through the settings file to --model2, and back at the 38th;
#   every 200, at the 25th: one dictation of about --long seconds (clips with 1.2 s pauses), exact.
# Every 10 dictations it samples RSS, Java heap used after a full GC (jcmd GC.run; GC.heap_info),
# threads, open file descriptors and GPU memory (nvidia-smi, when the app's JVM uses the GPU), and
# where the resident memory lives: the heap's committed size, the code cache's high-water mark
# (Compiler.codecache), metaspace committed (VM.metaspace) and glibc's arenas, held and free
# (System.native_heap_info), so that a slope can be named without a second run.
# Ends with one line:
#   soak: N dictations, M exact, K cancelled as asked, S silent holds with nothing typed, RSS A→B MB
#   (growth G after the first 50), threads T0→T1, fds F0→F1, history rows R, WAVs W, lost L
# A→B: first and last sample; G, T0, F0 from the sample after the first 50 dictations (after the first
# 10 when N < 150). Exit 0 only when nothing was lost (every clip's text arrived, every recording has
# its history row, no capture journal is left), nothing wrong was typed (text that is not the clip's,
# any text for silence, noise, Escape or a lost microphone) and the bounds hold: RSS growth after the
# first 50 <= --max-growth MB per 1,000 dictations (the least-squares slope of the samples; in runs with
# fewer than 500 dictations after the first 50 or 10, the growth <= --short-slack MB instead), the heap
# after a full GC growing <= --max-heap-growth MB, threads
# and fds at the end <= after the first 50, history rows = recordings made (all but the too-short),
# WAVs = min(rows, recordings kept), plus the failed one that Retry offers when it is older than those.
#
# Usage: scripts/soak.sh --dictations N [--clips DIR] [--model PATH] [--model2 PATH] [--report FILE]
#                        [--plot FILE] [--long SECONDS] [--max-growth MB] [--short-slack MB]
#                        [--max-heap-growth MB] [--keep]
#   --clips DIR   WAVs with transcripts.tsv or expected.tsv beside them (file, [language,] expected text);
#                 default testdata/data/toy-en-samples
#   --model PATH  default testdata's toy-en; --model2 the model switched to (default: toy-en's q8_0 when
#                 --model is toy-en's ggml; none otherwise: no switch)
#   --report FILE the summary, machine and samples (default app/target/soak/report.txt); the samples
#                 also as CSV (FILE.csv) and the plot of RSS, heap, threads and fds against dictations
#                 as PNG (--plot, default FILE.png, gnuplot)
#   --long S      length of the long dictation (default 60)
#   --max-growth  RSS growth bound in MB per 1,000 dictations (default 10)
#   --short-slack RSS growth bound in MB for short runs (default 64: with the heap flat at 38 MB, runs
#                 of 40-100 dictations grew -40 to +39 MB after the 10th as the JIT, the model switch and
#                 its reload moved the resident set; a leak of a MB a dictation still fails)
#   --max-heap-growth  bound in MB on the Java heap after a full GC, after the first 50 (default 8)
# Takes about 3.5 s per dictation with the toy models on a loaded 2-core machine (1,000: about an hour).
# Run it under `flock /tmp/dictum-desktop.lock` on a shared machine. Installs what it needs as root.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
export LC_ALL=C.UTF-8
source scripts/java-env.sh
source scripts/lib/desktop-harness.sh

count="" clips="$repo/testdata/data/toy-en-samples" model="$repo/testdata/models/toy-en/ggml-toy-en.bin" model2=""
report="$repo/app/target/soak/report.txt" plot="" long=60 max_growth=10 short_slack=64 max_heap_growth=8
while [ $# -gt 0 ]; do
  case "$1" in
    --dictations) count="$2"; shift 2 ;;
    --clips) clips="$(realpath "$2")"; shift 2 ;;
    --model) model="$(realpath "$2")"; shift 2 ;;
    --model2) model2="$(realpath "$2")"; shift 2 ;;
    --report) report="$(realpath -m "$2")"; shift 2 ;;
    --plot) plot="$(realpath -m "$2")"; shift 2 ;;
    --long) long="$2"; shift 2 ;;
    --max-growth) max_growth="$2"; shift 2 ;;
    --short-slack) short_slack="$2"; shift 2 ;;
    --max-heap-growth) max_heap_growth="$2"; shift 2 ;;
    --keep) harness_keep=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "soak: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "soak: --dictations N is required (a positive number)" >&2; exit 2; }
[ -f "$model" ] || { echo "soak: no such model: $model" >&2; exit 2; }
if [ -z "$model2" ] && [ "$model" = "$repo/testdata/models/toy-en/ggml-toy-en.bin" ]; then
  model2="$repo/testdata/models/toy-en/ggml-toy-en-q8_0.bin"
fi
[ -z "$model2" ] || [ -f "$model2" ] || { echo "soak: no such model: $model2" >&2; exit 2; }
tsv="$clips/transcripts.tsv"; [ -f "$tsv" ] || tsv="$clips/expected.tsv"
[ -f "$tsv" ] || { echo "soak: no transcripts.tsv or expected.tsv in $clips" >&2; exit 2; }
plot="${plot:-${report%.txt}.png}"
# The commit the app runs as (taken now: a checkout may move on during an hour-long run).
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- 2>/dev/null || echo ' + changes')"
csv="${report%.txt}.csv"
mkdir -p "$(dirname "$report")" "$(dirname "$plot")"

harness_install Xvfb xdotool pulseaudio pactl paplay pacat sox soxi xdpyinfo sqlite3 python3-tk gnuplot
harness_build_app

# ---- the clips: file and expected text (a language column, when there is one, is skipped)
clip_wav=() clip_text=()
while IFS=$'\t' read -r f a b _; do
  [ "$f" = file ] && continue
  [ -n "$f" ] || continue
  [ -f "$clips/$f" ] || { echo "soak: $tsv names $f, which is not in $clips" >&2; exit 2; }
  if [[ "$a" =~ ^[a-z][a-z]$ ]] && [ -n "$b" ]; then a="$b"; fi
  clip_wav+=("$clips/$f"); clip_text+=("$a")
done < <(tr -d '\r' <"$tsv")
[ ${#clip_wav[@]} -gt 0 ] || { echo "soak: no clips in $tsv" >&2; exit 2; }

trap harness_cleanup EXIT
trap 'exit 130' INT TERM
harness_desktop
gen="$harness_work/gen"; mkdir -p "$gen"
# Noise holds: pink room noise, and breathing-like noise (brown noise swelling and fading 0.3 times a second).
sox -n -r 16000 -c 1 -b 16 "$gen/room.wav" synth 2.5 pinknoise vol 0.15
sox -n -r 16000 -c 1 -b 16 "$gen/breath.wav" synth 3 brownnoise vol 0.4 tremolo 0.3 90
# The long dictation: clips with 1.2 s of quiet between them until about --long seconds.
sox -n -r 16000 -c 1 -b 16 "$gen/pause.wav" trim 0 1.2
parts=() long_text="" total=0 k=0
while awk -v t="$total" -v l="$long" 'BEGIN {exit !(t < l - 3)}'; do
  i=$((k % ${#clip_wav[@]})); k=$((k + 1))
  parts+=("${clip_wav[i]}" "$gen/pause.wav")
  long_text="$long_text ${clip_text[i]}"
  total=$(awk -v t="$total" -v d="$(soxi -D "${clip_wav[i]}")" 'BEGIN {print t + d + 1.2}')
done
sox "${parts[@]}" "$gen/long.wav"
long_text="${long_text# }"

# ---- the app, with settings a user would have
typed="$harness_work/typed.txt"
harness_target_window "$typed"
harness_log="$XDG_DATA_HOME/dictum/logs/dictum.log"
settings_file="$XDG_CONFIG_HOME/dictum/settings.json"
mode=push-to-talk method=paste current_model="$model"
write_settings() { # written whole and renamed in, as an editor saves
  cat >"$settings_file.tmp" <<JSON
{"hotkeys": {"mode": "$mode", "dictate": "Ctrl+Alt+Space"},
 "insertion": {"method": "$method"},
 "models": {"modelPath": "$current_model", "modelsFolder": "$(dirname "$model")"}}
JSON
  mv "$settings_file.tmp" "$settings_file"
}
write_settings
DICTUM_JAVA_OPTS="-Dprism.order=sw ${DICTUM_JAVA_OPTS:-}" harness_start ./dictum app
ready_ms=$(harness_until "Dictum ready" 240)
jpid=$(harness_java_pid)
jcmd "$jpid" VM.version >/dev/null # the attach listener's thread exists from here on, before the first sample
echo "soak: ready after $ready_ms ms (pid $jpid); $count dictations over ${#clip_wav[@]} clips from $clips"

# ---- samples
echo "dictations,rss_mb,heap_mb,threads,fds,gpu_mb,heap_committed_mb,codecache_mb,metaspace_mb,malloc_mb,malloc_free_mb,heap_resident_mb,rss_anon_mb,rss_file_mb" >"$csv"
# The Java heap's resident pages, MB (the mappings inside its reserved range): the part of RSS that the
# collector's resizing moves up and down from sample to sample (G1 uncommits after an idle spell, such as
# a model switch's, and the pages come back as the young generation fills again).
heap_resident_mb() { # pid lo hi (hex)
  python3 -c '
import sys
pid, lo, hi = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
kb, inside = 0, False
for line in open(f"/proc/{pid}/smaps"):
    f = line.split()
    if not f:
        continue
    if "-" in f[0] and not f[0].endswith(":"):
        inside = lo <= int(f[0].split("-")[0], 16) < hi
    elif inside and f[0] == "Rss:":
        kb += int(f[1])
print(kb // 1024)' "$@"
}
sample() { # dictations so far
  jcmd "$jpid" GC.run >/dev/null
  sleep 0.5
  local heap gpu=""
  local info committed code meta arena
  info=$(jcmd "$jpid" GC.heap_info)
  heap=$(sed -n 's/.*heap .* used \([0-9]*\)K.*/\1/p' <<<"$info" | head -1)
  committed=$(sed -n 's/.*heap .* committed \([0-9]*\)K.*/\1/p' <<<"$info" | head -1)
  local range resident
  range=$(sed -n 's/.*heap .*\[\(0x[0-9a-f]*\), \(0x[0-9a-f]*\)).*/\1 \2/p' <<<"$info" | head -1)
  # shellcheck disable=SC2086
  resident=$([ -n "$range" ] && heap_resident_mb "$jpid" $range || echo 0)
  code=$(jcmd "$jpid" Compiler.codecache | sed -n 's/^CodeCache: .*max_used=\([0-9]*\)Kb.*/\1/p' | head -1)
  meta=$(jcmd "$jpid" VM.metaspace | sed -n 's/^Metaspace .* committed \([0-9]*\)K.*/\1/p' | head -1)
  # glibc's malloc_info: the arenas' bytes (system current + mmapped chunks) and their free chunks; the
  # last of each tag is the process's total (each arena has its own before it)
  arena=$(jcmd "$jpid" System.native_heap_info | awk -F'"' '/<total type="fast"/ {fast = $6} /<total type="rest"/ {rest = $6}
    /<total type="mmap"/ {mm = $6} /<system type="current"/ {cur = $4} END {printf "%d,%d", (cur + mm) / 1048576, (fast + rest) / 1048576}')
  if command -v nvidia-smi >/dev/null; then
    gpu=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null \
      | awk -F', *' -v p="$jpid" '$1 == p {print $2}' | head -1)
  fi
  jcmd "$jpid" Thread.print | sed -n 's/^"\([^"]*\)".*/\1/p' | sed 's/[0-9][0-9]*/N/g' | sort >"$harness_work/threads-$1.txt"
  echo "$1,$(harness_rss_mb),$((${heap:-0} / 1024)),$(awk '/^Threads/ {print $2}' "/proc/$jpid/status"),$(ls "/proc/$jpid/fd" | wc -l),$gpu,$((${committed:-0} / 1024)),$((${code:-0} / 1024)),$((${meta:-0} / 1024)),${arena:-0,0},$resident,$(awk '/^RssAnon/ {a = $2} /^RssFile/ {f = $2} END {printf "%d,%d", a / 1024, f / 1024}' "/proc/$jpid/status")" >>"$csv"
}
sample 0

# ---- one dictation of each kind
exact=0 cancelled=0 silent=0 short=0 lost=0 wrong=0 mic_lost=0 pasted_last=0
window() { cat "$typed"; printf x; } # with its trailing newlines
problem() { echo "soak: dictation $i ($1): $2" >&2; }
press() { if [ "$mode" = push-to-talk ]; then xdotool keydown --delay 0 ctrl+alt+space; else tap; fi; }
release() { if [ "$mode" = push-to-talk ]; then xdotool keyup --delay 0 ctrl+alt+space; else tap; fi; }
tap() { xdotool keydown --delay 0 ctrl+alt+space sleep 0.08 keyup --delay 0 ctrl+alt+space; }
# Waits for the recording's outcome line after MARK; prints it ("" after 120 s).
outcome() { # mark
  local until=$((SECONDS + 120)) line=""
  while [ -z "$line" ] && [ $SECONDS -lt $until ]; do
    kill -0 "$harness_app" 2>/dev/null || { echo "soak: the app died at dictation $i" >&2; exit 1; }
    line=$(harness_outcome_since "$1")
    [ -n "$line" ] || sleep 0.05
  done
  echo "$line"
}
# What arrived in the window since BEFORE (one leading space allowed: LeadingSpace), once WANT's
# length has arrived or 20 s passed, and 0.3 s more for anything extra.
arrived() { # before want
  local until=$((SECONDS + 20)) got
  while :; do
    got="$(window)"; got="${got%x}"; got="${got:${#1}}"
    [ ${#got} -lt ${#2} ] && [ $SECONDS -lt $until ] || break
    sleep 0.05
  done
  sleep 0.3
  got="$(window)"; got="${got%x}"; got="${got:${#1}}"
  echo -n "${got# }"
  printf x
}
# A clip: held (or toggled) while it plays; ENTER ends it with stop-and-Enter (push-to-talk only).
clip() { # wav text [enter]
  local before mark want got line
  before="$(window)"; before="${before%x}"; mark=$(wc -l <"$harness_log")
  want="$2"; [ "${3:-}" = enter ] && want="$2"$'\n'
  press; sleep 0.3
  paplay --device="$harness_mic_sink" "$1"
  sleep 0.4
  if [ "${3:-}" = enter ]; then xdotool key --delay 0 Return; fi
  release
  line=$(outcome "$mark")
  got="$(arrived "$before" "$want")"; got="${got%x}"
  if [ "$got" = "$want" ]; then
    exact=$((exact + 1)); last_text="$2"
  elif [ -z "$got" ]; then
    lost=$((lost + 1)); problem clip "nothing arrived for [$2] (${line:-no outcome})"
  else
    wrong=$((wrong + 1)); problem clip "expected [$want], got [$got]"
  fi
}
# A hold whose recording must end as OUTCOME (a regex) with nothing typed: silence, noise, Escape, too short.
quiet() { # what outcome-regex action...
  local what=$1 re=$2 before mark line got; shift 2
  before="$(window)"; before="${before%x}"; mark=$(wc -l <"$harness_log")
  "$@"
  line=$(outcome "$mark")
  got="$(arrived "$before" "")"; got="${got%x}"
  if [ -n "$got" ]; then
    wrong=$((wrong + 1)); problem "$what" "typed [$got]"
  elif ! tail -n +"$((mark + 1))" "$harness_log" | grep -qE "$re"; then
    wrong=$((wrong + 1)); problem "$what" "ended as [${line:-nothing}], not /$re/"
  else
    return 0
  fi
  return 1
}
hold_silence() { press; sleep 2; release; }
hold_noise() { press; sleep 0.3; paplay --device="$harness_mic_sink" "$1"; sleep 0.3; release; }
hold_short() { press; sleep 0.1; release; }
hold_cancel() { # Escape halfway through the clip, the hotkey still held in push-to-talk
  local half; half=$(awk -v d="$(soxi -D "$1")" 'BEGIN {print d / 2}')
  press; sleep 0.3
  paplay --device="$harness_mic_sink" "$1" & local player=$!
  sleep "$half"; xdotool key --delay 0 Escape; wait "$player"
  [ "$mode" = push-to-talk ] && xdotool keyup --delay 0 ctrl+alt+space
  return 0
}
mics=1
hold_unplug() { # the microphone's source unloaded 1 s into the clip: the app ends the recording itself
  press; sleep 0.3
  paplay --device="$harness_mic_sink" "$1" & local player=$!
  sleep 1; pactl unload-module "$harness_mic_module"; wait "$player" || true
  # Push-to-talk: the keys come up. Toggle: no second tap, as the user sees the recording has ended; a
  # tap would start a new one, which the sound server then moved to the new microphone: a sixth
  # "microphone lost" row per 1,000 that the count below did not expect (915 rows for 910).
  if [ "$mode" = push-to-talk ]; then release; fi
  return 0
}
# Waits until the log has a line matching REGEX after line MARK; says WHAT failed after SECONDS.
log_after() { # mark regex seconds what
  local until=$((SECONDS + $3))
  until tail -n +"$(($1 + 1))" "$harness_log" | grep -q "$2"; do
    [ $SECONDS -lt $until ] || { problem "$4" "no '$2' in the log after $3 s"; return 1; }
    sleep 0.1
  done
}
replug() {
  local mark; mark=$(wc -l <"$harness_log")
  mics=$((mics + 1)); harness_mic "vmic$mics"
  log_after "$mark" "(source vmic$mics)" 15 replug || true
  sleep 0.5
}
apply_settings() { # waits until the app has read the file
  local mark; mark=$(wc -l <"$harness_log")
  write_settings
  log_after "$mark" "settings file changed: applied" 15 settings || true
}
switch_model() {
  [ -n "$model2" ] || return 0
  if [ "$current_model" = "$model" ]; then current_model="$model2"; else current_model="$model"; fi
  local mark; mark=$(wc -l <"$harness_log")
  apply_settings
  log_after "$mark" "Dictum ready: model" 240 model || return 0
  echo "soak: dictation $i: model switched to $(basename "$current_model")"
}

t_start=$SECONDS c=0
for ((i = 1; i <= count; i++)); do
  # Phases from the settings file: toggle + typing for dictations 21-40 of every 40.
  if [ $((i % 40)) = 21 ] && [ "$mode" = push-to-talk ]; then mode=toggle method=type; apply_settings
  elif [ $((i % 40)) = 1 ] && [ "$mode" = toggle ]; then mode=push-to-talk method=paste; apply_settings; fi
  # To --model2 for five dictations and back: every sample (each tenth) is taken with the same model.
  if [ $((i % 100)) = 33 ] || { [ $((i % 100)) = 38 ] && [ "$current_model" != "$model" ]; }; then switch_model; fi
  w="${clip_wav[c % ${#clip_wav[@]}]}" t="${clip_text[c % ${#clip_text[@]}]}"
  if [ $((i % 200)) = 25 ]; then
    clip "$gen/long.wav" "$long_text"
  elif [ $((i % 100)) = 7 ]; then
    if quiet "microphone unplugged" "recording stopped: microphone" hold_unplug "$w"; then mic_lost=$((mic_lost + 1)); fi
    replug
  else
    case $((i % 10)) in
      2) if [ "$mode" = push-to-talk ]; then clip "$w" "$t" enter; else clip "$w" "$t"; fi; c=$((c + 1)) ;;
      3) if quiet cancel "recording cancelled" hold_cancel "$w"; then cancelled=$((cancelled + 1)); fi ;;
      4) if quiet silence "no speech" hold_silence; then silent=$((silent + 1)); fi ;;
      6) if [ $(((i / 10) % 2)) = 0 ]; then nz="$gen/room.wav"; else nz="$gen/breath.wav"; fi
         if quiet noise "no speech" hold_noise "$nz"; then silent=$((silent + 1)); fi ;;
      7) if quiet "too short" "too short" hold_short; then short=$((short + 1)); fi ;;
      *) clip "$w" "$t"; c=$((c + 1)) ;;
    esac
  fi
  # Paste-last after every tenth dictation: the last text again, nothing else.
  if [ $((i % 10)) = 0 ] && [ -n "${last_text:-}" ]; then
    before="$(window)"; before="${before%x}"
    xdotool key --delay 0 ctrl+alt+v
    got="$(arrived "$before" "$last_text")"; got="${got%x}"
    if [ "$got" = "$last_text" ]; then pasted_last=$((pasted_last + 1)); else wrong=$((wrong + 1)); problem paste-last "expected [$last_text], got [$got]"; fi
  fi
  if [ $((i % 10)) = 0 ] || [ "$i" = "$count" ]; then
    sample "$i"
    echo "soak: $i/$count after $((SECONDS - t_start)) s: $(tail -1 "$csv") (rss,heap,threads,fds); exact $exact, wrong $wrong, lost $lost"
  fi
done
elapsed=$((SECONDS - t_start)) i_last=$count

# ---- what is kept: a history row for every recording made (all but the too short), WAVs as the settings say
sleep 1
db="$XDG_DATA_HOME/dictum/history.db"
rows=$(sqlite3 "$db" "SELECT count(*) FROM dictation")
wavs=$(find "$XDG_DATA_HOME/dictum/recordings" -name 'dictation-*.wav' | wc -l)
journals=$(find "$XDG_DATA_HOME/dictum/recordings" -name 'capture-*' | wc -l)
kept=50 # the settings' storage.recordingsKept (default)
recordings=$((count - short))
[ "$rows" = "$recordings" ] || { lost=$((lost + (recordings > rows ? recordings - rows : 0))); echo "soak: history rows $rows, recordings made $recordings" >&2; }
[ "$journals" = 0 ] || { lost=$((lost + journals)); echo "soak: $journals capture journals left" >&2; }
want_wavs=$((rows < kept ? rows : kept))
# Pruning never deletes the failed recording that the tray's Retry offers (the newest FAILED row's),
# even when it is older than the newest `kept`: then there is one more.
retry_wav=$(sqlite3 "$db" "SELECT wav_path FROM dictation WHERE status='FAILED' ORDER BY id DESC LIMIT 1")
if [ -n "$retry_wav" ] && [ -f "$retry_wav" ] && ! find "$XDG_DATA_HOME/dictum/recordings" -name 'dictation-*.wav' \
    | sort | tail -n "$kept" | grep -qxF "$retry_wav"; then
  want_wavs=$((want_wavs + 1))
fi
fail=()
[ "$lost" = 0 ] || fail+=("lost $lost")
[ "$wrong" = 0 ] || fail+=("$wrong wrong")
[ "$wavs" = "$want_wavs" ] || fail+=("WAVs $wavs, not $want_wavs")
[ "$rows" = "$recordings" ] || fail+=("history rows $rows, not $recordings")

# ---- growth after the first 50 (10 for short runs): slope of RSS over the samples, threads and fds
base=50; [ "$count" -ge 150 ] || base=10
read -r rss0 rss_base rss1 slope t_base t1 f_base f1 h_base h1 < <(awk -F, -v b="$base" 'NR == 2 {r0 = $2}
  NR > 1 && $1 >= b { if (!seen) {rb = $2; tb = $4; fb = $5; hb = $3; seen = 1}
    k++; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
  NR > 1 {r1 = $2; t1 = $4; f1 = $5; h1 = $3}
  END { s = (k > 1 && k * sxx - sx * sx > 0) ? (k * sxy - sx * sy) / (k * sxx - sx * sx) * 1000 : 0
        printf "%d %d %d %.1f %d %d %d %d %d %d\n", r0, rb, r1, s, tb, t1, fb, f1, hb, h1 }' "$csv")
if [ $((count - base)) -ge 500 ]; then
  awk -v s="$slope" -v m="$max_growth" 'BEGIN {exit !(s <= m)}' || fail+=("RSS grows $slope MB per 1,000 dictations (bound $max_growth)")
else # too few dictations for a slope to mean anything against a JVM's few MB of noise: a plain bound
  [ $((rss1 - rss_base)) -le "$short_slack" ] || fail+=("RSS grew $((rss1 - rss_base)) MB after the first $base (bound $short_slack MB for runs under 500 dictations)")
fi
# The Java heap after a full collection is the leak detector that noise does not blur (38 MB at every
# sample of the 100-dictation run): it may not grow by more than --max-heap-growth MB.
[ $((h1 - h_base)) -le "$max_heap_growth" ] || fail+=("heap after GC grew $h_base→$h1 MB")
[ "$t1" -le "$t_base" ] || fail+=("threads $t_base→$t1: $(diff "$harness_work/threads-$base.txt" "$harness_work/threads-$i_last.txt" | grep '^[<>]' | sort | uniq -c | tr -s ' \n' ' ')")
[ "$f1" -le "$f_base" ] || fail+=("fds $f_base→$f1")

line="soak: $count dictations, $exact exact, $cancelled cancelled as asked, $silent silent holds with nothing typed, RSS $rss0→$rss1 MB (growth $((rss1 - rss_base)) after the first $base), threads $t_base→$t1, fds $f_base→$f1, history rows $rows, WAVs $wavs, lost $lost"

# ---- the plot: RSS, heap, threads and fds against dictations
gnuplot <<GP
set terminal pngcairo size 1000,960 font "DejaVu Sans,10"
set output "$plot"
set datafile separator ","
set key autotitle columnhead
set multiplot layout 4,2 title "Dictum soak: $count dictations, $(basename "$model"), $(date -u +%F) ${commit}"
set xlabel "dictations"
set ylabel "MB"; plot "$csv" using 1:2 with linespoints title "RSS"
set ylabel "MB"; set yrange [0:*]; plot "$csv" using 1:3 with linespoints title "heap used after GC"
set ylabel "threads"; plot "$csv" using 1:4 with linespoints title "threads"
set ylabel "open fds"; plot "$csv" using 1:5 with linespoints title "file descriptors"
set ylabel "MB"; plot "$csv" using 1:10 with linespoints title "malloc arenas", "$csv" using 1:11 with linespoints title "of which free", "$csv" using 1:7 with linespoints title "heap committed"
set ylabel "MB"; plot "$csv" using 1:8 with linespoints title "code cache (high water)", "$csv" using 1:9 with linespoints title "metaspace committed"
set ylabel "MB"; plot "$csv" using 1:12 with linespoints title "Java heap resident", "$csv" using 1:(\$2-\$12) with linespoints title "RSS outside the Java heap"
set ylabel "MB"; plot "$csv" using 1:13 with linespoints title "RSS anonymous", "$csv" using 1:14 with linespoints title "RSS file-backed"
unset multiplot
GP

{
  echo "$line"
  echo "details: slope of RSS after the first $base: $slope MB per 1,000 dictations (bound $max_growth);" \
    "$short too short as asked, $mic_lost microphone losses with nothing typed, $pasted_last paste-last checks," \
    "$wrong wrong; heap after GC $h_base→$h1 MB; ${elapsed} s for $count dictations; ready after $ready_ms ms"
  echo "where RSS lives, at dictation $base → the end (MB): $(awk -F, -v b="$base" 'NR > 1 && $1 >= b && !seen {split($0, a, ","); seen = 1}
    NR > 1 {split($0, z, ",")} END {printf "RSS %d→%d, heap committed %d→%d, code cache %d→%d, metaspace %d→%d, malloc arenas %d→%d (free %d→%d)",
      a[2], z[2], a[7], z[7], a[8], z[8], a[9], z[9], a[10], z[10], a[11], z[11]}' "$csv")"
  # The least-squares slope is additive: RSS's = the Java heap's resident pages' + the rest's. Where the
  # heap's resizing moves RSS, the rest says what grows outside it (native memory, code, files).
  echo "slopes after the first $base (MB per 1,000 dictations): $(awk -F, -v b="$base" 'NR > 1 && $1 >= b {
      k++; x[k] = $1; r[k] = $2; h[k] = $12 }
    function slope(y,   i, sx, sy, sxx, sxy) { for (i = 1; i <= k; i++) { sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i] }
      return (k > 1 && k * sxx - sx * sx > 0) ? (k * sxy - sx * sy) / (k * sxx - sx * sx) * 1000 : 0 }
    END { for (i = 1; i <= k; i++) o[i] = r[i] - h[i]
      printf "RSS %.1f = Java heap resident %.1f + outside the heap %.1f", slope(r), slope(h), slope(o) }' "$csv")"
  echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%d MB", $2/1024}' /proc/meminfo), load at the end $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%F %H:%M UTC'); commit ${commit} at the start"
  echo "model $model${model2:+ (switching with $model2)}; clips $clips (${#clip_wav[@]})"
  echo "samples ($csv):"
  cat "$csv"
  [ ${#fail[@]} = 0 ] || echo "FAILED: ${fail[*]}"
} >"$report"
echo "soak: report $report, samples $csv, plot $plot"
echo "$line"
if [ ${#fail[@]} -gt 0 ]; then
  echo "soak: FAILED: ${fail[*]}" >&2
  exit 1
fi
