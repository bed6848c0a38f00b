#!/usr/bin/env bash
# Dictum's CPU engine against whisper.cpp, side by side in one run, on this machine's CPU.
#
#   scripts/bench-vs-whispercpp.sh [options] MODEL.bin WAV [RUNS]
#   scripts/bench-vs-whispercpp.sh --whispercpp-only MODEL.bin WAV [RUNS]
#   scripts/bench-vs-whispercpp.sh --make-random-ggml OUT.bin [SIZE [TYPE [SEED]]]
#
#   MODEL.bin  a whisper.cpp ggml file (both engines load the same file)
#   WAV        16 kHz WAV (any channels, PCM or float): whisper.cpp's input; its transcript is
#              printed so both engines can be checked to hear the same thing
#   RUNS       timed runs per engine per round (default 5), after a warm-up
#
# options:
#   --whispercpp-only  only the whisper.cpp half (no Dictum build, no ./dictum bench)
#   --rounds N         rounds (default 2); each round runs both engines, the order alternating
#                      (odd rounds Dictum first, even rounds whisper.cpp first); the table gives
#                      the median of the per-round medians and the smallest min
#   --threads N        threads for both engines (default 2): whisper.cpp n_threads, and Dictum's
#                      JVM sees N processors (-XX:ActiveProcessorCount=N in DICTUM_JAVA_OPTS)
#   --tokens N         whisper.cpp decodes exactly N tokens per run (EOT ignored): use it to match
#                      the token count Dictum's bench decodes (per-token cost grows with position)
#   --omp-passive      run whisper.cpp with OMP_WAIT_POLICY=PASSIVE. whisper.cpp 1.7.1's ggml uses
#                      OpenMP; by default its 2 threads spin-wait at every graph barrier, which is
#                      fastest on an idle machine but on a loaded one (other builds running) turns
#                      into scheduler stalls that inflate encoder time 2x and per-token time 5-50x.
#                      On a shared machine, compare with and without; an idle machine is better.
#   --peer-lib SO      also bench this libwhisper.so (a newer whisper.cpp built from source, e.g.
#                      bench-out/whisper.cpp-src/build-native/bin/libwhisper.so; repeatable): one more
#                      column, and the ratio is taken against the FASTER peer. Build recipe:
#                      docs/benchmarks.md, "The newest whisper.cpp" (never committed, never needed by CI)
#   --avx2             Dictum with AVX2 only (-XX:UseAVX=2: 256-bit vectors); pair with a peer built
#                      with GGML_AVX512=OFF (whisper-jni 1.7.1's natives are AVX2 builds already)
#   --no-build         use what is already built (app/target, the bench classes)
#   --out DIR          keep the raw JSON and logs there (default: a new bench-out/<date> folder)
#
# --make-random-ggml writes a random-weight ggml of a real Whisper size through whisper-model's
# test utility GgmlWriter (SIZE: tiny (default), tiny_en, base, small, medium, large_v3,
# large_v3_turbo; TYPE: F16 (default), F32, Q8_0, Q5_0, Q5_1, Q4_0; SEED: 1). With random weights
# whisper.cpp's greedy loop never meets EOT and decodes to its cap (220 tokens): the text is
# garbage, the per-token time is still that of a real model of this size (the count is printed).
#
# Numbers: see the comments in app/src/test/java/dev/dictum/app/bench/WhisperCppBench.java for how
# whisper.cpp is measured (its C API via FFM on whisper-jni 1.7.1's bundled natives). The machine
# must be otherwise idle for numbers worth keeping; the header records the load average.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
source scripts/java-env.sh

usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2
  exit 2
}
die() {
  echo "bench-vs-whispercpp: $*" >&2
  exit 1
}

