#!/usr/bin/env bash
# One benchmark, all engines, one run (issue 12): Dictum's CUDA backend, Hugging Face transformers
# (fp16, sdpa) and whisper.cpp (CUDA, flash attention, built from source on the GPU machine), on
# the same random weights of real Whisper dimensions (seed 0).
#
# Here (needs gpu-bundle/ from scripts/gpu-bundle.sh and a whisper.cpp source tree or git dir):
#   scripts/bench-gpu.sh pack [DEST]      DEST (default gpu-bench/, ~28 MB; or gpu-bundle itself) holds what the GPU
#                                         machine needs: Java runtime, Dictum's jars, this script,
#                                         bench_gpu_models.py, hf_to_ggml.py + mel filters, the
#                                         toy-multi tokenizer, whisper.cpp's source (xz)
#     WHISPER_CPP=DIR      whisper.cpp checkout (git dir or source tree); the trimmed source is packed
#     BASELINE_NATIVE=JAR  also time Dictum with this dictum-native jar (the kernels before a change)
# On the GPU machine (one device call; ~9 min for the four sizes, 5 of them building whisper.cpp):
#   bash DEST/bench-gpu.sh run            tables on stdout, JSON lines and logs in $BENCH_OUT (or DEST/out)
#     BENCH_SIZES="tiny small large-v3-turbo large-v3"   SKIP_WHISPERCPP=1   DICTUM_RUNS=10
#     Q8_SIZES="large-v3-turbo"  sizes (of BENCH_SIZES) run a second time from the same weights as a q8_0
#                          ggml file (hf_to_ggml.py --ftype q8_0), Dictum and whisper.cpp, size "S-q8_0"
#     SKIP_TRANSFORMERS=1  DICTUM_EAGER_TOO=1 (Dictum also with DICTUM_CUDA_GRAPHS=0: "dictum-eager", the
#                          decoder step launched op by op instead of replayed as one CUDA graph)
#     LIMITED="large-v3-turbo=1500 large-v3=2048"  those sizes run again as "dictum-limited" with
#                          DICTUM_GPU_MEMORY_MIB set to the MiB given (issue 22: the encoder's blocks then take
#                          turns in two device slots, copied in from host memory)
#     SKIP_DICTUM=1        no Dictum figures (e.g. a second call for the compiled transformers alone)
#     SKIP_RELEASE=1       no release-to-text (Dictum's real session on 5 s of the toy-en samples:
#                          RELEASE_RUNS=6 dictations per ending, fed at 4x real time, 16 tokens at most)
#     BEAM_TOKENS=64       tokens of the beam-5 transcription every engine runs on BEAM_WAV (default: the
#                          first toy-en sample): Dictum's bench, transformers generate(num_beams=5),
#                          whisper.cpp's whisper_full (whisper-beam-bench/main.cpp); ms per sampled token
#     SKIP_COMPILED=1      no transformers with a static cache + torch.compile (COMPILED_SIZES, default
#                          the run's sizes in order; each within COMPILED_TIMEOUT=240 s and what is left
#                          of BENCH_DEADLINE=560 s since the start)
set -uo pipefail
mode="${1:-}"

