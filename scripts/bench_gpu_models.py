#!/usr/bin/env python3
"""Device side of scripts/bench-gpu.sh: random Whisper weights of real dimensions, and the
Hugging Face transformers peer (fp16, sdpa) timed on them.

  bench_gpu_models.py make  SIZE DIR TOKENIZER_DIR   random fp16 weights (seed 0) as a Hugging Face
                                                     folder (model.safetensors + config + tokenizer)
  bench_gpu_models.py bench SIZE DIR                 transformers fp16 sdpa: encoder ms per 30 s
                                                     window, decoder ms/token, beam-5 ms per step,
                                                     peak GPU memory; one JSON line on stdout
  bench_gpu_models.py bench-compiled SIZE DIR        the same with a static KV cache and torch.compile
                                                     (mode "reduce-overhead": CUDA graphs): encoder and
                                                     decoder ms/token; or {"error": why} if it fails

The same safetensors are read by Dictum (Hugging Face folder) and, converted to ggml f16 by
hf_to_ggml.py, by whisper.cpp. Vocabulary: toy-multi's tokenizer (51866 tokens) for every size, so
tiny and small have one token more than the released models (immaterial to every timing).
"""
import json
import os
import shutil
import statistics
import sys

import torch

SIZES = {  # d_model, heads, encoder layers, decoder layers, mel bins
    "tiny": (384, 6, 4, 4, 80),
    "small": (768, 12, 12, 12, 80),
    "large-v3-turbo": (1280, 20, 32, 4, 128),
    "large-v3": (1280, 20, 32, 32, 128),
}


def config(size):
    from transformers import WhisperConfig
    d, h, el, dl, mels = SIZES[size]
    return WhisperConfig(vocab_size=51866, num_mel_bins=mels, d_model=d, encoder_attention_heads=h,
                         decoder_attention_heads=h, encoder_layers=el, decoder_layers=dl, encoder_ffn_dim=4 * d,
                         decoder_ffn_dim=4 * d, max_source_positions=1500, max_target_positions=448,
                         begin_suppress_tokens=[220, 50257], bos_token_id=50257, eos_token_id=50257,
                         pad_token_id=50257, decoder_start_token_id=50258)


def make(size, out, tokenizer_dir):
    from transformers import WhisperForConditionalGeneration
    torch.manual_seed(0)
    with torch.device("cuda"):
        model = WhisperForConditionalGeneration(config(size))
    model = model.half()
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(tokenizer_dir):
        if f != "config.json":
            shutil.copy(os.path.join(tokenizer_dir, f), out)
    model.save_pretrained(out, safe_serialization=True)
    pre = os.path.join(out, "preprocessor_config.json")
    if os.path.exists(pre):
        with open(pre) as fh:
            p = json.load(fh)
        p["feature_size"] = SIZES[size][4]
        with open(pre, "w") as fh:
            json.dump(p, fh, indent=2)


def event_ms(fn):
    """GPU milliseconds of fn() between two CUDA events (the caller synchronises before, if it must)."""
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b)


def timed(fn, warmup, runs):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    return [event_ms(fn) for _ in range(runs)]


def bench(size, path):
    from transformers import WhisperForConditionalGeneration
    model = WhisperForConditionalGeneration.from_pretrained(path, dtype=torch.float16,
                                                            attn_implementation="sdpa").cuda().eval()
    mels = SIZES[size][4]
    torch.manual_seed(1)
    feats = torch.randn(1, mels, 3000, device="cuda", dtype=torch.float16)
    torch.cuda.reset_peak_memory_stats()
    res = {"engine": "transformers", "size": size, "torch": torch.__version__}
    with torch.inference_mode():
        enc = timed(lambda: model.model.encoder(feats), 3, 20)
        res["encoder_ms"] = statistics.median(enc)
        hidden = model.model.encoder(feats).last_hidden_state
        prompt = torch.tensor([[50258, 50259, 50360, 50364]], device="cuda")

        def decode(batch, steps):
            h = hidden.expand(batch, -1, -1)
            out = model(decoder_input_ids=prompt.expand(batch, -1), encoder_outputs=(h,), use_cache=True)
            state = {"pkv": out.past_key_values, "tok": out.logits[:, -1].argmax(-1, keepdim=True)}
            torch.cuda.synchronize()

            def run():
                for _ in range(steps):
                    o = model(decoder_input_ids=state["tok"], encoder_outputs=(h,), past_key_values=state["pkv"],
                              use_cache=True)
                    state["pkv"] = o.past_key_values
                    state["tok"] = o.logits[:, -1].argmax(-1, keepdim=True)
            return event_ms(run) / steps

        decode(1, 8)
        res["decode_ms_per_token"] = statistics.median([decode(1, 64) for _ in range(5)])
        decode(5, 8)
        res["beam5_ms_per_step"] = statistics.median([decode(5, 64) for _ in range(3)])
        if os.environ.get("BEAM_WAV"):
            res.update(beam_transcription(model, mels, prompt, res["encoder_ms"]))
    res["peak_gpu_mib"] = torch.cuda.max_memory_allocated() / 2**20
    print(json.dumps(res), flush=True)


