// Whole-model tests against onnxruntime references. The models and data are
// made by scripts/gen_test_models.py (see tests/data/models/README.md).
#include <gtest/gtest.h>

#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model_test_util.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "ir_util.h"

namespace oinfer::modeltest {
namespace {

// One Session per optimization level runs every data set, then the first set
// again, so a plan cached for a later shape cannot leak into an earlier one.
void checkModel(const std::string& name) {
  const std::vector<DataSet> sets = loadNumberedDataSets(name);
  ASSERT_FALSE(sets.empty()) << "no test_data_set_0 under " << modelDir(name);
  for (int level : {0, 1, 2}) {
    SCOPED_TRACE(name + " optimizationLevel " + std::to_string(level));
    SessionOptions opts;
    opts.optimizationLevel = level;
    Session session(Graph::loadFromONNX(modelPath(name)), opts);
    ASSERT_EQ(irOf(session.graph()).inputs.size(), sets[0].inputs.size()) << "graph inputs vs data set inputs";
    for (size_t k = 0; k < sets.size(); ++k) runAndCompare(session, sets[k], "data set " + std::to_string(k));
    runAndCompare(session, sets[0], "data set 0 again");
  }
}

TEST(ModelTest, ResNetBatchNorm) { checkModel("resnet_bn"); }

// If / Loop / Scan with outer-scope values and a nested If, sequences and
// optionals; data sets take both branches and run the loop 4, 3 and 0 times.
TEST(ModelTest, ControlFlowAndSequences) { checkModel("control_flow"); }

TEST(ModelTest, MobileNetV2DynamicBatch) { checkModel("mobilenetv2"); }

TEST(ModelTest, SrcnnFixedUpscale) { checkModel("srcnn_fixed"); }

TEST(ModelTest, SrcnnFixedUpscaleOpset11) { checkModel("srcnn_fixed_opset11"); }

// Upscale factor is a graph input: the Resize output shape is only known at
// run time, and H, W are symbolic.
TEST(ModelTest, SrcnnUpscaleAsInput) { checkModel("srcnn_dynamic"); }

// Dynamic batch and sequence in one Session: (1, 8), (2, 13), then both again.
TEST(ModelTest, TransformerEncoderTwoShapesOneSession) {
  const std::vector<DataSet> sets = loadNumberedDataSets("transformer_encoder");
  ASSERT_EQ(sets.size(), 2u);
  ASSERT_EQ(sets[0].inputs[0].shape(), (std::vector<int64_t>{1, 8}));
  ASSERT_EQ(sets[1].inputs[0].shape(), (std::vector<int64_t>{2, 13}));
  for (int level : {0, 1, 2}) {
    SCOPED_TRACE("optimizationLevel " + std::to_string(level));
    SessionOptions opts;
    opts.optimizationLevel = level;
    Session session(Graph::loadFromONNX(modelPath("transformer_encoder")), opts);
    runAndCompare(session, sets[0], "batch 1, seq 8");
    runAndCompare(session, sets[1], "batch 2, seq 13");
    runAndCompare(session, sets[0], "batch 1, seq 8 after (2, 13)");
    runAndCompare(session, sets[1], "batch 2, seq 13 again");
  }
}

// A dynamic model infers fully before any input arrives: the Shape -> Gather
// -> Concat chains that feed Reshape carry the symbols through.
TEST(ModelTest, TransformerEncoderInfersSymbolicShapes) {
  ir::Graph g = loadIr(modelPath("transformer_encoder"));
  inferShapes(g);
  for (const char* name : {"embedded", "encoded"}) {
    const ValueInfo* vi = g.findValue(name);
    ASSERT_NE(vi, nullptr) << name;
    ASSERT_TRUE(vi->hasShape) << name;
    EXPECT_EQ(shapeToString(vi->shape), "[batch,seq,64]") << name;
    EXPECT_EQ(vi->dtype, DataType::kFloat) << name;
  }
  const ValueInfo* probs = g.findValue("attention_probs");
  ASSERT_NE(probs, nullptr);
  ASSERT_TRUE(probs->hasShape);
  EXPECT_EQ(shapeToString(probs->shape), "[batch,4,seq,seq]");
}

// The Resize scales come from a graph input, so no output dim is known before
// the run (a scale may apply to any axis), but the rank is.
TEST(ModelTest, SrcnnUpscaleAsInputKeepsRank) {
  ir::Graph g = loadIr(modelPath("srcnn_dynamic"));
  inferShapes(g);
  for (const char* name : {"upscaled", "hr"}) {
    const ValueInfo* vi = g.findValue(name);
    ASSERT_NE(vi, nullptr) << name;
    ASSERT_TRUE(vi->hasShape) << name;
    EXPECT_EQ(vi->shape.size(), 4u) << name << " " << shapeToString(vi->shape);
    EXPECT_EQ(vi->dtype, DataType::kFloat) << name;
  }
}

// 8 threads share one Session and alternate between batch 1 and batch 2, so
// runs of two plans overlap; each result must equal the single-threaded one
// bit for bit (a run owns its arena; nothing is shared between runs).
TEST(ModelTest, MobileNetConcurrentRunsMatchSingleThreaded) {
  const std::vector<DataSet> sets = loadNumberedDataSets("mobilenetv2");
  ASSERT_EQ(sets.size(), 2u);
  Session session(Graph::loadFromONNX(modelPath("mobilenetv2")));
  std::vector<TensorMap> in;
  std::vector<Tensor> reference;
  for (const DataSet& ds : sets) {
    in.push_back(feeds(irOf(session.graph()), ds.inputs));
    std::vector<Tensor> out = session.run(in.back());
    ASSERT_EQ(out.size(), 1u);
    ASSERT_TRUE(allClose(out[0], ds.outputs[0], "single-threaded reference"));
    reference.push_back(out[0].clone());
  }

  constexpr int kThreads = 8, kIterations = 5;
  std::mutex mu;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int it = 0; it < kIterations; ++it) {
        const size_t k = static_cast<size_t>(t + it) % in.size();
        std::string failure;
        try {
          std::vector<Tensor> out = session.run(in[k]);
          const Tensor& ref = reference[k];
          if (out.size() != 1 || out[0].shape() != ref.shape() ||
              std::memcmp(out[0].data(), ref.data(), ref.nbytes()) != 0) {
            auto r = allClose(out.empty() ? Tensor() : out[0], ref, "output", 0, 0);
            failure = r ? "values differ from the reference" : r.message();
          }
        } catch (const std::exception& e) {
          failure = std::string("exception: ") + e.what();
        }
        if (!failure.empty()) {
          std::lock_guard<std::mutex> lock(mu);
          failures.push_back("thread " + std::to_string(t) + " iteration " + std::to_string(it) + " (data set " +
                             std::to_string(k) + "): " + failure);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::string all;
  for (const auto& f : failures) all += f + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << kThreads * kIterations << " runs failed:\n" << all;
}

// Session::run with explicit names returns an intermediate tensor (and a
// graph output) in the requested order; the reference comes from onnxruntime
// on a copy of the model that exposes the intermediate as an output.
TEST(ModelTest, FetchIntermediateTensor) {
  const DataSet ds = loadDataSet(modelDir("resnet_bn") + "/test_data_set_fetch");
  ASSERT_EQ(ds.outputs.size(), 2u);
  for (int level : {0, 1}) {
    SCOPED_TRACE("optimizationLevel " + std::to_string(level));
    SessionOptions opts;
    opts.optimizationLevel = level;
    Session session(Graph::loadFromONNX(modelPath("resnet_bn")), opts);
    const TensorMap in = feeds(irOf(session.graph()), ds.inputs);

    std::vector<Tensor> both = session.run(in, {"block1_out", "probs"});
    ASSERT_EQ(both.size(), 2u);
    EXPECT_TRUE(allClose(both[0], ds.outputs[0], "fetched 'block1_out'"));
    EXPECT_TRUE(allClose(both[1], ds.outputs[1], "fetched 'probs'"));

    std::vector<Tensor> only = session.run(in, {"block1_out"});
    ASSERT_EQ(only.size(), 1u);
    EXPECT_TRUE(allClose(only[0], ds.outputs[0], "fetched 'block1_out' alone"));

    // The fetched tensor belongs to the caller: a later run must not overwrite it.
    const Tensor keep = only[0];
    const Tensor copy = keep.clone();
    const DataSet other = loadDataSet(modelDir("resnet_bn") + "/test_data_set_1");
    session.run(feeds(irOf(session.graph()), other.inputs), {"block1_out"});
    session.run(feeds(irOf(session.graph()), other.inputs));
    EXPECT_TRUE(allClose(keep, copy, "fetched tensor after later runs", 0, 0));

    std::vector<Tensor> plain = session.run(in);
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_TRUE(allClose(plain[0], ds.outputs[1], "plain run after fetches"));
  }
}

// Error text of `f`, which must throw Error(kInvalidArgument).
template <class F>
std::string invalidArgument(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no Error thrown";
  return "";
}

// conv_2 (Conv_3's output) and batchnormalization_8 are gone at level 1: the
// BatchNormalization is folded into the Conv, and the Conv fused with the
// Relu and the MaxPool. SessionOptions::keepValues keeps them, computed as an
// optimizationLevel-0 session computes them; without it the error says why.
TEST(ModelTest, FetchValueTheFusionsWouldRemove) {
  const DataSet ds = loadDataSet(modelDir("resnet_bn") + "/test_data_set_0");
  const std::vector<std::string> names = {"conv_2", "batchnormalization_8", "relu_10", "probs"};
  SessionOptions o0;
  o0.optimizationLevel = 0;
  Session ref(Graph::loadFromONNX(modelPath("resnet_bn")), o0);
  const TensorMap in = feeds(irOf(ref.graph()), ds.inputs);
  const std::vector<Tensor> want = ref.run(in, names);

  Session plain(Graph::loadFromONNX(modelPath("resnet_bn")));
  EXPECT_NE(invalidArgument([&] { plain.run(in, {"probs", "batchnormalization_8"}); })
                .find("unknown output 'batchnormalization_8': the graph passes fused it away"),
            std::string::npos);
  EXPECT_NE(invalidArgument([&] { plain.run(in, {"conv2"}); })
                .find("unknown output 'conv2': not a value of the model (did you mean 'conv_2'?)"),
            std::string::npos);
  EXPECT_TRUE(allClose(plain.run(in)[0], ds.outputs[0], "plain session after the errors"));

  SessionOptions keep;
  keep.keepValues = {"conv_2", "batchnormalization_8", "relu_10"};
  Session kept(Graph::loadFromONNX(modelPath("resnet_bn")), keep);
  bool anyFused = false;
  for (const auto& n : irOf(kept.graph()).nodes) anyFused |= n.domain == "ai.oinfer";
  EXPECT_TRUE(anyFused) << "the other nodes are still optimized";
  EXPECT_EQ(irOf(kept.graph()).outputs.size(), 1u) << "kept values are not graph outputs";
  const std::vector<Tensor> got = kept.run(in, names);
  ASSERT_EQ(got.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) EXPECT_TRUE(allClose(got[i], want[i], "kept '" + names[i] + "'"));
  EXPECT_TRUE(allClose(got[3], ds.outputs[0], "probs with values kept"));
  EXPECT_TRUE(allClose(kept.run(in)[0], ds.outputs[0], "plain run with values kept"));

  // A name asked for twice comes back twice.
  const std::vector<Tensor> twice = kept.run(in, {"conv_2", "probs", "conv_2"});
  ASSERT_EQ(twice.size(), 3u);
  EXPECT_TRUE(allClose(twice[2], want[0], "conv_2 the second time", 0, 0));

  // fp16 casts a kept float32 value back, like an output.
  SessionOptions half;
  half.fp16 = true;
  half.keepValues = {"conv_2"};
  Session h(Graph::loadFromONNX(modelPath("resnet_bn")), half);
  const std::vector<Tensor> hv = h.run(in, {"conv_2"});
  ASSERT_EQ(hv.size(), 1u);
  EXPECT_EQ(hv[0].dtype(), DataType::kFloat);
  EXPECT_TRUE(allClose(hv[0], want[0], "conv_2 in float16", 2e-2, 2e-2));

  for (const auto& [bad, why] : std::vector<std::pair<std::string, std::string>>{
           {"conv2", "'conv2' is not a value of the model (did you mean 'conv_2'?)"},
           {"conv_w_1", "'conv_w_1' is a weight (initializer), not a computed value"}}) {
    SessionOptions o;
    o.keepValues = {bad};
    EXPECT_NE(invalidArgument([&] { Session s(Graph::loadFromONNX(modelPath("resnet_bn")), o); })
                  .find("SessionOptions::keepValues: " + why),
              std::string::npos);
  }
}

size_t initializerBytes(const ir::Graph& g) {
  size_t n = 0;
  for (const auto& [name, t] : g.initializers) n += t.nbytes();
  return n;
}

TEST(ModelTest, MemoryStats) {
  const DataSet ds = loadDataSet(modelDir("resnet_bn") + "/test_data_set_0");
  const ir::Graph file = loadIr(modelPath("resnet_bn"));
  const size_t fileWeights = initializerBytes(file);
  ASSERT_GT(fileWeights, 0u);
  for (int level : {0, 1}) {
    SCOPED_TRACE("optimizationLevel " + std::to_string(level));
    SessionOptions opts;
    opts.optimizationLevel = level;
    Session session(Graph::loadFromONNX(modelPath("resnet_bn")), opts);
    session.run(feeds(irOf(session.graph()), ds.inputs));
    const MemoryStats s = session.memoryStats();
    EXPECT_GT(s.lowerBoundBytes, 0u);
    EXPECT_GE(s.arenaBytes, s.lowerBoundBytes);
    EXPECT_EQ(s.weightBytes, initializerBytes(irOf(session.graph())));
    if (level == 0) {
      EXPECT_EQ(s.weightBytes, fileWeights);
      // While the stem's MaxPool runs, its [1,16,32,32] float input is live.
      EXPECT_GE(s.lowerBoundBytes, size_t{16 * 32 * 32 * 4});
    }
  }
}

}  // namespace
}  // namespace oinfer::modeltest
