// Runs the example plugin's ops from C++ and checks their numbers:
//   run_custom_ops PLUGIN.so MODELS_DIR
// custom::deform_conv2d against the built-in DeformConv on the same data and
// against the numpy reference in the test data; custom::DynamicTRTResize at
// several run-time sizes (one session, concurrent runs) against the built-in
// Resize and the numpy reference. Prints "custom ops example: OK".
#include <oinfer/oinfer.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what.c_str());
    ++failures;
  }
}

double maxDiff(const oinfer::Tensor& a, const oinfer::Tensor& b) {
  if (a.shape() != b.shape()) return INFINITY;
  double m = 0;
  for (int64_t i = 0; i < a.numel(); ++i) m = std::fmax(m, std::fabs(double(a.data<float>()[i]) - b.data<float>()[i]));
  return m;
}

oinfer::Tensor pb(const std::string& dir, const char* name) {
  return oinfer::loadTensorProto(dir + "/test_data_set_0/" + name);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: run_custom_ops PLUGIN.so MODELS_DIR\n");
    return 2;
  }
  const std::string plugin = argv[1], models = argv[2];
  try {
    oinfer::SessionOptions options;
    options.customOpLibraries = {plugin};
    options.threads = 2;

    // ---- deform_conv2d
    {
      oinfer::Session s(oinfer::Graph::loadFromONNX(models + "/deform_conv2d.onnx"), options);
      const std::string data = models + "/deform_conv2d_test_data";
      auto out = s.run({{"x", pb(data, "input_0.pb")}, {"offset", pb(data, "input_1.pb")}, {"mask", pb(data, "input_2.pb")}});
      const double vsBuiltin = maxDiff(out[0], out[1]), vsNumpy = maxDiff(out[0], pb(data, "output_0.pb"));
      std::printf("deform_conv2d %s: max |custom - DeformConv| %.3g, max |custom - numpy| %.3g\n",
                  oinfer::shapeToString(out[0].shape()).c_str(), vsBuiltin, vsNumpy);
      check(vsBuiltin <= 1e-5, "deform_conv2d equals the built-in DeformConv");
      check(vsNumpy <= 1e-5, "deform_conv2d equals the numpy reference");
      for (const auto& step : s.plan({{"x", {1, 4, 6, 7}}, {"offset", {1, 36, 6, 4}}, {"mask", {1, 18, 6, 4}}}).steps)
        if (step.opType == "deform_conv2d") std::printf("  plan: %s [%s]\n", step.nodeName.c_str(), step.algorithm.c_str());
    }

    // ---- DynamicTRTResize: the output shape comes from the size input's values
    {
      oinfer::Session s(oinfer::Graph::loadFromONNX(models + "/dynamic_resize.onnx"), options);
      const std::string data = models + "/dynamic_resize_test_data";
      oinfer::Tensor image = pb(data, "input_0.pb");
      auto out = s.run({{"image", image}, {"size", pb(data, "input_1.pb")}});
      check(maxDiff(out[0], pb(data, "output_0.pb")) <= 1e-5, "bilinear resize equals the numpy reference");
      check(maxDiff(out[1], pb(data, "output_1.pb")) <= 0, "nearest resize equals the numpy reference");
      // Other sizes in the same session, from several threads at once. (Sizes of
      // 1 are left out: there ONNX's pytorch_half_pixel samples index 0 and
      // PyTorch, like this op, the centre.)
      const std::vector<std::vector<int64_t>> sizes = {{3, 10}, {5, 7}, {2, 2}, {12, 2}, {9, 4}, {2, 13}};
      std::vector<std::string> errors(sizes.size());
      std::vector<std::thread> threads;
      for (size_t k = 0; k < sizes.size(); ++k)
        threads.emplace_back([&, k] {
          try {
            for (int rep = 0; rep < 20; ++rep) {
              auto o = s.run({{"image", image}, {"size", oinfer::Tensor::fromVector<int64_t>({2}, sizes[k])}});
              const std::vector<int64_t> want = {1, 3, sizes[k][0], sizes[k][1]};
              if (o[0].shape() != want || o[1].shape() != want) errors[k] = "shape " + oinfer::shapeToString(o[0].shape());
              else if (maxDiff(o[0], o[2]) > 1e-5) errors[k] = "bilinear differs from Resize";
              else if (maxDiff(o[1], o[3]) > 0) errors[k] = "nearest differs from Resize";
            }
          } catch (const std::exception& e) {
            errors[k] = e.what();
          }
        });
      for (auto& t : threads) t.join();
      for (size_t k = 0; k < sizes.size(); ++k)
        check(errors[k].empty(), "resize to " + oinfer::shapeToString(sizes[k]) + ": " + errors[k]);
      std::printf("DynamicTRTResize: %zu sizes x 20 runs on %zu threads match Resize\n", sizes.size(), sizes.size());
    }

    // ---- errors name the node and the op
    {
      oinfer::Session s(oinfer::Graph::loadFromONNX(models + "/dynamic_resize.onnx"), options);
      std::string message;
      try {
        s.run({{"image", oinfer::Tensor(oinfer::DataType::kFloat, {1, 3, 4, 4})},
               {"size", oinfer::Tensor::fromVector<int64_t>({2}, {0, 5})}});
      } catch (const oinfer::Error& e) {
        message = e.what();
      }
      std::printf("size (0, 5): %s\n", message.c_str());
      check(message.find("(custom::DynamicTRTResize)") != std::string::npos &&
                message.find("out of range") != std::string::npos,
            "a bad size is an Error naming the node and op");
    }
  } catch (const oinfer::Error& e) {
    std::fprintf(stderr, "run_custom_ops: %s\n", e.what());
    return 1;
  }
  if (failures) return 1;
  std::printf("custom ops example: OK\n");
  return 0;
}
