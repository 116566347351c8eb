// One Session run from many threads at once with alternating dynamic input
// shapes: every run must return exactly (bit for bit) what a single-threaded
// run of the same input returned. Runs in the normal suite and under
// ThreadSanitizer (scripts/test_sanitizers.sh), where it is the race check
// for the plan cache (plans for new shapes made while other runs execute),
// the execution contexts, the kept output buffers and the shared pool.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ir_util.h"
#include "model_test_util.h"

namespace oinfer {
namespace {

using modeltest::opNode;
using modeltest::patterned;

Node withInts(Node n, const std::string& name, std::vector<int64_t> v) {
  ir::Attribute a;
  a.name = name;
  a.type = ir::AttrType::kInts;
  a.ints = std::move(v);
  n.attributes.push_back(std::move(a));
  return n;
}

// x [N, 4, H, W] -> Conv 3x3 (8) -> Relu -> Conv 3x3 (16) -> GlobalAveragePool
// -> Flatten -> MatMul [16, 5] -> Softmax, and the Relu's output as a second
// graph output (an intermediate that depends on every dim).
ir::Graph stressGraph() {
  ir::Graph g;
  g.opsetImports[""] = 17;
  g.inputs.push_back(
      ValueInfo{"x", ValueKind::kTensor, DataType::kFloat, true, {Dim::sym("N"), 4, Dim::sym("H"), Dim::sym("W")}});
  g.initializers["w1"] = patterned({8, 4, 3, 3}, 0.05f);
  g.initializers["b1"] = patterned({8}, 0.1f);
  g.initializers["w2"] = patterned({16, 8, 3, 3}, 0.03f);
  g.initializers["w3"] = patterned({16, 5}, 0.2f);
  g.nodes.push_back(withInts(opNode("Conv", {"x", "w1", "b1"}, {"c1"}), "pads", {1, 1, 1, 1}));
  g.nodes.push_back(opNode("Relu", {"c1"}, {"r1"}));
  g.nodes.push_back(withInts(opNode("Conv", {"r1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1}));
  g.nodes.push_back(opNode("GlobalAveragePool", {"c2"}, {"p"}));
  g.nodes.push_back(opNode("Flatten", {"p"}, {"f"}));
  g.nodes.push_back(opNode("MatMul", {"f", "w3"}, {"m"}));
  g.nodes.push_back(opNode("Softmax", {"m"}, {"y"}));
  g.outputs.push_back(ValueInfo{"y", ValueKind::kTensor, DataType::kFloat, false, {}});
  g.outputs.push_back(ValueInfo{"r1", ValueKind::kTensor, DataType::kFloat, false, {}});
  return g;
}

// 8 threads x 200 runs, each thread stepping through four input shapes from
// its own starting point, so runs of different plans (and the first runs of
// each shape, which make its plan) overlap.
TEST(ConcurrencyStress, EightThreadsDynamicShapesBitIdentical) {
  const std::vector<std::vector<int64_t>> shapes = {{1, 4, 8, 8}, {2, 4, 5, 7}, {3, 4, 16, 12}, {1, 4, 1, 1}};
  std::vector<TensorMap> in;
  for (size_t k = 0; k < shapes.size(); ++k) in.push_back({{"x", patterned(shapes[k], 0.1f * float(k + 1))}});

  // The reference: a Session of its own, one run per shape, one thread.
  std::vector<std::vector<Tensor>> reference;
  {
    Session single(wrap(stressGraph()));
    for (const TensorMap& m : in) {
      std::vector<Tensor> out = single.run(m);
      ASSERT_EQ(out.size(), 2u);
      for (Tensor& t : out) t = t.clone();
      reference.push_back(std::move(out));
    }
  }
  // Softmax rows sum to 1, and the Relu output has the input's N, H and W.
  for (size_t k = 0; k < shapes.size(); ++k) {
    const Tensor& y = reference[k][0];
    ASSERT_EQ(y.shape(), (std::vector<int64_t>{shapes[k][0], 5}));
    for (int64_t n = 0; n < shapes[k][0]; ++n) {
      float s = 0;
      for (int j = 0; j < 5; ++j) s += y.data<float>()[n * 5 + j];
      EXPECT_NEAR(s, 1.f, 1e-5f) << "shape " << k << " row " << n;
    }
    EXPECT_EQ(reference[k][1].shape(), (std::vector<int64_t>{shapes[k][0], 8, shapes[k][2], shapes[k][3]}));
  }

  SessionOptions opts;
  opts.threads = 2;  // the callers share one pool of two
  Session session(wrap(stressGraph()), opts);
  constexpr int kThreads = 8, kRuns = 200;
  std::mutex mu;
  std::vector<std::string> failures;
  std::atomic<int> matched{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRuns; ++i) {
        const size_t k = static_cast<size_t>(t + i) % shapes.size();
        std::string failure;
        try {
          const std::vector<Tensor> out = session.run(in[k]);
          if (out.size() != 2) failure = std::to_string(out.size()) + " outputs";
          for (size_t j = 0; j < out.size() && failure.empty(); ++j) {
            const Tensor& ref = reference[k][j];
            if (out[j].dtype() != ref.dtype() || out[j].shape() != ref.shape())
              failure = "output " + std::to_string(j) + " has shape " + shapeToString(out[j].shape()) +
                        ", expected " + shapeToString(ref.shape());
            else if (std::memcmp(out[j].data(), ref.data(), ref.nbytes()) != 0)
              failure = "output " + std::to_string(j) + " differs from the single-threaded run";
          }
        } catch (const std::exception& e) {
          failure = std::string("exception: ") + e.what();
        }
        if (failure.empty()) {
          matched.fetch_add(1);
        } else {
          std::lock_guard<std::mutex> lock(mu);
          failures.push_back("thread " + std::to_string(t) + " run " + std::to_string(i) + " (shape " +
                             shapeToString(shapes[k]) + "): " + failure);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::string all;
  for (size_t f = 0; f < failures.size() && f < 20; ++f) all += failures[f] + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << kThreads * kRuns << " runs failed:\n" << all;
  EXPECT_EQ(matched.load(), kThreads * kRuns);
}

}  // namespace
}  // namespace oinfer
