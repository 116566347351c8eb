// Helpers shared by the ai.onnx.ml kernels (ml_tree.cpp, ml.cpp): attribute
// readers that accept both the list form and the `*_as_tensor` form, and the
// score post-transforms (NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT) with
// the conventions onnxruntime uses, so scores match it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/registry.h"

namespace oinfer::ml {

inline constexpr const char* kDomain = "ai.onnx.ml";

// The registry entry of an ai.onnx.ml op.
inline OpDef mlOp(const char* op, int version, shape::ShapeFn fn, KernelFactory cpu, std::vector<DataType> types) {
  OpDef d;
  d.domain = kDomain;
  d.opType = op;
  d.sinceVersion = version;
  d.shape = std::move(fn);
  d.cpu = std::move(cpu);
  d.types = std::move(types);
  return d;
}

enum class PostTransform { kNone, kSoftmax, kLogistic, kSoftmaxZero, kProbit };

// From the string attribute `post_transform` (v1..v3 ops).
inline PostTransform parsePostTransform(const KernelInit& init, const std::string& s) {
  if (s == "NONE") return PostTransform::kNone;
  if (s == "SOFTMAX") return PostTransform::kSoftmax;
  if (s == "LOGISTIC") return PostTransform::kLogistic;
  if (s == "SOFTMAX_ZERO") return PostTransform::kSoftmaxZero;
  if (s == "PROBIT") return PostTransform::kProbit;
  init.fail("attribute 'post_transform' must be NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO or PROBIT, got '" + s + "'");
}

// A float list attribute `name`, or its `name_as_tensor` form (float or
// double); empty when neither is given. Both given is an Error.
inline std::vector<double> attrReals(const KernelInit& init, const std::string& name) {
  const Node& n = init.node;
  const Tensor* t = n.attrTensor(name + "_as_tensor");
  if (t && n.hasAttr(name)) init.fail("attributes '" + name + "' and '" + name + "_as_tensor' are both given");
  std::vector<double> out;
  if (t) {
    if (t->dtype() == DataType::kFloat) {
      for (int64_t i = 0; i < t->numel(); ++i) out.push_back(t->data<float>()[i]);
    } else if (t->dtype() == DataType::kDouble) {
      out.assign(t->data<double>(), t->data<double>() + t->numel());
    } else {
      init.fail("attribute '" + name + "_as_tensor' must be a float or double tensor, got " +
                dataTypeName(t->dtype()));
    }
    return out;
  }
  for (float f : n.attrFloats(name)) out.push_back(f);
  return out;
}

// A tensor attribute of any real type (v5 TreeEnsemble) as doubles.
inline std::vector<double> tensorReals(const KernelInit& init, const std::string& name, bool required) {
  const Tensor* t = init.node.attrTensor(name);
  std::vector<double> out;
  if (!t) {
    if (required) init.fail("attribute '" + name + "' is required");
    return out;
  }
  switch (t->dtype()) {
    case DataType::kFloat:
      for (int64_t i = 0; i < t->numel(); ++i) out.push_back(t->data<float>()[i]);
      break;
    case DataType::kDouble: out.assign(t->data<double>(), t->data<double>() + t->numel()); break;
    default:
      init.fail("attribute '" + name + "' must be a float or double tensor, got " + dataTypeName(t->dtype()));
  }
  return out;
}

inline double logistic(double x) {
  return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x));
}

// sqrt(2) * erfinv(2p - 1) with Winitzki's closed-form erfinv (a = 0.147),
// the approximation onnxruntime uses, so PROBIT scores agree with it.
inline double probit(double p) {
  const float x = static_cast<float>(2 * p - 1);
  const float sgn = x < 0 ? -1.f : 1.f;
  const float ln = std::log((1 - x) * (1 + x));
  const float a = 2 / (3.14159f * 0.147f) + 0.5f * ln;
  const float b = 1 / 0.147f * ln;
  return 1.41421356 * static_cast<double>(sgn * std::sqrt(-a + std::sqrt(a * a - b)));
}

// Applies `pt` in place to one row of scores.
inline void postTransform(PostTransform pt, double* s, int64_t n) {
  switch (pt) {
    case PostTransform::kNone: return;
    case PostTransform::kLogistic:
      for (int64_t i = 0; i < n; ++i) s[i] = logistic(s[i]);
      return;
    case PostTransform::kProbit:
      for (int64_t i = 0; i < n; ++i) s[i] = probit(s[i]);
      return;
    case PostTransform::kSoftmax: {
      double m = -INFINITY, sum = 0;
      for (int64_t i = 0; i < n; ++i) m = std::max(m, s[i]);
      for (int64_t i = 0; i < n; ++i) sum += (s[i] = std::exp(s[i] - m));
      for (int64_t i = 0; i < n; ++i) s[i] /= sum;
      return;
    }
    case PostTransform::kSoftmaxZero: {  // zeros stay zero and take no share
      double m = -INFINITY, sum = 0;
      for (int64_t i = 0; i < n; ++i)
        if (s[i] != 0) m = std::max(m, s[i]);
      for (int64_t i = 0; i < n; ++i) sum += (s[i] = s[i] == 0 ? 0 : std::exp(s[i] - m));
      // All zeros: 0 / 0, NaN, as onnxruntime writes.
      for (int64_t i = 0; i < n; ++i) s[i] /= sum;
      return;
    }
  }
}

// Rows and columns of a [N, C] (or [C]: one row) feature input.
inline void rowsCols(const Tensor& X, int64_t& rows, int64_t& cols) {
  if (X.rank() == 0) { rows = 1; cols = 1; return; }
  cols = X.dim(X.rank() - 1);
  rows = cols == 0 ? 0 : X.numel() / cols;
  if (X.rank() == 1) rows = 1;
}

// Element i of a numeric tensor as a double.
inline double realAt(const Tensor& X, int64_t i) {
  switch (X.dtype()) {
    case DataType::kFloat: return X.data<float>()[i];
    case DataType::kDouble: return X.data<double>()[i];
    case DataType::kInt64: return static_cast<double>(X.data<int64_t>()[i]);
    case DataType::kInt32: return X.data<int32_t>()[i];
    default: return 0;
  }
}

}  // namespace oinfer::ml
