// Shape function of the recurrent family: RNN, GRU and LSTM.
#pragma once

#include "shape/infer_context.h"

namespace oinfer::shape {

// X is [seq, batch, input] ([batch, seq, input] for layout 1), W is
// [num_directions, gates*hidden, input], R [num_directions, gates*hidden,
// hidden]. Y is [seq, num_directions, batch, hidden] ([batch, seq,
// num_directions, hidden] for layout 1); Y_h and Y_c are [num_directions,
// batch, hidden] ([batch, num_directions, hidden] for layout 1).
void inferRnn(InferContext& ctx);

}  // namespace oinfer::shape
