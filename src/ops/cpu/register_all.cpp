// The one place that lists every op family. Each register_<family> lives in
// src/ops/cpu/<family>.cpp beside the family's kernels.
#include "ops/cpu/register_all.h"

#include "ops/cpu/gemm/gemm_internal.h"

namespace oinfer {

void register_elementwise(Registry& r);  // arithmetic, math, comparison, logic, Where
void register_activation(Registry& r);   // Relu ... Gelu, Clip
void register_conv(Registry& r);         // Conv, ConvTranspose
void register_pool(Registry& r);         // Max/Average/Global pools, LRN
void register_normalization(Registry& r);  // BatchNorm, InstanceNorm, LayerNorm
void register_linalg(Registry& r);       // Gemm, MatMul
void register_reduce(Registry& r);       // Reduce*, ArgMax/ArgMin, Softmax, LogSoftmax
void register_tensor(Registry& r);       // shape manipulation, Constant, Cast ...
void register_resize(Registry& r);       // Resize, Upsample
void register_quantize(Registry& r);     // Quantize/DequantizeLinear, QLinear*, *Integer
void register_scan_ops(Registry& r);     // CumSum, CumProd, TopK, Unique, Compress, LpNormalization, CenterCropPad, Einsum
void register_image(Registry& r);        // GridSample, AffineGrid, Col2Im, RoiAlign, NonMaxSuppression
void register_loss(Registry& r);         // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void register_attention(Registry& r);    // Attention, RotaryEmbedding
void register_strings(Registry& r);      // String* ops, RegexFullMatch, BitCast, ReverseSequence, MaxUnpool, Det
void register_signal(Registry& r);       // DFT, STFT, window functions
void register_rnn(Registry& r);          // RNN, LSTM, GRU
void register_decoding(Registry& r);     // LinearAttention, CausalConvWithState, TensorScatter
void register_random(Registry& r);       // RandomUniform/Normal(Like), Bernoulli, Multinomial
void register_deform_conv(Registry& r);  // DeformConv
void register_tfidf(Registry& r);        // TfIdfVectorizer
void register_ml_tree(Registry& r);     // ai.onnx.ml TreeEnsembleClassifier/Regressor, TreeEnsemble
void register_ml_svm(Registry& r);      // ai.onnx.ml SVMClassifier, SVMRegressor
void register_ml(Registry& r);          // ai.onnx.ml Linear*, Scaler, Normalizer, LabelEncoder, ... ZipMap (an error)
void register_control_flow(Registry& r); // If, Loop, Scan
void register_sequence(Registry& r);     // Sequence*, SplitToSequence, ConcatFromSequence, Optional*
void register_fused_transformer(Registry& r);  // ai.oinfer FusedMatMul, LayerNorm, Gelu, FusedAttention (graph passes)

bool cpuTakesBlockedLayout() { return gemm::avx512Kernels(); }

void registerCpuOps(Registry& r) {
  register_elementwise(r);
  register_activation(r);
  register_conv(r);
  register_pool(r);
  register_normalization(r);
  register_linalg(r);
  register_reduce(r);
  register_tensor(r);
  register_resize(r);
  register_quantize(r);
  register_scan_ops(r);
  register_image(r);
  register_loss(r);
  register_attention(r);
  register_strings(r);
  register_signal(r);
  register_rnn(r);
  register_decoding(r);
  register_random(r);
  register_deform_conv(r);
  register_tfidf(r);
  register_ml_tree(r);
  register_ml_svm(r);
  register_ml(r);
  register_control_flow(r);
  register_sequence(r);
  register_fused_transformer(r);
}

}  // namespace oinfer
