#!/usr/bin/env bash
# Registers and spills of attention_f32's head-size-64 paths alone (issue 12): ptxas -v reports one
# figure per kernel, and the whole kernel's includes the head-size 65..128 path's spills (no
# Whisper runs it). This compiles the kernel as it is and a copy of its entry without that path.
#   native/bench/attention_regs.sh [sm_90]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/../src/kernels"
arch="${1:-sm_90}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The entry, renamed, with its `if (hd > 64) { ... return; }` block removed.
python3 - "$src/attention.cu" "$tmp/probe.cu" <<'PY'
import sys
s = open(sys.argv[1]).read()
a = s.index('extern "C" __global__ void __launch_bounds__(DG_AT, DG_AMMA_MIN_BLOCKS) attention_f32')
e = s.index('#else // the portable')
entry = s[a:e].replace('attention_f32(', 'attention_f32_hd64(')
i = entry.index('    if (hd > 64) {')
j = entry.index('        return;\n    }\n', i) + len('        return;\n    }\n')
open(sys.argv[2], 'w').write('#include "attention.cu"\n' + entry[:i] + entry[j:])
PY
nvcc -O3 -arch="$arch" -cubin -Xptxas -v -I"$src" -o "$tmp/probe.cubin" "$tmp/probe.cu" 2>&1 \
  | grep -E "Compiling entry|spill|registers"
