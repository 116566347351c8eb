// Shape functions of the signal family: the window generators, DFT, STFT and
// MelWeightMatrix.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// HannWindow / HammingWindow / BlackmanWindow: [size] of output_datatype.
void inferWindow(InferContext& ctx);
// DFT: input [..., n, 1|2] -> [..., n', 2] along the DFT axis (attribute in
// opset 17, input 2 from opset 20); n' = dft_length (or n), halved plus one
// when onesided.
void inferDft(InferContext& ctx);
// STFT: signal [batch, length, 1|2] -> [batch, frames, bins, 2].
void inferStft(InferContext& ctx);
// MelWeightMatrix: [dft_length / 2 + 1, num_mel_bins] of output_datatype.
void inferMelWeightMatrix(InferContext& ctx);

}  // namespace oinfer::shape
