#!/usr/bin/env bash
# Where a Dictum encoder pass and decoder steps spend their GPU time, kernel by kernel (issue 12):
# ncu (the GPU machine has it; nsys it has not) records gpu__time_duration of every kernel of one
# `dictum bench --runs 1 --warmup 0` per size on bench-gpu.sh's random weights, and this prints, per
# size, the kernels grouped by name: launches, total and mean µs, and the sum against the encoder's
# wall time that the same run reports (the difference is the gaps between kernels: launch cost).
# Runs on the GPU machine from a folder packed by `scripts/bench-gpu.sh pack DEST` (this script is
# copied in by the pack):
#   PROFILE_SIZES="tiny small" bash DEST/gpu-kernel-profile.sh        output in $PROFILE_OUT (or DEST/prof)
set -uo pipefail
cd "$(dirname "$0")"
B="$PWD"
OUTD="${PROFILE_OUT:-$B/prof}"
mkdir -p "$OUTD"
WORK=/tmp/dictum-bench
mkdir -p "$WORK/tok"
[ -x "$B/runtime/bin/java" ] || tar -C "$B" -xJf "$B/runtime.tar.xz"
[ -d "$WORK/tok/models" ] || tar -C "$WORK/tok" -xJf "$B/testdata-tokenizer.tar.xz"
CP="$(ls "$B"/lib/*.jar | tr '\n' ':')"
for s in ${PROFILE_SIZES:-tiny small}; do
  if [ ! -f "$WORK/$s/model.safetensors" ]; then
    python3 "$B/bench_gpu_models.py" make "$s" "$WORK/$s" "$WORK/tok/models/toy-multi" >>"$OUTD/make.log" 2>&1 \
      || { echo "profile: could not make the $s weights"; continue; }
  fi
  # Warm-up and the timed run are both one encoder pass + 4 decoder steps; the second pass's kernels
  # are the ones that count (the first compiles nothing, but loads modules and fills caches).
  ncu --csv --metrics gpu__time_duration.sum --target-processes all --log-file "$OUTD/ncu-$s.csv" \
    "$B/runtime/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xss4m -Xmx32g \
    -cp "$CP" dev.dictum.app.cli.DictumCli bench --backend cuda --model "$WORK/$s" --runs 2 --tokens 4 \
    --warmup 0 --beams 0 --json >"$OUTD/bench-$s.json" 2>"$OUTD/ncu-$s.log"
  python3 - "$OUTD/ncu-$s.csv" "$s" <<'PY'
import csv, sys, collections
path, size = sys.argv[1], sys.argv[2]
rows = [r for r in csv.reader(open(path)) if len(r) > 10]
head = rows[0]; rows = rows[1:]
ki, vi, ui, gi = (head.index(c) for c in ("Kernel Name", "Metric Value", "Metric Unit", "Grid Size"))
unit = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
seq = [(r[ki].split("(")[0], float(r[vi].replace(",", "")) * unit[r[ui]], r[gi]) for r in rows]
# The second run's encoder pass: from its first conv1d to the first decoder GEMV after it.
conv = [i for i, (k, _, _) in enumerate(seq) if k.startswith("conv1d")]
start = conv[2] if len(conv) >= 4 else (conv[0] if conv else 0)
end = start
while end < len(seq) and not seq[end][0].startswith("gemv"):
    end += 1
def table(label, part):
    tot = collections.OrderedDict()
    for k, v, g in part:
        n, t = tot.get((k, g), (0, 0.0))
        tot[(k, g)] = (n + 1, t + v)
    print(f"== {size} {label}: {len(part)} kernels, {sum(v for _, v, _ in part) / 1000:.3f} ms of kernel time")
    for (k, g), (n, t) in sorted(tot.items(), key=lambda kv: -kv[1][1]):
        print(f"{size:15s} {k:28s} grid {g:14s} {n:5d} launches {t:10.1f} us  mean {t / n:8.2f} us")
table("encoder pass", seq[start:end])
table("decoder (prompt + steps after that pass)", seq[end:])
PY
  tail -1 "$OUTD/bench-$s.json" | sed "s/^/$s bench (under ncu, serialised): /"
done
