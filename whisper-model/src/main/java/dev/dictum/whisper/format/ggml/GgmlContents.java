package dev.dictum.whisper.format.ggml;

import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.WhisperDims;
import java.util.List;
import java.util.Map;

/**
 * What {@link GgmlParser} found in a file, checked field by field but not yet against the
 * canonical tensor layout.
 *
 * @param ftype  the hparams' file type (whisper.cpp's ggml_ftype plus 1000 x quantisation version)
 * @param tokens the BPE tokens as stored, id order (may include a few special-token spellings)
 * @param tensors slices of the mapping under their canonical names and PyTorch-order shapes
 */
record GgmlContents(WhisperDims dims, int ftype, GgmlMelFilters melFilters, List<byte[]> tokens,
        Map<String, HostTensor> tensors) {
}
