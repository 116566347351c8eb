// Shared helpers of the model tests: loading the ONNX backend test layout
// (model.onnx + test_data_set_<k>/input_<i>.pb, output_<j>.pb) and comparing
// outputs with the model-test tolerance.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "oinfer/tensor.h"
#include "oinfer/tensor_io.h"
#include "ir_util.h"

namespace oinfer::modeltest {

// Deterministic weights and inputs for hand-built graphs.
inline Tensor patterned(std::vector<int64_t> shape, float scale) {
  Tensor t(DataType::kFloat, std::move(shape));
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = scale * float((i * 7919) % 13 - 6);
  return t;
}

// A node named after its first output.
inline Node opNode(const std::string& op, std::vector<std::string> in, std::vector<std::string> out) {
  Node n;
  n.opType = op;
  n.name = out[0];
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

// The ONNX backend tolerances used for whole models (see ARCHITECTURE.md:
// results must match ONNX Runtime; accumulation order differs across a model).
inline constexpr double kRtol = 1e-3;
inline constexpr double kAtol = 1e-5;

inline std::string modelDir(const std::string& name) {
  return std::string(OINFER_TEST_DATA_DIR) + "/models/" + name;
}

inline std::string modelPath(const std::string& name) { return modelDir(name) + "/model.onnx"; }

struct DataSet {
  std::string dir;
  std::vector<Tensor> inputs;   // graph-input order
  std::vector<Tensor> outputs;  // graph-output order
};

inline DataSet loadDataSet(const std::string& dir) {
  namespace fs = std::filesystem;
  DataSet ds;
  ds.dir = dir;
  for (int i = 0; fs::exists(dir + "/input_" + std::to_string(i) + ".pb"); ++i)
    ds.inputs.push_back(loadTensorProto(dir + "/input_" + std::to_string(i) + ".pb"));
  for (int j = 0; fs::exists(dir + "/output_" + std::to_string(j) + ".pb"); ++j)
    ds.outputs.push_back(loadTensorProto(dir + "/output_" + std::to_string(j) + ".pb"));
  return ds;
}

// test_data_set_0, _1, ... (the numbered ones; named sets such as
// test_data_set_fetch are loaded by the tests that use them).
inline std::vector<DataSet> loadNumberedDataSets(const std::string& model) {
  std::vector<DataSet> sets;
  for (int k = 0;; ++k) {
    const std::string dir = modelDir(model) + "/test_data_set_" + std::to_string(k);
    if (!std::filesystem::exists(dir)) break;
    sets.push_back(loadDataSet(dir));
  }
  return sets;
}

// Feeds in graph-input order, as the backend test layout numbers them.
inline TensorMap feeds(const ir::Graph& graph, const std::vector<Tensor>& inputs) {
  TensorMap m;
  for (size_t i = 0; i < inputs.size() && i < graph.inputs.size(); ++i) m[graph.inputs[i].name] = inputs[i];
  return m;
}

inline std::string indexString(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = shape[k] ? flat % shape[k] : 0;
    flat = shape[k] ? flat / shape[k] : 0;
  }
  return shapeToString(idx);
}

// |a - e| <= atol + rtol * |e| elementwise (float32 outputs; other dtypes exact).
inline ::testing::AssertionResult allClose(const Tensor& actual, const Tensor& expected, const std::string& what,
                                           double rtol = kRtol, double atol = kAtol) {
  if (!actual.defined()) return ::testing::AssertionFailure() << what << ": output tensor is undefined";
  if (actual.dtype() != expected.dtype())
    return ::testing::AssertionFailure() << what << ": dtype " << dataTypeName(actual.dtype()) << ", expected "
                                         << dataTypeName(expected.dtype());
  if (actual.shape() != expected.shape())
    return ::testing::AssertionFailure() << what << ": shape " << shapeToString(actual.shape()) << ", expected "
                                         << shapeToString(expected.shape());
  if (expected.dtype() == DataType::kString) {
    for (int64_t i = 0; i < expected.numel(); ++i)
      if (actual.data<std::string>()[i] != expected.data<std::string>()[i])
        return ::testing::AssertionFailure() << what << ": string at " << indexString(i, expected.shape()) << " is '"
                                             << actual.data<std::string>()[i] << "', expected '"
                                             << expected.data<std::string>()[i] << "'";
    return ::testing::AssertionSuccess();
  }
  if (expected.dtype() != DataType::kFloat) {
    if (actual.nbytes() == expected.nbytes() && std::memcmp(actual.data(), expected.data(), actual.nbytes()) == 0)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": " << dataTypeName(actual.dtype()) << " values differ";
  }
  const float* a = actual.data<float>();
  const float* e = expected.data<float>();
  double maxAbs = 0, maxRel = 0;
  int64_t bad = 0, first = -1, worst = 0;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    const double d = std::fabs(static_cast<double>(a[i]) - e[i]);
    const bool ok = d <= atol + rtol * std::fabs(static_cast<double>(e[i]));  // false for NaN
    if (!(d <= maxAbs)) {
      maxAbs = std::isnan(d) ? INFINITY : d;
      worst = i;
    }
    if (std::fabs(e[i]) > 1e-3) maxRel = std::max(maxRel, d / std::fabs(static_cast<double>(e[i])));
    if (!ok) {
      ++bad;
      if (first < 0) first = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": " << bad << " of " << expected.numel() << " elements outside |a-e| <= " << atol << " + "
         << rtol << "*|e|; max abs error " << maxAbs << " at " << indexString(worst, expected.shape()) << " (got "
         << a[worst] << ", expected " << e[worst] << "); first mismatch at " << indexString(first, expected.shape())
         << " (got " << a[first] << ", expected " << e[first] << "); max rel error " << maxRel;
}

// Runs one data set and compares every output.
inline void runAndCompare(Session& session, const DataSet& ds, const std::string& label) {
  SCOPED_TRACE(label + " (" + ds.dir + ")");
  std::vector<Tensor> out = session.run(feeds(irOf(session.graph()), ds.inputs));
  ASSERT_EQ(out.size(), ds.outputs.size()) << "number of outputs";
  for (size_t j = 0; j < out.size(); ++j)
    EXPECT_TRUE(allClose(out[j], ds.outputs[j], "output " + std::to_string(j) + " '" +
                                                     irOf(session.graph()).outputs[j].name + "'"));
}

}  // namespace oinfer::modeltest
