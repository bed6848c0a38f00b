#!/usr/bin/env python3
"""Counts the instructions of a kernel's loops in its gfx1010 ISA, the figures the paper model
(scripts/gfx1010_paper_model.py) takes its VALU shares from. No GPU needed; hipcc (Debian, clang 15):

  python3 scripts/gfx1010_isa_count.py native/src/kernels/attention.cu [-D MACRO] [--asm out.s]

It compiles the module for gfx1010 as native/build-kernels.sh does (wave32, -O3, code object v4) with
-S, splits each function into basic blocks, places each block in its innermost loop (LLVM's loop
comments). For every loop it prints the instructions of one iteration, its inner loops multiplied by
the trip counts given with --trips (read them off the loop's scalar counter in --asm's output):
v_fma/v_fmac (FMAs), the other VALU instructions, LDS instructions (ds_read*, ds_write*, ds_bpermute),
global loads/stores and SALU. Every block of a loop counts once per iteration (an "if" arm as if
taken: the worst path); --rare names blocks to leave out (a branch that rarely runs), and --blocks
prints one block's counts.
Why: the model's efficiencies were hand counts from hipcc -S; this makes them a command.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FLAGS = ["-S", "--cuda-device-only", "-O3", "-mno-wavefrontsize64", "-mcode-object-version=4"]


def compile_asm(src, defines, include, arch="gfx1010"):
    devlib = next((os.path.dirname(p) for p in
                   [f"/usr/lib/x86_64-linux-gnu/amdgcn/bitcode/oclc_isa_version_1010.bc",
                    "/opt/rocm/amdgcn/bitcode/oclc_isa_version_1010.bc"] if os.path.exists(p)), None)
    env = dict(os.environ, HIP_PLATFORM="amd", HCC_AMDGPU_TARGET=arch)
    if devlib and "DEVICE_LIB_PATH" not in env: # gfx1100: the shimmed copy build-kernels.sh makes
        env["DEVICE_LIB_PATH"] = devlib
    out = tempfile.NamedTemporaryFile(suffix=".s", delete=False).name
    cmd = ["hipcc", *FLAGS, f"--offload-arch={arch}", f"-I{include}", *[f"-D{d}" for d in defines], "-o", out, src]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"gfx1010_isa_count: hipcc failed:\n{r.stderr}")
    return open(out).read()


def classify(op):
    if op.startswith(("v_fma_f32", "v_fmac_f32", "v_mac_f32")):
        return "fma"
    if op.startswith("v_"):
        return "valu"
    if op.startswith("ds_"):
        return "lds"
    if op.startswith(("global_", "buffer_", "flat_")):
        return "vmem"
    if op.startswith("s_"):
        return "salu"
    return "other"


def parse(asm):
    """Functions -> blocks: (label, loop header or None, parent loops, instructions)."""
    funcs = {}
    fn = None
    block = None
    for line in asm.splitlines():
        m = re.match(r"^([A-Za-z_][\w.]*):\s*(;.*)?$", line)
        if m and not line.startswith("."):
            fn = m.group(1)
            funcs[fn] = []
            block = {"label": fn, "loop": None, "header": False, "parents": [], "ins": []}
            funcs[fn].append(block)
            continue
        if fn is None:
            continue
        m = re.match(r"^(\.LBB\d+_\d+|; %bb\.\d+):?(.*)$", line)
        if m:
            label = m.group(1).replace(".LBB", "BB").replace("; %", "")
            block = {"label": label, "loop": None, "header": False, "parents": [], "ins": []}
            funcs[fn].append(block)
            line = m.group(2)
        if "s_endpgm" in line:
            block["ins"].append("s_endpgm")
            fn = None
            continue
        h = re.search(r"in Loop: Header=(BB\d+_\d+)", line)
        if h:
            block["loop"] = h.group(1)
        p = re.search(r"Parent Loop (BB\d+_\d+)", line)
        if p:
            block["parents"].append(p.group(1))
        if "Loop Header" in line:
            block["header"] = True
            block["loop"] = block["label"]
        ins = line.split(";")[0].strip()
        if ins and not ins.startswith("."):
            block["ins"].append(ins.split()[0])
    return funcs


def loops_of(blocks):
    """header -> {parent, blocks}."""
    loops = {}
    for b in blocks:
        if b["header"]:
            loops[b["label"]] = {"parent": b["parents"][-1] if b["parents"] else None, "blocks": []}
    for b in blocks:
        if b["loop"] in loops:
            loops[b["loop"]]["blocks"].append(b)
    return loops


def counts(blocks):
    c = {"fma": 0, "valu": 0, "lds": 0, "vmem": 0, "salu": 0, "other": 0}
    for b in blocks:
        for op in b["ins"]:
            c[classify(op)] += 1
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source")
    ap.add_argument("-D", action="append", default=[], dest="defines")
    ap.add_argument("--asm", help="also write the assembly here")
    ap.add_argument("--arch", default="gfx1010", help="another AMD target (gfx1100 needs DEVICE_LIB_PATH as native/build-kernels.sh sets it)")
    ap.add_argument("--trips", default="", help="header=count,... (e.g. BB0_230=4,BB0_248=8)")
    ap.add_argument("--blocks", action="store_true", help="also print every loop block's own counts")
    ap.add_argument("--rare", default="", help="block labels to leave out, comma-separated (e.g. LBB0_234)")
    args = ap.parse_args()
    asm = compile_asm(args.source, args.defines, os.path.dirname(os.path.abspath(args.source)), args.arch)
    if args.asm:
        open(args.asm, "w").write(asm)
    given = dict(kv.split("=") for kv in args.trips.split(",") if kv)
    rare = set(x for x in args.rare.split(",") if x)
    for fn, blocks in parse(asm).items():
        if fn.startswith(("amdhsa", "_ZN17__HIP_Coordinates")) or not any(b["ins"] for b in blocks):
            continue
        loops = loops_of([b for b in blocks if b["label"] not in rare])
        print(f"## {fn}: {sum(len(b['ins']) for b in blocks)} instructions, {len(loops)} loops")
        print("| loop | parent | trips | FMA | other VALU | LDS | global | SALU | (one iteration, inner loops x trips) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for h in loops:
            c = nest_counts(loops, h, given)
            lp = loops[h]
            print(f"| {h} | {lp['parent'] or '-'} | {given.get(h, '?')} | {c['fma']} | {c['valu']} | {c['lds']} | "
                  f"{c['vmem']} | {c['salu']} | {' '.join(b['label'] for b in lp['blocks'])} |")
            if args.blocks:
                for b in lp["blocks"]:
                    c = counts([b])
                    print(f"|   {b['label']} | | | {c['fma']} | {c['valu']} | {c['lds']} | {c['vmem']} | {c['salu']} | |")


def nest_counts(loops, h, given):
    c = counts(loops[h]["blocks"])
    for child, lp in loops.items():
        if lp["parent"] == h:
            t = int(given.get(child, 1))
            cc = nest_counts(loops, child, given)
            for k in c:
                c[k] += t * cc[k]
    return c


if __name__ == "__main__":
    main()