whispercpp_only=0
rounds=2
threads=2
tokens=""
build=1
out=""
make_random=0
wc_env=()
peer_libs=()
avx2=0
args=()
orig_cmd="$0 $*"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --whispercpp-only) whispercpp_only=1 ;;
    --rounds) rounds=${2:?--rounds needs a value}; shift ;;
    --threads) threads=${2:?--threads needs a value}; shift ;;
    --tokens) tokens=${2:?--tokens needs a value}; shift ;;
    --no-build) build=0 ;;
    --omp-passive) wc_env+=(OMP_WAIT_POLICY=PASSIVE) ;;
    --peer-lib) peer_libs+=("$(realpath "${2:?--peer-lib needs a libwhisper.so}")"); shift ;;
    --avx2) avx2=1 ;;
    --out) out=${2:?--out needs a value}; shift ;;
    --make-random-ggml) make_random=1 ;;
    -h|--help) usage ;;
    --*) echo "bench-vs-whispercpp: unknown option $1" >&2; usage ;;
    *) args+=("$1") ;;
  esac
  shift
done

bench_dir="$here/app/target/bench-whispercpp"
bench_src="$here/app/src/test/java/dev/dictum/app/bench"
mkdir -p "$bench_dir"

mvn_log="$bench_dir/mvn.log"
# Maven, quiet; its output goes to app/target/bench-whispercpp/mvn.log (shown by the callers that need it).
mvn_q() { mvn -q -B -Dstyle.color=never "$@" >>"$mvn_log" 2>&1; }

