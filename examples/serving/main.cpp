// A serving loop over the demo model: options, a batch, outputs reused
// between runs (runInto), an intermediate value fetched by name, a deadline
// per run, and a caller-owned flag that stops a run.
//   serving models/digits.onnx models/digits_samples/digit_7.npy
#include <atomic>
#include <cstdio>
#include <exception>
#include <vector>

#include <oinfer/oinfer.h>

int argmax(const float* p, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (p[i] > p[best]) best = i;
  return best;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: serving MODEL.onnx PIXELS.npy\n");
    return 2;
  }
  try {
    oinfer::SessionOptions options;
    options.threads = 2;                   // intra-op threads
    options.keepValues = {"hidden_pre"};   // fetchable even where a fusion would remove it
    options.runTimeoutSeconds = 5;         // no run may take longer (Error kCancelled)
    oinfer::Session session(oinfer::Graph::loadFromONNX(argv[1]), options);

    // A batch of 4 copies of the sample: the model's batch dim is symbolic.
    const oinfer::Tensor one = oinfer::loadNpy(argv[2]);  // float32 [1, 64]
    oinfer::Tensor batch(oinfer::DataType::kFloat, {4, 64});
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 64; ++c) batch.data<float>()[r * 64 + c] = one.data<float>()[c];

    // runInto reuses the caller's output buffers: no allocation once warm.
    std::vector<oinfer::Tensor> outputs;
    for (int request = 0; request < 3; ++request) session.runInto({{"pixels", batch}}, outputs);
    std::printf("batch of %lld: predicted digit %d\n", static_cast<long long>(outputs[0].dim(0)),
                argmax(outputs[0].data<float>() + 3 * 10, 10));

    // An intermediate value by name, with a deadline for this run only.
    oinfer::RunOptions quick;
    quick.timeoutSeconds = 1;
    std::vector<oinfer::Tensor> hidden = session.run({{"pixels", one}}, {"hidden_pre"}, quick);
    std::printf("hidden_pre: %lld values\n", static_cast<long long>(hidden[0].numel()));

    // A caller-owned flag stops a run at the next node boundary.
    std::atomic<bool> stop{true};
    oinfer::RunOptions cancellable;
    cancellable.terminate = &stop;
    try {
      session.run({{"pixels", one}}, {"probabilities"}, cancellable);
    } catch (const oinfer::Error& e) {
      if (e.code() != oinfer::ErrorCode::kCancelled) throw;
      std::printf("stopped: %s\n", e.what());
    }
    return 0;
  } catch (const oinfer::Error& e) {
    std::fprintf(stderr, "serving: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "serving: %s\n", e.what());
    return 1;
  }
}
