#!/usr/bin/env python3
"""Makes the clips behind the trimmer's tail length (issue 23 item 2): espeak-ng sentences of the
kind the toy models were trained on, each ending in an unvoiced sound (s, t, f, th), made the way
the toy-en / toy-multi samples were (espeak-ng 1.51, random voice variant, speed and pitch, some
leading and trailing quiet, mild white noise on every other clip), 16 kHz mono 16-bit.

    python3 scripts/make-unvoiced-clips.py testdata/data/unvoiced-endings

`held_de_063.wav` is the German held-out-like clip of issue 23 that ends in 0.63 s of quiet.
"""
import json
import subprocess
import sys
import tempfile
import wave
from math import gcd
from pathlib import Path

import numpy as np
from scipy.signal import resample_poly

CLIPS = [
    # file, espeak voice, language, text, speed, pitch, trailing quiet (s), noise
    ("en_first.wav", "en-us+m3", "en", "Please send the report to Robert first.", 190, 50, 0.8, False),
    ("en_class.wav", "en-gb+f2", "en", "We have 16 people signed up for the class.", 175, 60, 0.8, True),
    ("en_loaf.wav", "en-gb-x-rp+m6", "en", "Note to self, buy milk and a loaf.", 200, 45, 0.8, False),
    ("en_fifth.wav", "en-us+linda", "en", "The training session is on June 5th.", 185, 55, 0.8, True),
    ("en_biscuits.wav", "en-gb+klatt2", "en", "We are out of coffee and biscuits.", 165, 35, 0.8, False),
    ("de_chef.wav", "de+klatt3", "de", "Bitte schick die Notizen an meinen Chef.", 150, 46, 0.8, True),
    ("de_acht.wav", "de+benjamin", "de", "Der Termin ist morgen um acht.", 164, 54, 0.8, False),
    ("de_reis.wav", "de+f3", "de", "Bitte kauf Zucker, Salz und Reis.", 170, 60, 0.8, True),
    ("es_dos.wav", "es+m2", "es", "Vale, voy a llamar a Carmen a las dos.", 170, 50, 0.8, False),
    ("held_de_063.wav", "de+m4", "de", "Das Hotel in Berlin kostet 90 Euro pro Nacht.", 160, 50, 0.63, True),
]
RATE = 16000


def speak(voice, text, speed, pitch):
    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", f.name, text],
                       check=True)
        with wave.open(f.name) as w:
            rate = w.getframerate()
            x = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64) / 32768
    g = gcd(RATE, rate)
    x = resample_poly(x, RATE // g, rate // g)
    # espeak's own leading and trailing silence: cut, so the quiet after the speech is exactly ours
    loud = np.nonzero(np.abs(x) > 1e-3)[0]
    return x[loud[0]:loud[-1] + 1]


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(23)
    meta = []
    rows = ["file\tlanguage\ttext"]
    for name, voice, lang, text, speed, pitch, tail, noise in CLIPS:
        speech = speak(voice, text, speed, pitch)
        lead = np.zeros(int(RATE * (0.3 + 0.3 * rng.random())))
        x = np.concatenate([lead, speech, np.zeros(int(round(RATE * tail)))])
        if noise:
            x = x + rng.normal(0, 10 ** (-62 / 20), len(x))  # mild: -62 dBFS, under the -50 dBFS gate
        pcm = np.clip(np.round(x * 32767), -32768, 32767).astype("<i2")
        with wave.open(str(out / name), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(RATE)
            w.writeframes(pcm.tobytes())
        meta.append({"file": name, "language": lang, "text": text,
                     "voice": {"voice": voice, "speed": speed, "pitch": pitch},
                     "speech": [round(len(lead) / RATE, 3), round((len(lead) + len(speech)) / RATE, 3)],
                     "trailing_quiet": tail, "noise_dbfs": -62 if noise else None})
        rows.append(f"{name}\t{lang}\t{text}")
    (out / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    (out / "transcripts.tsv").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "testdata/data/unvoiced-endings")
