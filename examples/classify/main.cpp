// Classifies one 8x8 handwritten digit with the demo model:
//   classify models/digits.onnx models/digits_samples/digit_7.npy
#include <cstdio>
#include <exception>
#include <vector>

#include <oinfer/oinfer.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: classify MODEL.onnx PIXELS.npy\n");
    return 2;
  }
  try {
    oinfer::Graph graph = oinfer::Graph::loadFromONNX(argv[1]);
    oinfer::Session session(std::move(graph));

    // float32 [1, 64]: an 8x8 image, pixel values scaled to 0..1.
    oinfer::Tensor pixels = oinfer::loadNpy(argv[2]);
    std::vector<oinfer::Tensor> outputs = session.run({{"pixels", pixels}});

    const oinfer::Tensor& probabilities = outputs[0];  // float32 [1, 10]
    const float* p = probabilities.data<float>();
    int best = 0;
    for (int digit = 1; digit < 10; ++digit)
      if (p[digit] > p[best]) best = digit;
    std::printf("predicted digit: %d (probability %.4f)\n", best, p[best]);
    return 0;
  } catch (const oinfer::Error& e) {
    std::fprintf(stderr, "classify: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "classify: %s\n", e.what());
    return 1;
  }
}