if [ "$mode" = pack ]; then
  set -e
  cd "$(dirname "$0")/.."
  dest="${2:-gpu-bench}"
  [ -d gpu-bundle/lib ] || { echo "bench-gpu: gpu-bundle/ is missing: run scripts/gpu-bundle.sh first" >&2; exit 1; }
  if [ "$dest" != gpu-bundle ]; then # packing into the bundle itself adds only the files below
    rm -rf "$dest"
    mkdir -p "$dest"
    cp -r gpu-bundle/lib gpu-bundle/runtime.tar.xz gpu-bundle/testdata-tokenizer.tar.xz "$dest/"
  fi
  cp scripts/bench-gpu.sh scripts/bench_gpu_models.py scripts/bench_gpu_table.py scripts/hf_to_ggml.py scripts/gpu-kernel-profile.sh "$dest/"
  cp -r scripts/whisper-beam-bench "$dest/"
  # Release-to-text: ReleaseBench (app's test classes) and the toy-en sample WAVs it builds clips from.
  mkdir -p "$dest/lib-test" "$dest/release-samples"
  [ "$dest" = gpu-bundle ] || cp gpu-bundle/lib-test/app-tests.jar "$dest/lib-test/"
  cp gpu-bundle/testdata/data/toy-en-samples/*.wav "$dest/release-samples/"
  cp "${MEL_FILTERS:-${DICTUM_TESTDATA:-testdata}/data/whisper-assets/mel_filters.npz}" "$dest/" 2>/dev/null \
    || cp ../shared/data/whisper-assets/mel_filters.npz "$dest/"
  [ -z "${BASELINE_NATIVE:-}" ] || cp "$BASELINE_NATIVE" "$dest/baseline-native.jar"
  if [ -n "${WHISPER_CPP:-}" ]; then
    # Only what building whisper-bench needs (CMake files, ggml with its CPU and CUDA backends,
    # whisper's sources, the examples' CMake tree); configure also wants bindings/javascript/package-tmpl.json.
    tmp="$(mktemp -d)"
    if [ -d "$WHISPER_CPP/objects" ] || [ -d "$WHISPER_CPP/.git" ]; then
      git -C "$WHISPER_CPP" archive HEAD CMakeLists.txt cmake ggml src include examples \
        bindings/javascript/package-tmpl.json | tar -x -C "$tmp"
      git -C "$WHISPER_CPP" rev-parse --short HEAD >"$tmp/COMMIT"
    else
      cp -r "$WHISPER_CPP"/. "$tmp/"
    fi
    (cd "$tmp" && rm -rf ggml/src/ggml-{vulkan,sycl,metal,opencl,cann,musa,hip,webgpu,zdnn,zendnn,openvino,hexagon,et,virtgpu,blas} \
      examples/*.wasm examples/whisper.* examples/talk-llama examples/addon.node examples/sycl examples/lsp \
      examples/stream examples/command examples/python examples/miniaudio.h)
    tar -C "$tmp" -cJf "$dest/whisper.cpp.tar.xz" .
    rm -rf "$tmp"
  fi
  du -sh "$dest"
  exit 0
fi

[ "$mode" = run ] || { echo "usage: scripts/bench-gpu.sh pack [DEST] | run" >&2; exit 2; }
cd "$(dirname "$0")"
B="$PWD"
OUTD="${BENCH_OUT:-$B/out}"
mkdir -p "$OUTD"
SIZES=(${BENCH_SIZES:-tiny small large-v3-turbo large-v3})
Q8=(${Q8_SIZES:-})
for s in "${Q8[@]}"; do
  [[ " ${SIZES[*]} " == *" $s "* ]] || { echo "bench-gpu: Q8_SIZES must be among BENCH_SIZES: $s" >&2; exit 2; }
done
RUNS="${DICTUM_RUNS:-10}"
WORK=/tmp/dictum-bench
mkdir -p "$WORK"
RES="$OUTD/results.jsonl"
: >"$RES"
log() { echo "[$(date -u +%T)] $*" >&2; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | sed 's/^/gpu: /'
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# 1. whisper.cpp, built in the background while the other engines run (not in a carried folder).
WBUILD=/tmp/whisper.cpp-build
if [ -z "${SKIP_WHISPERCPP:-}" ] && [ -f "$B/whisper.cpp.tar.xz" ]; then
  if [ ! -x "$WBUILD/bin/whisper-bench" ] || [ ! -x "$WBUILD/bin/dictum-beam-bench" ]; then
    mkdir -p /tmp/whisper.cpp-src && tar -C /tmp/whisper.cpp-src -xJf "$B/whisper.cpp.tar.xz"
    # The beam-5 transcription (issue 22 item 4) as one more example of the tree, linked to libwhisper.
    if [ ! -d /tmp/whisper.cpp-src/examples/dictum-beam-bench ]; then
      cp -r "$B/whisper-beam-bench" /tmp/whisper.cpp-src/examples/dictum-beam-bench
      echo 'add_subdirectory(dictum-beam-bench)' >>/tmp/whisper.cpp-src/examples/CMakeLists.txt
    fi
    ( cmake -S /tmp/whisper.cpp-src -B "$WBUILD" -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES=90 -DWHISPER_BUILD_TESTS=OFF -DWHISPER_SDL2=OFF -DBUILD_SHARED_LIBS=OFF \
        && nice cmake --build "$WBUILD" --target whisper-bench dictum-beam-bench -j "$(( $(nproc) - 4 ))" ) \
        >"$OUTD/whisper.cpp-build.log" 2>&1 &
    WPID=$!
  fi
  log "whisper.cpp $(cat /tmp/whisper.cpp-src/COMMIT 2>/dev/null) building in the background"
fi

# 2. Random weights, one safetensors set per size; the ggml f16 conversion for whisper.cpp.
[ -x "$B/runtime/bin/java" ] || tar -C "$B" -xJf "$B/runtime.tar.xz"
mkdir -p "$WORK/tok" && tar -C "$WORK/tok" -xJf "$B/testdata-tokenizer.tar.xz"
for s in "${SIZES[@]}"; do
  if [ ! -f "$WORK/$s/model.safetensors" ]; then
    log "weights $s"
    python3 "$B/bench_gpu_models.py" make "$s" "$WORK/$s" "$WORK/tok/models/toy-multi" >>"$OUTD/make.log" 2>&1 \
      || { echo "bench-gpu: could not make the $s weights (see make.log)"; tail -5 "$OUTD/make.log"; }
  fi
  if [ -z "${SKIP_WHISPERCPP:-}" ] && [ ! -f "$WORK/$s/ggml-f16.bin" ]; then
    python3 "$B/hf_to_ggml.py" --model-dir "$WORK/$s" --mel-filters "$B/mel_filters.npz" \
      --out "$WORK/$s/ggml-f16.bin" --ftype f16 >>"$OUTD/make.log" 2>&1 || echo "bench-gpu: ggml conversion of $s failed"
  fi
done
for s in "${Q8[@]}"; do # the same weights as q8_0 blocks, for Dictum and whisper.cpp alike
  [ -f "$WORK/$s/ggml-q8_0.bin" ] || python3 "$B/hf_to_ggml.py" --model-dir "$WORK/$s" --mel-filters "$B/mel_filters.npz" \
    --out "$WORK/$s/ggml-q8_0.bin" --ftype q8_0 >>"$OUTD/make.log" 2>&1 || echo "bench-gpu: q8_0 conversion of $s failed"
done

# The audio and length of the beam-5 transcription every engine runs (issue 22 item 4).
SAMPLES="$B/release-samples"
[ -d "$SAMPLES" ] || SAMPLES="$B/testdata/data/toy-en-samples"
export BEAM_WAV="${BEAM_WAV:-$SAMPLES/sample_01.wav}" BEAM_TOKENS="${BEAM_TOKENS:-64}"

# Peak GPU memory of a process: nvidia-smi sampled every 50 ms, minus what was in use before.
peak_start() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 50 >"$WORK/mem.txt" 2>/dev/null & MPID=$!; sleep 0.3; }
peak_stop() { kill "$MPID" 2>/dev/null; wait "$MPID" 2>/dev/null; sort -n "$WORK/mem.txt" | tail -1; }
BASE_MIB="$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1)"

# 3. Dictum (the bundle's jars; and the baseline kernels when packed).
JAVA="$B/runtime/bin/java"
FLAGS=(--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss4m -Xmx32g -XX:+UseParallelGC)
dictum_bench() { # label classpath size [model, default the size's safetensors folder]
  local label="$1" cp="$2" s="$3" model="${4:-$WORK/$3}" peak j
  peak_start
  j="$("$JAVA" "${FLAGS[@]}" -cp "$cp" dev.dictum.app.cli.DictumCli bench --backend cuda --model "$model" \
    --runs "$RUNS" --tokens "$BEAM_TOKENS" --warmup 3 --audio "$BEAM_WAV" --json 2>>"$OUTD/dictum.log" | tail -1)"
  peak="$(peak_stop)"
  if [ -n "$j" ]; then
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(json.dumps({"engine":sys.argv[2],"size":sys.argv[3],
      "encoder_ms":d["encoder_ms"]["median"],"encoder_min_ms":d["encoder_ms"]["min"],
      "decode_ms_per_token":d["decode_ms_per_token"]["median"],
      "beam5_ms_per_step":d.get("beam_ms_per_step",{}).get("median"),
      "beam5_transcribe_ms_per_token":d.get("beam_transcribe_ms_per_token",{}).get("median"),
      "peak_gpu_mib":float(sys.argv[4])-float(sys.argv[5]),"memory_mib":d.get("memory_mib")}))' \
      "$j" "$label" "$s" "$peak" "$BASE_MIB" >>"$RES"
  else
    echo "bench-gpu: dictum ($label) failed on $s (see dictum.log)"
  fi
}
CP_NEW="$(ls "$B"/lib/*.jar | tr '\n' ':')"
CP_OLD=""
[ -f "$B/baseline-native.jar" ] && CP_OLD="$(ls "$B"/lib/*.jar | grep -v '/dictum-native-' | tr '\n' ':')$B/baseline-native.jar"
# Release-to-text through the real session (issue 12/13): 5 s of the toy-en samples (pauses of 0.8 s
# between sentences, so the session's pause hints and speculation run), ended by 0.6 s of quiet or by
# speech up to the release; end of the last fed chunk -> final text, median of the runs after the first.
# The random weights' text is garbage (fine for timing): decoding is capped at 16 tokens per window,
# the fallback off, so every run decodes what a 5 s utterance does (~15 text tokens + end of text).
dictum_release() { # size: both endings in one JVM (one model load)
  local s="$1" line
  "$JAVA" "${FLAGS[@]}" -cp "$CP_NEW$B/lib-test/app-tests.jar" dev.dictum.app.dictation.ReleaseBench \
    --backend cuda --model "$WORK/$s" --samples "$SAMPLES" --length 5 --ending both \
    --runs "${RELEASE_RUNS:-6}" --speed 4 --peer-runs 0 --max-tokens 16 2>>"$OUTD/release.log" | grep '^RESULT' \
    >"$WORK/release-$s.txt"
  [ -s "$WORK/release-$s.txt" ] || echo "bench-gpu: release-to-text failed on $s (see release.log)"
  while read -r line; do
    echo "$s $line" >>"$OUTD/release.txt"
    python3 -c 'import json,re,sys; f=dict(re.findall(r"(\w+)=(\S+)", sys.argv[1].split(" text=")[0])); e=f["ending"]
print(json.dumps({"engine":"dictum","size":sys.argv[2],"release_"+e+"_ms":float(f["total_median_ms"]),
  "release_"+e+"_p95_ms":float(f["total_p95_ms"]),"release_"+e+"_speculative":f["speculative"],
  "release_"+e+"_encode_ms":float(f["encode_median_ms"]),"release_"+e+"_decode_ms":float(f["decode_median_ms"]),
  "release_"+e+"_audio_s":float(f["audio_s"])}))' "$line" "$s" >>"$RES"
  done <"$WORK/release-$s.txt"
}
for s in "${SIZES[@]}"; do
  [ -z "${SKIP_DICTUM:-}" ] || break
  log "dictum $s"
  dictum_bench dictum "$CP_NEW" "$s"
  [ -z "${DICTUM_EAGER_TOO:-}" ] || DICTUM_CUDA_GRAPHS=0 dictum_bench dictum-eager "$CP_NEW" "$s"
  [ -z "$CP_OLD" ] || dictum_bench dictum-baseline "$CP_OLD" "$s"
  for lim in ${LIMITED:-}; do
    [ "${lim%%=*}" = "$s" ] && DICTUM_GPU_MEMORY_MIB="${lim#*=}" dictum_bench dictum-limited "$CP_NEW" "$s"
  done
  if [ -z "${SKIP_RELEASE:-}" ]; then
    log "dictum $s release-to-text"
    dictum_release "$s"
  fi
done
for s in "${Q8[@]}"; do
  [ -z "${SKIP_DICTUM:-}" ] || break
  log "dictum $s q8_0"
  dictum_bench dictum "$CP_NEW" "$s-q8_0" "$WORK/$s/ggml-q8_0.bin"
done

# 4. transformers fp16 sdpa, and the two ceilings (device-to-device copy, a large f16 GEMM).
for s in "${SIZES[@]}"; do
  [ -z "${SKIP_TRANSFORMERS:-}" ] || break
  log "transformers $s"
  # Its peak measured as Dictum's and whisper.cpp's are (the device's figure, context included); the
  # allocator's own max_memory_allocated, which leaves out the CUDA context, cuBLAS's workspace and the
  # caching allocator's slack, is kept beside it as allocator_peak_mib.
  peak_start
  j="$(python3 "$B/bench_gpu_models.py" bench "$s" "$WORK/$s" 2>>"$OUTD/transformers.log" | tail -1)"
  peak="$(peak_stop)"
  [ -z "$j" ] || python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["allocator_peak_mib"]=d.get("peak_gpu_mib")
d["peak_gpu_mib"]=float(sys.argv[2])-float(sys.argv[3]); print(json.dumps(d))' "$j" "$peak" "$BASE_MIB" >>"$RES"
done
python3 - >>"$RES" 2>>"$OUTD/transformers.log" <<'PY'
import json, torch, statistics
def t(fn, n=20):
    for _ in range(3): fn()
    torch.cuda.synchronize(); v = []
    for _ in range(n):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize(); v.append(a.elapsed_time(b))
    return statistics.median(v)
x = torch.randn(2**29, device="cuda", dtype=torch.float16); y = torch.empty_like(x)
copy = 2 * x.numel() * 2 / t(lambda: y.copy_(x)) / 1e9
a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16); bm = torch.randn_like(a)
mm = 2 * 8192**3 / t(lambda: a @ bm) / 1e9
print(json.dumps({"engine": "ceilings", "copy_tb_s": copy, "f16_gemm_tflop_s": mm}))
PY

# 5. whisper.cpp: whisper-bench (1 encode, 256 single-token decodes, 64 five-token batches per run).
if [ -n "${WPID:-}" ]; then
  log "waiting for the whisper.cpp build"
  wait "$WPID" || { echo "bench-gpu: whisper.cpp build failed"; tail -20 "$OUTD/whisper.cpp-build.log"; }
fi
if [ -z "${SKIP_WHISPERCPP:-}" ] && [ -x "$WBUILD/bin/whisper-bench" ]; then
  runs=()
  for s in "${SIZES[@]}"; do runs+=("$s:$WORK/$s/ggml-f16.bin"); done
  for s in "${Q8[@]}"; do runs+=("$s-q8_0:$WORK/$s/ggml-q8_0.bin"); done
  for run in "${runs[@]}"; do
    s="${run%%:*}"; model="${run#*:}"
    log "whisper.cpp $s"
    n=5; case "$s" in tiny|small) n=10 ;; esac
    peak_start
    for i in $(seq "$n"); do
      "$WBUILD/bin/whisper-bench" -m "$model" -t 8 -fa 2>&1 | grep -E "encode time|decode time|batchd time"
    done >"$WORK/wb-$s.txt"
    peak="$(peak_stop)"
    python3 - "$WORK/wb-$s.txt" "$s" "$peak" "$BASE_MIB" >>"$RES" <<'PY'
import json, re, statistics, sys
v = {"encode": [], "decode": [], "batchd": []}
for line in open(sys.argv[1]):
    m = re.search(r"(encode|decode|batchd) time =.*\(\s*([0-9.]+) ms per run\)", line)
    if m: v[m.group(1)].append(float(m.group(2)))
if v["encode"]:
    print(json.dumps({"engine": "whisper.cpp", "size": sys.argv[2], "encoder_ms": statistics.median(v["encode"]),
        "encoder_runs": len(v["encode"]), "decode_ms_per_token": statistics.median(v["decode"]),
        "beam5_ms_per_step": statistics.median(v["batchd"]), "peak_gpu_mib": float(sys.argv[3]) - float(sys.argv[4])}))
PY
    if [ -x "$WBUILD/bin/dictum-beam-bench" ]; then # a real beam-5 transcription of BEAM_WAV
      "$WBUILD/bin/dictum-beam-bench" "$model" "$BEAM_WAV" "$BEAM_TOKENS" 5 8 >"$WORK/wbeam-$s.txt" \
        2>>"$OUTD/whisper.cpp-beam.log" || echo "bench-gpu: whisper.cpp beam transcription failed on $s"
      python3 - "$WORK/wbeam-$s.txt" "$s" >>"$RES" <<'PY'
import json, re, statistics, sys
runs = [dict(re.findall(r"(\w+)=(\S+)", l)) for l in open(sys.argv[1]) if l.startswith("RESULT")]
if runs:
    print(json.dumps({"engine": "whisper.cpp", "size": sys.argv[2],
        "beam5_transcribe_ms_per_token": statistics.median(float(r["ms_per_token"]) for r in runs),
        "beam5_transcribe_text_tokens": int(runs[0]["text_tokens"]), "beam5_transcribe_tokens": int(runs[0]["tokens"])}))
PY
    fi
  done
fi

# 6. transformers with a static cache + torch.compile (issue 12: "if it runs there"), last: its
# compilation takes minutes, so it gets what is left of BENCH_DEADLINE (default 560 s after the
# start, so that the whole run stays within a 10-minute device call) and at most COMPILED_TIMEOUT per
# size; a failure, the time limit or no time left is recorded with its reason instead of figures.
for s in ${COMPILED_SIZES:-${SIZES[*]}}; do
  [ -z "${SKIP_COMPILED:-}" ] || break
  left=$(( ${BENCH_DEADLINE:-560} - SECONDS ))
  limit=$(( left < ${COMPILED_TIMEOUT:-240} ? left : ${COMPILED_TIMEOUT:-240} ))
  if [ "$limit" -lt 60 ]; then
    echo "{\"engine\": \"transformers-compiled\", \"size\": \"$s\", \"error\": \"not run: $left s left of the run's ${BENCH_DEADLINE:-560} s\"}" >>"$RES"
    continue
  fi
  log "transformers (static cache + torch.compile) $s, at most $limit s"
  out="$(timeout "$limit" python3 "$B/bench_gpu_models.py" bench-compiled "$s" "$WORK/$s" \
    2>>"$OUTD/transformers-compiled.log" | tail -1)"
  rc=$?
  if [ -n "$out" ]; then echo "$out" >>"$RES"; else
    why="exit $rc"; [ "$rc" = 124 ] && why="over its $limit s limit"
    echo "{\"engine\": \"transformers-compiled\", \"size\": \"$s\", \"error\": \"$why (transformers-compiled.log)\"}" >>"$RES"
    echo "bench-gpu: transformers static cache + torch.compile on $s: $why"; tail -3 "$OUTD/transformers-compiled.log"
  fi
done

# 7. The table: each figure, the faster peer, Dictum / faster peer, and the floor.
python3 "$B/bench_gpu_table.py" "$RES" "${SIZES[@]}" $(for s in "${Q8[@]}"; do echo "$s-q8_0"; done)
