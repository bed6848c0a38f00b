// whisper.cpp's side of issue 22 item 4 (scripts/bench-gpu.sh): a real beam-5 transcription of a WAV
// through whisper_full, timed per sampled token, as Dictum's `bench` (beam_transcribe_ms_per_token) and
// transformers' generate(num_beams=5) are timed on the same audio: English, no timestamps, the prompt
// [sot, en, transcribe, notimestamps], exactly TOKENS tokens sampled (end of text suppressed before the
// last one and forced as the last), one decoder pass per sampled token. Per run:
//   ms per token = (wall time of whisper_full - wall time of its mel + encoder) / TOKENS
// Built inside the whisper.cpp tree as examples/dictum-beam-bench (bench-gpu.sh adds it), linked to
// libwhisper only. Usage: dictum-beam-bench MODEL WAV TOKENS RUNS [THREADS]
#include "whisper.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

static bool readWav16kMono(const char* path, std::vector<float>& pcm) {
    std::ifstream f(path, std::ios::binary);
    std::vector<char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (b.size() < 12 || std::memcmp(b.data(), "RIFF", 4) != 0 || std::memcmp(b.data() + 8, "WAVE", 4) != 0) {
        return false;
    }
    size_t at = 12;
    int channels = 0, rate = 0, bits = 0;
    while (at + 8 <= b.size()) {
        uint32_t size;
        std::memcpy(&size, b.data() + at + 4, 4);
        const char* id = b.data() + at;
        const char* body = b.data() + at + 8;
        if (std::memcmp(id, "fmt ", 4) == 0) {
            uint16_t c, bps;
            uint32_t r;
            std::memcpy(&c, body + 2, 2);
            std::memcpy(&r, body + 4, 4);
            std::memcpy(&bps, body + 14, 2);
            channels = c, rate = (int) r, bits = bps;
        } else if (std::memcmp(id, "data", 4) == 0) {
            if (channels != 1 || rate != 16000 || bits != 16 || at + 8 + size > b.size()) {
                return false;
            }
            pcm.resize(size / 2);
            for (size_t i = 0; i < pcm.size(); i++) {
                int16_t s;
                std::memcpy(&s, body + 2 * i, 2);
                pcm[i] = s / 32768.0f;
            }
            return true;
        }
        at += 8 + size + (size & 1);
    }
    return false;
}

struct Force {
    int tokens; // sampled tokens wanted, end of text included
    whisper_token eot;
};

// Every beam's sequence: end of text impossible before its last token, the only choice at it.
static void force(whisper_context*, whisper_state*, const whisper_token_data*, int nTokens, float* logits, void* user) {
    const Force* f = static_cast<const Force*>(user);
    if (nTokens < f->tokens - 1) {
        logits[f->eot] = -INFINITY;
    } else {
        const float keep = logits[f->eot];
        for (int i = 0; i < f->eot; i++) logits[i] = -INFINITY;
        logits[f->eot] = std::isfinite(keep) ? keep : 0.0f;
    }
}

static double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s MODEL WAV TOKENS RUNS [THREADS]\n", argv[0]);
        return 2;
    }
    const int tokens = std::atoi(argv[3]);
    const int runs = std::atoi(argv[4]);
    const int threads = argc > 5 ? std::atoi(argv[5]) : 8;
    std::vector<float> pcm;
    if (!readWav16kMono(argv[2], pcm)) {
        std::fprintf(stderr, "%s: not a 16 kHz mono 16-bit WAV\n", argv[2]);
        return 1;
    }
    whisper_context_params cp = whisper_context_default_params();
    cp.use_gpu = true;
    cp.flash_attn = true; // as whisper-bench -fa in the same script
    whisper_context* ctx = whisper_init_from_file_with_params(argv[1], cp);
    if (ctx == nullptr) {
        std::fprintf(stderr, "%s: cannot load\n", argv[1]);
        return 1;
    }
    Force f{tokens, whisper_token_eot(ctx)};
    whisper_full_params p = whisper_full_default_params(WHISPER_SAMPLING_BEAM_SEARCH);
    p.beam_search.beam_size = 5;
    p.language = "en";
    p.translate = false;
    p.no_timestamps = true;
    p.single_segment = true;
    p.no_context = true;
    p.temperature_inc = 0.0f; // no fallback: one decoding, as the other engines
    p.n_threads = threads;
    p.print_progress = p.print_realtime = p.print_timestamps = p.print_special = false;
    p.logits_filter_callback = force;
    p.logits_filter_callback_user_data = &f;
    for (int r = -1; r < runs; r++) { // run -1 warms up
        auto t0 = std::chrono::steady_clock::now();
        if (whisper_full(ctx, p, pcm.data(), (int) pcm.size()) != 0) {
            std::fprintf(stderr, "whisper_full failed\n");
            return 1;
        }
        const double full = msSince(t0);
        int text = 0;
        for (int s = 0; s < whisper_full_n_segments(ctx); s++) {
            for (int t = 0; t < whisper_full_n_tokens(ctx, s); t++) {
                text += whisper_full_get_token_id(ctx, s, t) < f.eot ? 1 : 0;
            }
        }
        auto t1 = std::chrono::steady_clock::now();
        if (whisper_pcm_to_mel(ctx, pcm.data(), (int) pcm.size(), threads) != 0 || whisper_encode(ctx, 0, threads) != 0) {
            std::fprintf(stderr, "encode failed\n");
            return 1;
        }
        const double encode = msSince(t1);
        if (r >= 0) {
            std::printf("RESULT ms_per_token=%.4f full_ms=%.3f encode_ms=%.3f text_tokens=%d tokens=%d\n",
                        (full - encode) / tokens, full, encode, text, tokens);
        }
    }
    whisper_free(ctx);
    return 0;
}
