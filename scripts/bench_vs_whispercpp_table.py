#!/usr/bin/env python3
"""The table of scripts/bench-vs-whispercpp.sh: reads the raw JSON of every round from its --out
folder and prints (and writes to summary.md) a Markdown section ready for docs/benchmarks.md.

Per engine and metric: best = the smallest min over all rounds; spread = the largest round median
over the smallest round median, minus one (how much the rounds disagreed). The ratio is Dictum's
best over the faster peer's best, and is printed only when there were at least 3 rounds and no
round started above the load limit ("under load" stands in its place otherwise).
"""
import json
import sys

(out, rounds, wc_only, threads, cmd, cpu, nproc, javav, date, npeers, nsamples, max_load,
 commit, model) = sys.argv[1:]
rounds, wc_only, npeers, nsamples = int(rounds), wc_only == "1", 1 + int(npeers), int(nsamples)
max_load = float(max_load)


def die(msg):
    sys.exit(f"bench-vs-whispercpp: {msg}")


def last_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = [l for l in f.read().splitlines() if l.strip().startswith(("{", "["))]
    except OSError as e:
        die(f"cannot read {path}: {e}")
    if not lines:
        die(f"no JSON line in {path}")
    return json.loads(lines[-1])


def whole_json(path):
    """A file that is one (pretty-printed) JSON document: ./dictum transcribe --json."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die(f"cannot read the JSON of {path}: {e}")


def stat(d, key, path):
    v = d.get(key)
    if not isinstance(v, dict) or "median" not in v:
        die(f"{path} has no {key}.median (keys: {sorted(d)})")
    return float(v["median"]), float(v.get("min", v["median"]))


def whispercpp_round(tag, r):
    """{metric: (median, min)} of one peer in one round."""
    path = f"{out}/whispercpp{tag}-{r}.json"
    d = last_json(path)
    m = {k: stat(d, k, path) for k in ("encoder_ms", "decode_ms_per_token")}
    if nsamples:
        parts = [stat(last_json(p), "transcribe_ms", p)
                 for p in (f"{out}/whispercpp{tag}-transcribe-{r}-{s}.json" for s in range(nsamples))]
        m["transcribe_ms"] = (sum(p[0] for p in parts), sum(p[1] for p in parts))
    return d, m


def dictum_round(r):
    path = f"{out}/dictum-{r}.json"
    d = last_json(path)
    m = {k: stat(d, k, path) for k in ("encoder_ms", "decode_ms_per_token")}
    texts = []
    if nsamples:
        tpath = f"{out}/dictum-transcribe-{r}.json"
        files = whole_json(tpath)
        if not isinstance(files, list) or len(files) != 2 * nsamples:
            die(f"{tpath}: expected {2 * nsamples} results (the samples twice)")
        timed = files[nsamples:]  # the first pass warmed the JIT
        total = sum(float(f["timings"]["total_ms"]) for f in timed)
        m["transcribe_ms"] = (total, total)
        texts = [f.get("text", "") for f in timed]
    return d, m, texts


def summarise(per_round):
    """[(median, min)] over rounds -> (best, spread in %)."""
    best = min(x[1] for x in per_round)
    meds = [x[0] for x in per_round]
    return best, (max(meds) / min(meds) - 1) * 100 if min(meds) > 0 else float("nan")


loads = []
with open(f"{out}/loads.tsv", encoding="utf-8") as f:
    for line in f:
        r, before, after = line.split()
        loads.append((int(r), float(before), float(after)))
worst_before = max(b for _, b, _ in loads)
idle = worst_before <= max_load

metrics = [("encoder_ms", "encoder ms per 30 s window")]
peers = []  # (name, docs, {metric: [(median, min)] per round})
for p in range(npeers):
    tag = "" if p == 0 else f"-{p}"
    docs, per = [], {}
    for r in range(1, rounds + 1):
        d, m = whispercpp_round(tag, r)
        docs.append(d)
        for k, v in m.items():
            per.setdefault(k, []).append(v)
    peers.append((docs[0].get("engine", f"peer {p}"), docs, per))
wdocs = peers[0][1]
tokens = wdocs[0].get("tokens")
metrics.append(("decode_ms_per_token", f"decoder ms per token (cache lengths 0-{tokens})"))
if nsamples:
    metrics.append(("transcribe_ms", f"whole transcription of {nsamples} samples, ms"))

ddocs, dper, dtexts = [], {}, []
if not wc_only:
    for r in range(1, rounds + 1):
        d, m, texts = dictum_round(r)
        ddocs.append(d)
        dtexts = texts or dtexts
        for k, v in m.items():
            dper.setdefault(k, []).append(v)


def cell(per):
    best, spread = summarise(per)
    return f"{best:.2f} (±{spread:.0f} %)"


lines = ["## Dictum vs whisper.cpp (CPU)", ""]
lines.append(f"- command: `{cmd}`")
lines.append(f"- commit: {commit}; date: {date}")
lines.append(f"- model: {model}")
lines.append(f"- CPU: {cpu} ({nproc} logical CPUs); Java: {javav}")
dthreads = "—" if wc_only else next((str(x["threads"]) for x in ddocs if "threads" in x), f"JVM sees {threads} CPUs")
lines.append(f"- threads: whisper.cpp n_threads = {threads} (OMP_WAIT_POLICY={wdocs[0].get('omp_wait_policy')}); "
             f"Dictum: {dthreads}")
lines.append(f"- {rounds} rounds, order alternating (odd: Dictum first); {wdocs[0].get('runs')} timed runs "
             f"(+{wdocs[0].get('warmup')} warm-up) per engine per round; tokens per run: whisper.cpp {tokens} "
             f"({wdocs[0].get('token_mode')})" + ("" if wc_only else
                                                   f", Dictum {next((x['tokens'] for x in ddocs if 'tokens' in x), '?')}"))
lines.append("- 1-minute load before -> after each round: "
             + "; ".join(f"{r}: {b:.2f} -> {a:.2f}" for r, b, a in loads)
             + f" ({'idle' if idle else 'UNDER LOAD'}: limit {max_load} before a round; after a round the load"
             " includes the benchmark's own threads)")
for i, (name, docs, _) in enumerate(peers):
    lines.append(f"- peer {i}: {name}; {docs[0].get('system_info')}")
lines.append("")
lines.append("Best = the smallest min over all rounds; ± = the spread of the round medians "
             "(largest over smallest). Ratio = Dictum's best / the faster peer's best.")
lines.append("")
short = [n.split(" (")[0] for n, _, _ in peers]
lines.append("| metric | Dictum | " + " | ".join(short) + " | ratio |")
lines.append("|---|---|" + "---|" * len(peers) + "---|")
for key, label in metrics:
    pcells = " | ".join(cell(pp[2][key]) for pp in peers)
    if wc_only:
        lines.append(f"| {label} | — | {pcells} | — |")
        continue
    dbest = summarise(dper[key])[0]
    wbest = min(summarise(pp[2][key])[0] for pp in peers)
    if rounds < 3:
        ratio = "— (fewer than 3 rounds)"
    elif not idle:
        ratio = f"under load ({worst_before:.2f})"
    else:
        ratio = f"**{dbest / wbest:.2f}**"
    lines.append(f"| {label} | {cell(dper[key])} | {pcells} | {ratio} |")
lines.append("")


def clip(t, n=200):
    return t if t is None or len(t) <= n else t[:n] + f"… ({len(t)} chars)"


lines.append(f"whisper.cpp transcript of the bench WAV (whisper_full, greedy): "
             f"{clip(next((x['text'] for x in wdocs if x.get('text')), ''))}")
if not wc_only:
    dt = next((x.get("text") for x in ddocs if x.get("text")), None)
    if dt:
        lines.append(f"Dictum transcript of the bench WAV: {clip(dt)}")
if nsamples and not wc_only:
    wtexts = [last_json(f"{out}/whispercpp-transcribe-1-{s}.json").get("greedy_text", "") for s in range(nsamples)]
    same = sum(1 for a, b in zip(dtexts, wtexts) if a.strip() == b.strip())
    lines.append(f"Samples transcribed identically by Dictum and whisper.cpp 1.7.1 (greedy): {same} of {nsamples}")
lines.append(f"raw JSON and logs: {out}")
s = "\n".join(lines)
print(s)
with open(f"{out}/summary.md", "w", encoding="utf-8") as f:
    f.write(s + "\n")
