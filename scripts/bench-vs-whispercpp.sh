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
# Honest by construction (issue 21): the engines alternate A B B A A B ... over at least 3 rounds;
# each engine keeps its best (smallest min over all rounds) and its spread (the largest round
# median over the smallest, in %); the 1-minute load average is recorded before and after every
# round, and no ratio is printed when any round STARTED above --max-load (0.5; "under load"
# stands beside the figures instead). The load after a round includes this benchmark's own
# threads (about 2 on 2 cores), so only the load before a round says whether others were busy:
# --wait-idle makes every round wait (up to that many seconds) for the load to fall first.
#
# options:
#   --whispercpp-only  only the whisper.cpp half (no Dictum build, no ./dictum bench)
#   --rounds N         rounds (default 3, at least 3 for a ratio); each round runs both engines, the
#                      order alternating (odd rounds Dictum first, even rounds whisper.cpp first)
#   --max-load L       the 1-minute load average above which a round counts as under load (0.5)
#   --wait-idle S      before each round, wait up to S seconds for the load to fall to --max-load
#                      (default 0: do not wait; an idle machine needs about 90 s after a round)
#   --samples DIR      whole transcriptions: every *.wav in DIR, greedy, no fallback, in each round
#                      by each engine (default testdata/data/toy-en-samples; --samples none: skip).
#                      Dictum: ./dictum transcribe in one JVM, the list twice (the first pass warms the
#                      JIT), the second timed; whisper.cpp: mel + encode + prompt + decode to EOT on its
#                      C API, median of RUNS. The figure is the sum over the samples.
#   --threads N        threads for both engines (default 2): whisper.cpp n_threads, and Dictum's
#                      JVM sees N processors (-XX:ActiveProcessorCount=N in DICTUM_JAVA_OPTS)
#   --tokens N         both engines decode exactly N tokens per run (EOT ignored; default 224: the
#                      per-token figure is the mean over cache lengths 0-224; it grows with position)
#   --omp-passive      run whisper.cpp with OMP_WAIT_POLICY=PASSIVE. whisper.cpp 1.7.1's ggml uses
#                      OpenMP; by default its 2 threads spin-wait at every graph barrier, which is
#                      fastest on an idle machine but on a loaded one (other builds running) turns
#                      into scheduler stalls that inflate encoder time 2x and per-token time 5-50x.
#                      On a shared machine, compare with and without; an idle machine is better.
#   --peer-lib SO      also bench this libwhisper.so (a newer whisper.cpp built from source, e.g.
#                      bench-out/whisper.cpp-src/build-native/bin/libwhisper.so; repeatable): one more
#                      column, and the ratio is taken against the FASTER peer. Build recipe:
#                      docs/benchmarks.md, "The newest whisper.cpp" (never committed, never needed by CI)
#   --avx2             Dictum with AVX2 only (-XX:UseAVX=2 -XX:MaxVectorSize=32); pair with a peer built
#                      with GGML_AVX512=OFF (whisper-jni 1.7.1's natives are AVX2 builds already)
#   --no-build         use what is already built (app/target, the bench classes); otherwise
#                      mvn -pl app -am package -DskipTests (never install: ~/.m2 may be shared)
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
rounds=3
threads=2
tokens=224
max_load=0.5
wait_idle=0
samples="testdata/data/toy-en-samples"
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
    --max-load) max_load=${2:?--max-load needs a value}; shift ;;
    --wait-idle) wait_idle=${2:?--wait-idle needs seconds}; shift ;;
    --samples) samples=${2:?--samples needs a folder or none}; shift ;;
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
[[ $tokens =~ ^[1-9][0-9]*$ ]] || die "--tokens must be a positive integer"
[[ $max_load =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--max-load must be a number, not '$max_load'"
[[ $wait_idle =~ ^[0-9]+$ ]] || die "--wait-idle must be whole seconds, not '$wait_idle'"
sample_wavs=()
if [[ $samples != none ]]; then
  [[ -d $samples ]] || die "no samples folder $samples (--samples none skips the whole transcriptions)"
  mapfile -t sample_wavs < <(find "$samples" -maxdepth 1 -name '*.wav' | sort)
  [[ ${#sample_wavs[@]} -gt 0 ]] || die "no *.wav in $samples"
fi
command -v python3 >/dev/null || die "python3 is needed for the summary table"
((rounds >= 3)) || echo "bench-vs-whispercpp: $rounds round(s): fewer than 3, so no ratio will be printed" >&2

out=${out:-"$here/bench-out/vs-whispercpp-$(date +%Y%m%d-%H%M%S)"}
mkdir -p "$out"

build_bench_classes

if [[ $whispercpp_only == 0 ]]; then
  if [[ $build == 1 ]]; then
    echo "bench-vs-whispercpp: building Dictum (mvn -pl app -am package, no tests) ..." >&2
    mvn -q -B -DskipTests -Dmaven.javadoc.skip=true -pl app -am package >"$out/build.log" 2>&1 \
      || die "the Dictum build failed (see $out/build.log); the whisper.cpp half alone: --whispercpp-only"
  fi
  if ! ./dictum bench --help >"$out/dictum-bench-help.txt" 2>&1; then
    die "'./dictum bench' is not available yet ($(head -c 300 "$out/dictum-bench-help.txt" | tr '\n' ' '))."$'\n'\
"  Dictum's CLI bench command has to exist first; the whisper.cpp half runs alone with --whispercpp-only."
  fi
fi

vec=""
[[ $avx2 == 1 ]] && vec="-XX:UseAVX=2 -XX:MaxVectorSize=32"
dictum_opts="-XX:ActiveProcessorCount=$threads $vec ${DICTUM_JAVA_OPTS:-}"

run_dictum() { # round
  echo "bench-vs-whispercpp: round $1: ./dictum bench ..." >&2
  DICTUM_JAVA_OPTS="$dictum_opts" \
    ./dictum bench --model "$model" --audio "$wav" --runs "$runs" --tokens "$tokens" --json \
    >"$out/dictum-$1.json" 2>"$out/dictum-$1.log" \
    || die "./dictum bench failed in round $1 (see $out/dictum-$1.log)"
  if [[ ${#sample_wavs[@]} -gt 0 ]]; then
    echo "bench-vs-whispercpp: round $1: ./dictum transcribe (${#sample_wavs[@]} samples, twice) ..." >&2
    DICTUM_JAVA_OPTS="$dictum_opts" \
      ./dictum transcribe --model "$model" --language en --no-fallback --json "${sample_wavs[@]}" "${sample_wavs[@]}" \
      >"$out/dictum-transcribe-$1.json" 2>"$out/dictum-transcribe-$1.log" \
      || die "./dictum transcribe failed in round $1 (see $out/dictum-transcribe-$1.log)"
  fi
}
run_whispercpp() { # round: whisper-jni 1.7.1, then each --peer-lib (files whispercpp[-P]-ROUND.*)
  local p s
  for ((p = 0; p <= ${#peer_libs[@]}; p++)); do
    local full=() lib=() tag=""
    [[ $1 -gt 1 ]] && full=(--no-full) # the whisper_full transcript once is enough
    if ((p > 0)); then lib=(--lib "${peer_libs[p-1]}"); tag="-$p"; fi
    echo "bench-vs-whispercpp: round $1: whisper.cpp${tag:+ peer $p} ..." >&2
    env "${wc_env[@]}" "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$bench_cp" dev.dictum.app.bench.WhisperCppBench \
      --model "$model" --wav "$wav" --runs "$runs" --threads "$threads" --tokens "$tokens" "${full[@]}" "${lib[@]}" \
      >"$out/whispercpp$tag-$1.json" 2>"$out/whispercpp$tag-$1.log" \
      || { cat "$out/whispercpp$tag-$1.log" >&2; die "the whisper.cpp bench${tag:+ (peer $p)} failed in round $1"; }
    for ((s = 0; s < ${#sample_wavs[@]}; s++)); do
      env "${wc_env[@]}" "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$bench_cp" dev.dictum.app.bench.WhisperCppBench \
        --model "$model" --wav "${sample_wavs[s]}" --runs "$runs" --threads "$threads" --no-full "${lib[@]}" \
        >"$out/whispercpp$tag-transcribe-$1-$s.json" 2>"$out/whispercpp$tag-transcribe-$1-$s.log" \
        || { cat "$out/whispercpp$tag-transcribe-$1-$s.log" >&2; die "whisper.cpp${tag:+ (peer $p)} failed on ${sample_wavs[s]}"; }
    done
  done
}
load1() { cut -d' ' -f1 /proc/loadavg; }
wait_for_idle() {
  local waited=0
  while ((waited < wait_idle)) && python3 -c "import sys; sys.exit(0 if float('$(load1)') > $max_load else 1)"; do
    sleep 5; waited=$((waited + 5))
  done
}

: >"$out/loads.tsv"
for ((r = 1; r <= rounds; r++)); do
  wait_for_idle
  before=$(load1)
  if [[ $whispercpp_only == 1 ]]; then
    run_whispercpp "$r"
  elif ((r % 2 == 1)); then
    run_dictum "$r"; run_whispercpp "$r"
  else
    run_whispercpp "$r"; run_dictum "$r"
  fi
  printf '%s\t%s\t%s\n' "$r" "$before" "$(load1)" >>"$out/loads.tsv"
done

cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//' || true)
[[ -n $cpu ]] || cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
java_version=$("$JAVA_HOME/bin/java" -version 2>&1 | head -1)
vec_width="$(grep -qw avx512f /proc/cpuinfo && echo "AVX-512" || echo "AVX2")"
[[ $avx2 == 1 ]] && vec_width="AVX2 only for Dictum ($vec)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo '+uncommitted')"
python3 "$here/scripts/bench_vs_whispercpp_table.py" "$out" "$rounds" "$whispercpp_only" "$threads" "$orig_cmd" \
  "$cpu ($vec_width)" "$(nproc)" "$java_version" "$(date -Is)" "${#peer_libs[@]}" "${#sample_wavs[@]}" "$max_load" \
  "$commit" "$model"