def wav_16k_mono(path):
    import wave
    import numpy as np
    with wave.open(path) as w:
        if w.getnchannels() != 1 or w.getframerate() != 16000 or w.getsampwidth() != 2:
            raise ValueError(f"{path}: not a 16 kHz mono 16-bit WAV")
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float32) / 32768


def beam_transcription(model, mels, prompt, encoder_ms):
    """Issue 22 item 4: a real beam-5 transcription of BEAM_WAV through generate(num_beams=5), as Dictum's
    bench and whisper.cpp's whisper_full run it: the prompt [sot, en, transcribe, notimestamps], exactly
    BEAM_TOKENS new tokens (min = max: end of text suppressed until then), one decoder pass per token;
    ms per token = (generate - the encoder's median) / tokens. Whisper's own generate where it takes the
    prompt, else the generic one (recorded as beam5_transcribe_path)."""
    from transformers import WhisperFeatureExtractor
    from transformers.generation import GenerationMixin
    n = int(os.environ.get("BEAM_TOKENS", "64"))
    audio = wav_16k_mono(os.environ["BEAM_WAV"])
    feats = WhisperFeatureExtractor(feature_size=mels)(audio, sampling_rate=16000, return_tensors="pt")
    feats = feats.input_features.to("cuda", torch.float16)
    kw = dict(num_beams=5, do_sample=False, max_new_tokens=n, min_new_tokens=n, decoder_input_ids=prompt)
    out = {}
    for path, gen in (("whisper", lambda: model.generate(input_features=feats, **kw)),
                      ("generic", lambda: GenerationMixin.generate(model, input_features=feats, **kw))):
        try:
            ids = gen()  # also the warm-up
            torch.cuda.synchronize()
            ms = statistics.median([event_ms(gen) for _ in range(3)])
        except Exception as e:  # noqa: BLE001 - the other path is tried, and why is recorded
            out[f"beam5_transcribe_{path}_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}"
            continue
        new = ids.shape[-1] - (prompt.shape[-1] if ids.shape[-1] > n else 0)
        out.update({"beam5_transcribe_ms_per_token": (ms - encoder_ms) / n, "beam5_transcribe_path": path,
                    "beam5_transcribe_tokens": int(new)})
        break
    return out


def static_caches(model, batch, self_len, cross_len):
    """An EncoderDecoderCache of two StaticCaches (self-attention, cross-attention), for the
    transformers at hand: the constructor changed between 4.x (max_batch_size, device, dtype) and 5.x."""
    from transformers import EncoderDecoderCache, StaticCache
    def one(n):
        try:
            return StaticCache(config=model.config, max_batch_size=batch, max_cache_len=n, device="cuda",
                               dtype=torch.float16)
        except TypeError:
            return StaticCache(config=model.config, max_cache_len=n)
    return EncoderDecoderCache(one(self_len), one(cross_len))


def bench_compiled(size, path):
    import traceback
    res = {"engine": "transformers-compiled", "size": size, "torch": torch.__version__}
    try:
        from transformers import WhisperForConditionalGeneration
        model = WhisperForConditionalGeneration.from_pretrained(path, dtype=torch.float16,
                                                                attn_implementation="sdpa").cuda().eval()
        mels = SIZES[size][4]
        torch.manual_seed(1)
        feats = torch.randn(1, mels, 3000, device="cuda", dtype=torch.float16)
        with torch.inference_mode():
            encoder = torch.compile(model.model.encoder, mode="reduce-overhead")
            res["encoder_ms"] = statistics.median(timed(lambda: encoder(feats).last_hidden_state, 5, 20))
            hidden = model.model.encoder(feats).last_hidden_state
            prompt = torch.tensor([[50258, 50259, 50360, 50364]], device="cuda")
            step = torch.compile(model, mode="reduce-overhead")
            steps = 64

            def decode():
                cache = static_caches(model, 1, 4 + steps + 8, 1500)
                out = model(decoder_input_ids=prompt, encoder_outputs=(hidden,), past_key_values=cache,
                            use_cache=True, cache_position=torch.arange(4, device="cuda"))
                state = {"tok": out.logits[:, -1].argmax(-1, keepdim=True)}
                torch.cuda.synchronize()

                def run():
                    for i in range(steps):
                        o = step(decoder_input_ids=state["tok"], encoder_outputs=(hidden,), past_key_values=cache,
                                 use_cache=True, cache_position=torch.tensor([4 + i], device="cuda"))
                        state["tok"] = o.logits[:, -1].argmax(-1, keepdim=True).clone()
                return event_ms(run) / steps

            for _ in range(3):  # compilation, then CUDA-graph capture
                decode()
            res["decode_ms_per_token"] = statistics.median([decode() for _ in range(5)])
    except Exception as e:  # recorded, not fatal: issue 12 asks for it "if it runs there"
        traceback.print_exc()
        res["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
    print(json.dumps(res), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "bench":
        bench(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "bench-compiled":
        bench_compiled(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: bench_gpu_models.py make SIZE DIR TOKENIZER_DIR | bench SIZE DIR | bench-compiled SIZE DIR")