# The bench classes only need whisper-jni and the JDK: compile them alone with javac, so the
# whisper.cpp half works even while module app itself does not compile.
build_bench_classes() {
  local cpfile="$bench_dir/test-classpath.txt"
  if [[ $build == 1 || ! -s $cpfile ]]; then
    rm -f "$cpfile"
    : >"$mvn_log"
    mvn_q -pl app dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile" || true
    if [[ ! -s $cpfile ]] || ! grep -q whisper-jni "$cpfile"; then
      # app's test classpath needs Dictum's own modules installed (./setup); whisper-jni alone will do.
      local ver
      ver=$(sed -n 's:.*<whisperjni.version>\(.*\)</whisperjni.version>.*:\1:p' pom.xml | head -1)
      echo "bench-vs-whispercpp: app's test classpath did not resolve (Dictum's modules not installed yet?" \
        "see $mvn_log); using whisper-jni $ver alone" >&2
      mvn_q dependency:copy -Dartifact="io.github.givimad:whisper-jni:$ver" -DoutputDirectory="$bench_dir/lib" || true
      ls "$bench_dir"/lib/whisper-jni-*.jar >/dev/null 2>&1 \
        || { tail -20 "$mvn_log" >&2; die "could not get io.github.givimad:whisper-jni:$ver"; }
      ls "$bench_dir"/lib/whisper-jni-*.jar | tr '\n' ':' | sed 's/:$//' > "$cpfile"
    fi
  fi
  # (Re)compile when asked or when a bench source is newer than the classes.
  if [[ $build == 1 || ! -f $bench_dir/classes/.stamp ]] || [[ -n $(find "$bench_src" -name '*.java' -newer "$bench_dir/classes/.stamp") ]]; then
    rm -rf "$bench_dir/classes"
    "$JAVA_HOME/bin/javac" -nowarn --release 25 -cp "$(cat "$cpfile")" -d "$bench_dir/classes" "$bench_src"/*.java \
      || die "the bench classes in $bench_src do not compile"
    touch "$bench_dir/classes/.stamp"
  fi
  [[ -d $bench_dir/classes ]] || die "no bench classes in $bench_dir/classes (run without --no-build)"
  bench_cp="$bench_dir/classes:$(cat "$cpfile")"
}

if [[ $make_random == 1 ]]; then
  [[ ${#args[@]} -ge 1 && ${#args[@]} -le 4 ]] || usage
  build_bench_classes
  if [[ $build == 1 || ! -f whisper-model/target/test-classes/dev/dictum/whisper/testutil/GgmlWriter.class ]]; then
    mvn_q -pl whisper-model -am -DskipTests test-compile || { tail -30 "$mvn_log" >&2; die "whisper-model does not compile"; }
  fi
  [[ -f whisper-model/target/test-classes/dev/dictum/whisper/testutil/GgmlWriter.class ]] \
    || die "whisper-model's test utility GgmlWriter is not built (mvn -pl whisper-model -am test-compile failed?)"
  wm_cpfile="$bench_dir/whisper-model-test-classpath.txt"
  mvn_q -pl whisper-model dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$wm_cpfile" || true
  # A private copy of the compiled classes, so that a concurrent rebuild of those modules cannot pull
  # classes away while the writer runs.
  snap="$bench_dir/whisper-model-snapshot"
  rm -rf "$snap" && mkdir -p "$snap"
  cp -r whisper-model/target/test-classes "$snap/wm-test" && cp -r whisper-model/target/classes "$snap/wm-main"
  [[ -d gpu-runtime/target/classes ]] && cp -r gpu-runtime/target/classes "$snap/gpu-main"
  wm_cp="$snap/wm-test:$snap/wm-main:$snap/gpu-main"
  [[ -s $wm_cpfile ]] && wm_cp="$wm_cp:$(cat "$wm_cpfile")"
  exec "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx4g \
    -Ddictum.testdata="$here/testdata" -cp "$wm_cp:$bench_cp" dev.dictum.app.bench.RandomGgml "${args[@]}" \
    2> >(grep -v --line-buffered '^WARNING: Using incubator modules' >&2)
fi

[[ ${#args[@]} -ge 2 && ${#args[@]} -le 3 ]] || usage
model=${args[0]}
wav=${args[1]}
runs=${args[2]:-5}
[[ -f $model ]] || die "no model file $model (both engines take a whisper.cpp ggml .bin)"
[[ -f $wav ]] || die "no WAV file $wav"
[[ $runs =~ ^[1-9][0-9]*$ && $rounds =~ ^[1-9][0-9]*$ && $threads =~ ^[1-9][0-9]*$ ]] \
  || die "RUNS, --rounds and --threads must be positive integers"
[[ -z $tokens || $tokens =~ ^[1-9][0-9]*$ ]] || die "--tokens must be a positive integer"
command -v python3 >/dev/null || die "python3 is needed for the summary table"

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
out=${out:-"$here/bench-out/vs-whispercpp-$(date +%Y%m%d-%H%M%S)"}
mkdir -p "$out"

build_bench_classes

if [[ $whispercpp_only == 0 ]]; then
  if [[ $build == 1 ]]; then
    echo "bench-vs-whispercpp: building Dictum (mvn install, no tests) ..." >&2
    mvn -q -B -DskipTests -Dmaven.javadoc.skip=true install >"$out/build.log" 2>&1 \
      || die "the Dictum build failed (see $out/build.log); the whisper.cpp half alone: --whispercpp-only"
  fi
  if ! ./dictum bench --help >"$out/dictum-bench-help.txt" 2>&1; then
    die "'./dictum bench' is not available yet ($(head -c 300 "$out/dictum-bench-help.txt" | tr '\n' ' '))."$'\n'\
"  Dictum's CLI bench command has to exist first; the whisper.cpp half runs alone with --whispercpp-only."
  fi
fi

run_dictum() { # round
  echo "bench-vs-whispercpp: round $1: ./dictum bench ..." >&2
  local vec=""
  [[ $avx2 == 1 ]] && vec="-XX:UseAVX=2"
  DICTUM_JAVA_OPTS="-XX:ActiveProcessorCount=$threads $vec ${DICTUM_JAVA_OPTS:-}" \
    ./dictum bench --model "$model" --audio "$wav" --runs "$runs" ${tokens:+--tokens "$tokens"} --json \
    >"$out/dictum-$1.json" 2>"$out/dictum-$1.log" \
    || die "./dictum bench failed in round $1 (see $out/dictum-$1.log)"
}
run_whispercpp() { # round: whisper-jni 1.7.1, then each --peer-lib (files whispercpp[-P]-ROUND.*)
  local p
  for ((p = 0; p <= ${#peer_libs[@]}; p++)); do
    local extra=() tag=""
    [[ -n $tokens ]] && extra+=(--tokens "$tokens")
    [[ $1 -gt 1 ]] && extra+=(--no-full) # the whisper_full transcript once is enough
    if ((p > 0)); then extra+=(--lib "${peer_libs[p-1]}"); tag="-$p"; fi
    echo "bench-vs-whispercpp: round $1: whisper.cpp${tag:+ peer $p} ..." >&2
    env "${wc_env[@]}" "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$bench_cp" dev.dictum.app.bench.WhisperCppBench \
      --model "$model" --wav "$wav" --runs "$runs" --threads "$threads" "${extra[@]}" \
      >"$out/whispercpp$tag-$1.json" 2>"$out/whispercpp$tag-$1.log" \
      || { cat "$out/whispercpp$tag-$1.log" >&2; die "the whisper.cpp bench${tag:+ (peer $p)} failed in round $1"; }
  done
}

for ((r = 1; r <= rounds; r++)); do
  if [[ $whispercpp_only == 1 ]]; then
    run_whispercpp "$r"
  elif ((r % 2 == 1)); then
    run_dictum "$r"; run_whispercpp "$r"
  else
    run_whispercpp "$r"; run_dictum "$r"
  fi
done

cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//' || true)
[[ -n $cpu ]] || cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
java_version=$("$JAVA_HOME/bin/java" -version 2>&1 | head -1)

vec_width="$(grep -qw avx512f /proc/cpuinfo && echo "AVX-512" || echo "AVX2")"
[[ $avx2 == 1 ]] && vec_width="AVX2 only for Dictum (-XX:UseAVX=2)"
python3 - "$out" "$rounds" "$whispercpp_only" "$threads" "$orig_cmd" "$cpu ($vec_width)" "$(nproc)" \
  "$load_start -> $(cut -d' ' -f1-3 /proc/loadavg)" "$java_version" "$(date -Is)" "$out/summary.md" "${#peer_libs[@]}" <<'PY'
import json, os, statistics, sys
out, rounds, wc_only, threads, cmd, cpu, nproc, load, javav, date, summary, npeers = sys.argv[1:]
npeers = 1 + int(npeers)
rounds, wc_only = int(rounds), wc_only == "1"

def last_json(path):
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f.read().splitlines() if l.strip().startswith("{")]
    if not lines:
        sys.exit(f"bench-vs-whispercpp: no JSON line in {path}")
    return json.loads(lines[-1])

def pick(d, key, path):
    v = d.get(key)
    if not isinstance(v, dict) or "median" not in v:
        sys.exit(f"bench-vs-whispercpp: {path} has no {key}.median (keys: {sorted(d)})")
    return v

def agg(docs, key, files):
    stats = [pick(d, key, f) for d, f in zip(docs, files)]
    med = statistics.median(float(s["median"]) for s in stats)
    mn = min(float(s.get("min", s["median"])) for s in stats)
    return med, mn

peers = []  # (name, docs, {key: (median, min)})
for p in range(npeers):
    tag = "" if p == 0 else f"-{p}"
    files = [f"{out}/whispercpp{tag}-{r}.json" for r in range(1, rounds + 1)]
    docs = [last_json(f) for f in files]
    peers.append((docs[0].get("engine", f"peer {p}"), docs, {k: agg(docs, k, files) for k in ("encoder_ms", "decode_ms_per_token")}))
wdocs = peers[0][1]
# the faster peer, per metric and statistic
w = {k: tuple(min(pp[2][k][i] for pp in peers) for i in (0, 1)) for k in ("encoder_ms", "decode_ms_per_token")}
if not wc_only:
    dfiles = [f"{out}/dictum-{r}.json" for r in range(1, rounds + 1)]
    ddocs = [last_json(f) for f in dfiles]
    d = {k: agg(ddocs, k, dfiles) for k in ("encoder_ms", "decode_ms_per_token")}

def fmt(x):
    return "—" if x is None else f"{x:.2f}"

rows = [("encoder ms per 30 s window", "encoder_ms"), ("decoder ms per token", "decode_ms_per_token")]
lines = []
lines.append("## Dictum vs whisper.cpp (CPU)")
lines.append("")
lines.append(f"- command: `{cmd}`")
lines.append(f"- date: {date}")
lines.append(f"- CPU: {cpu} ({nproc} logical CPUs); load average (1/5/15 min) at start -> end: {load}")
dthreads = "—" if wc_only else next((str(x["threads"]) for x in ddocs if "threads" in x), f"JVM sees {threads} CPUs")
lines.append(f"- threads: whisper.cpp n_threads = {threads} (OpenMP, OMP_WAIT_POLICY={wdocs[0].get('omp_wait_policy')}); Dictum: {dthreads}")
lines.append(f"- runs: {wdocs[0].get('runs')} timed (+{wdocs[0].get('warmup')} warm-up) per engine per round, {rounds} round(s), order alternating")
for i, (name, docs, _) in enumerate(peers):
    lines.append(f"- peer {i}: {name}; {docs[0].get('system_info')}")
lines.append(f"- Java: {javav}")
wt = wdocs[0].get("tokens")
lines.append(f"- tokens decoded per run: whisper.cpp {wt} ({wdocs[0].get('token_mode')})"
             + ("" if wc_only else f"; Dictum {next((x['tokens'] for x in ddocs if 'tokens' in x), 'not reported')}"))
try:
    if float(load.split()[0]) > 0.5 * int(nproc):
        lines.append(f"- WARNING: the machine was busy (load {load.split()[0]} on {nproc} CPUs): times are inflated and noisy; "
                     "mins are the more trustworthy; see --omp-passive")
except ValueError:
    pass
lines.append("")
def short_name(n):
    return n.split(" (")[0]
head = " | ".join(f"peer {i}: {short_name(n)}" for i, (n, _, _) in enumerate(peers))
lines.append(f"| metric | Dictum | {head} | ratio Dictum/faster peer |")
lines.append("|---|---|" + "---|" * len(peers) + "---|")
for label, key in rows:
    for i, stat in ((0, "median"), (1, "min")):
        wv = w[key][i]
        dv = None if wc_only else d[key][i]
        ratio = None if dv is None or not wv else dv / wv
        cells = " | ".join(fmt(pp[2][key][i]) for pp in peers)
        lines.append(f"| {label} ({stat}) | {fmt(dv)} | {cells} | {fmt(ratio)} |")
lines.append("")
def short(t, n=300):
    return t if t is None or len(t) <= n else t[:n] + f"… ({len(t)} chars)"

text = short(next((x["text"] for x in wdocs if x.get("text")), ""))
lines.append(f"whisper.cpp transcript (whisper_full, greedy): {text}")
g = short(wdocs[0].get("greedy_text"))
if g is not None and g != text:
    lines.append(f"whisper.cpp greedy loop of the timed runs: {g}")
if not wc_only:
    dt = next((x.get("text") for x in ddocs if x.get("text")), None)
    if dt:
        lines.append(f"Dictum transcript: {short(dt)}")
    dtok = next((x["tokens"] for x in ddocs if "tokens" in x), None)
    if isinstance(dtok, (int, float)) and isinstance(wt, (int, float)) and wt and abs(dtok - wt) > 0.25 * wt:
        lines.append(f"WARNING: token counts differ (Dictum {dtok}, whisper.cpp {wt}); per-token cost grows with "
                     f"position: rerun with --tokens {int(dtok)} to compare at the same length.")
lines.append(f"raw JSON and logs: {out}")
s = "\n".join(lines)
print(s)
with open(summary, "w", encoding="utf-8") as f:
    f.write(s + "\n")
PY
