// The ai.onnx.ml ops other than the tree ensembles (ml_tree.cpp):
// LinearClassifier, LinearRegressor, Scaler, Normalizer, Binarizer, Imputer,
// LabelEncoder (1, 2, 4), ArrayFeatureExtractor, OneHotEncoder,
// CategoryMapper, FeatureVectorizer; ZipMap is registered so that its error
// says what to do (export with zipmap=False).
//
// Semantics follow the ONNX spec; where the spec is silent the conventions
// are onnxruntime's (the reference for skl2onnx / onnxmltools models):
// LinearClassifier with one coefficient row and two labels writes the scores
// [1 - t, t] (t the transformed score) and picks the label by score > 0.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "ops/cpu/ml_common.h"
#include "ops/registry.h"
#include "shape/ml.h"

namespace oinfer {
namespace {

using ml::PostTransform;

std::unique_ptr<Kernel> noKernel(const KernelInit& init) {
  init.fail("ZipMap (a sequence of maps) is not supported; export the classifier with zipmap=False");
}

// ---- Linear models --------------------------------------------------------

class LinearKernel final : public Kernel {
 public:
  LinearKernel(const KernelInit& init, bool classifier) : classifier_(classifier) {
    const Node& n = init.node;
    coef_ = n.attrFloats("coefficients");
    icpt_ = n.attrFloats("intercepts");
    pt_ = ml::parsePostTransform(init, n.attrString("post_transform", "NONE"));
    if (coef_.empty()) init.fail("attribute 'coefficients' is required");
    if (classifier) {
      intLabels_ = n.attrInts("classlabels_ints");
      strLabels_ = n.attrStrings("classlabels_strings");
      if (intLabels_.empty() == strLabels_.empty())
        init.fail("exactly one of 'classlabels_ints' and 'classlabels_strings' must be given and non-empty");
      const int64_t labels = static_cast<int64_t>(strLabels_.empty() ? intLabels_.size() : strLabels_.size());
      rowsW_ = static_cast<int64_t>(icpt_.size());
      if (rowsW_ == 0) init.fail("attribute 'intercepts' is required");
      secondClass_ = rowsW_ == 1 && labels == 2;
      if (rowsW_ > 1 && rowsW_ != labels)
        init.fail("attribute 'intercepts' has " + std::to_string(rowsW_) + " values for " + std::to_string(labels) +
                  " class labels");
    } else {
      rowsW_ = n.attrInt("targets", 1);
      if (rowsW_ < 1) init.fail("attribute 'targets' must be >= 1, got " + std::to_string(rowsW_));
      if (!icpt_.empty() && static_cast<int64_t>(icpt_.size()) != rowsW_)
        init.fail("attribute 'intercepts' has " + std::to_string(icpt_.size()) + " values for " +
                  std::to_string(rowsW_) + " targets");
    }
    if (static_cast<int64_t>(coef_.size()) % rowsW_ != 0)
      init.fail("attribute 'coefficients' has " + std::to_string(coef_.size()) + " values, not a multiple of " +
                std::to_string(rowsW_));
    features_ = static_cast<int64_t>(coef_.size()) / rowsW_;
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    if (cols != features_)
      ctx.fail("input 'X' has " + std::to_string(cols) + " features but the coefficients expect " +
               std::to_string(features_));
    const int64_t K = rowsW_;
    const int64_t outK = secondClass_ ? 2 : K;
    float* z = classifier_ ? (ctx.hasOutput(1) ? ctx.output(1).data<float>() : nullptr) : ctx.output(0).data<float>();
    Tensor* Y = classifier_ ? &ctx.output(0) : nullptr;
    ctx.pool().parallelFor(rows, [&](int64_t b, int64_t e) {
      std::vector<double> s(static_cast<size_t>(outK));
      for (int64_t r = b; r < e; ++r) {
        for (int64_t k = 0; k < K; ++k) {
          double acc = icpt_.empty() ? 0.0 : icpt_[k];
          for (int64_t c = 0; c < cols; ++c) acc += static_cast<double>(coef_[k * cols + c]) * ml::realAt(X, r * cols + c);
          s[k] = acc;
        }
        if (classifier_) {
          int64_t label = 0;
          if (K == 1) {
            label = s[0] > 0 ? 1 : 0;
          } else {
            for (int64_t k = 1; k < K; ++k)
              if (s[k] > s[label]) label = k;
          }
          if (strLabels_.empty()) Y->data<int64_t>()[r] = K == 1 && intLabels_.size() != 2 ? label : intLabels_[label];
          else Y->data<std::string>()[r] = K == 1 && strLabels_.size() != 2 ? std::to_string(label) : strLabels_[label];
        }
        if (secondClass_) {
          double t = s[0];
          if (pt_ == PostTransform::kLogistic) t = ml::logistic(t);
          else if (pt_ == PostTransform::kProbit) t = ml::probit(t);
          s[0] = 1 - t;
          s[1] = t;
        } else {
          ml::postTransform(pt_, s.data(), K);
        }
        if (z)
          for (int64_t k = 0; k < outK; ++k) z[r * outK + k] = static_cast<float>(s[k]);
      }
    }, 1);
  }

 private:
  bool classifier_;
  std::vector<float> coef_, icpt_;
  std::vector<int64_t> intLabels_;
  std::vector<std::string> strLabels_;
  PostTransform pt_ = PostTransform::kNone;
  int64_t rowsW_ = 1, features_ = 0;
  bool secondClass_ = false;
};

// ---- Scaler, Normalizer, Binarizer, Imputer --------------------------------

// A per-column parameter of 1 or C values.
float perColumn(const std::vector<float>& v, int64_t c) { return v.size() == 1 ? v[0] : v[c]; }

std::unique_ptr<Kernel> makeScaler(const KernelInit& init) {
  std::vector<float> offset = init.node.attrFloats("offset"), scale = init.node.attrFloats("scale");
  if (offset.empty()) offset = {0.f};
  if (scale.empty()) scale = {1.f};
  return makeKernel([offset, scale](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    for (const auto* v : {&offset, &scale})
      if (v->size() != 1 && static_cast<int64_t>(v->size()) != cols)
        ctx.fail("attribute '" + std::string(v == &offset ? "offset" : "scale") + "' has " +
                 std::to_string(v->size()) + " values but input 'X' has " + std::to_string(cols) + " columns");
    float* y = ctx.output(0).data<float>();
    for (int64_t i = 0; i < X.numel(); ++i) {
      const int64_t c = cols ? i % cols : 0;
      y[i] = static_cast<float>((ml::realAt(X, i) - perColumn(offset, c)) * perColumn(scale, c));
    }
  });
}

std::unique_ptr<Kernel> makeNormalizer(const KernelInit& init) {
  const std::string norm = init.node.attrString("norm", "MAX");
  if (norm != "MAX" && norm != "L1" && norm != "L2")
    init.fail("attribute 'norm' must be MAX, L1 or L2, got '" + norm + "'");
  return makeKernel([norm](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    if (X.rank() > 2) ctx.fail("input 'X' must be [N, C] or [C], got shape " + shapeToString(X.shape()));
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    float* y = ctx.output(0).data<float>();
    for (int64_t r = 0; r < rows; ++r) {
      double d = 0;
      for (int64_t c = 0; c < cols; ++c) {
        const double v = ml::realAt(X, r * cols + c);
        if (norm == "MAX") d = c == 0 ? v : std::max(d, v);
        else if (norm == "L1") d += std::abs(v);
        else d += v * v;
      }
      if (norm == "L2") d = std::sqrt(d);
      for (int64_t c = 0; c < cols; ++c) {
        const double v = ml::realAt(X, r * cols + c);
        y[r * cols + c] = static_cast<float>(d == 0 ? v : v / d);
      }
    }
  });
}

template <class T>
void binarize(const Tensor& X, Tensor& Y, float threshold) {
  const T* x = X.data<T>();
  T* y = Y.data<T>();
  for (int64_t i = 0; i < X.numel(); ++i) y[i] = static_cast<double>(x[i]) > threshold ? T(1) : T(0);
}

std::unique_ptr<Kernel> makeBinarizer(const KernelInit& init) {
  const float threshold = init.node.attrFloat("threshold", 0.f);
  return makeKernel([threshold](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    Tensor& Y = ctx.output(0);
    switch (X.dtype()) {
      case DataType::kFloat: binarize<float>(X, Y, threshold); break;
      case DataType::kDouble: binarize<double>(X, Y, threshold); break;
      case DataType::kInt64: binarize<int64_t>(X, Y, threshold); break;
      default: binarize<int32_t>(X, Y, threshold); break;
    }
  });
}

template <class T, class V>
void impute(const Tensor& X, Tensor& Y, const std::vector<V>& values, V replaced, int64_t cols) {
  const T* x = X.data<T>();
  T* y = Y.data<T>();
  const bool nanReplaced = std::isnan(static_cast<double>(replaced));
  for (int64_t i = 0; i < X.numel(); ++i) {
    const T v = x[i];
    const bool hit = nanReplaced ? std::isnan(static_cast<double>(v)) : static_cast<double>(v) == static_cast<double>(replaced);
    y[i] = hit ? static_cast<T>(values.size() == 1 ? values[0] : values[i % cols]) : v;
  }
}

std::unique_ptr<Kernel> makeImputer(const KernelInit& init) {
  const Node& n = init.node;
  const std::vector<float> fv = n.attrFloats("imputed_value_floats");
  const std::vector<int64_t> iv = n.attrInts("imputed_value_int64s");
  if (fv.empty() == iv.empty())
    init.fail("exactly one of 'imputed_value_floats' and 'imputed_value_int64s' must be given and non-empty");
  const float rf = n.attrFloat("replaced_value_float", 0.f);
  const int64_t ri = n.attrInt("replaced_value_int64", 0);
  if (init.hasInput(0)) {
    const DataType dt = init.inputs[0]->dtype;
    const bool isInt = dt == DataType::kInt64 || dt == DataType::kInt32;
    if (isInt == iv.empty())
      init.fail(std::string("input 'X' of type ") + dataTypeName(dt) + " needs '" +
                (isInt ? "imputed_value_int64s" : "imputed_value_floats") + "'");
  }
  return makeKernel([fv, iv, rf, ri](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    const size_t nv = fv.empty() ? iv.size() : fv.size();
    if (nv != 1 && static_cast<int64_t>(nv) != cols)
      ctx.fail("the imputed values hold " + std::to_string(nv) + " values but input 'X' has " +
               std::to_string(cols) + " columns");
    Tensor& Y = ctx.output(0);
    switch (X.dtype()) {
      case DataType::kFloat: impute<float>(X, Y, fv, rf, cols); break;
      case DataType::kDouble: impute<double>(X, Y, fv, rf, cols); break;
      case DataType::kInt64: impute<int64_t>(X, Y, iv, ri, cols); break;
      default: impute<int32_t>(X, Y, iv, ri, cols); break;
    }
  });
}

// ---- LabelEncoder ------------------------------------------------------------

// Keys and values as tensors whatever form the attributes take (opset 1's
// classes_strings, opset 2's keys_* / values_*, opset 4's *_tensor).
class LabelEncoderKernel final : public Kernel {
 public:
  explicit LabelEncoderKernel(const KernelInit& init) {
    const Node& n = init.node;
    const DataType in = init.hasInput(0) ? init.inputs[0]->dtype : DataType::kUndefined;
    Tensor keys, values;
    if (init.opset < 2) {
      const auto classes = n.attrStrings("classes_strings");
      std::vector<int64_t> idx(classes.size());
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int64_t>(i);
      const int64_t len = static_cast<int64_t>(classes.size());
      if (in == DataType::kString) {
        keys = Tensor::fromVector<std::string>({len}, classes);
        values = Tensor::fromVector<int64_t>({len}, idx);
        default_ = Tensor::scalar<int64_t>(n.attrInt("default_int64", -1));
      } else {
        keys = Tensor::fromVector<int64_t>({len}, idx);
        values = Tensor::fromVector<std::string>({len}, classes);
        default_ = Tensor::scalar<std::string>(n.attrString("default_string", "_Unused"));
      }
    } else {
      keys = pick(init, "keys");
      values = pick(init, "values");
      if (const Tensor* d = n.attrTensor("default_tensor")) {
        if (d->numel() != 1) init.fail("attribute 'default_tensor' must hold one value, got " + std::to_string(d->numel()));
        if (d->dtype() != values.dtype())
          init.fail(std::string("attribute 'default_tensor' is ") + dataTypeName(d->dtype()) + " but the values are " +
                    dataTypeName(values.dtype()));
        default_ = d->clone();
      } else {
        switch (values.dtype()) {
          case DataType::kFloat: default_ = Tensor::scalar<float>(n.attrFloat("default_float", -0.f)); break;
          case DataType::kInt64: default_ = Tensor::scalar<int64_t>(n.attrInt("default_int64", -1)); break;
          case DataType::kString: default_ = Tensor::scalar<std::string>(n.attrString("default_string", "_Unused")); break;
          default: default_ = Tensor(values.dtype(), {}); break;
        }
      }
    }
    if (keys.numel() != values.numel())
      init.fail("the keys hold " + std::to_string(keys.numel()) + " entries but the values " +
                std::to_string(values.numel()));
    if (in != DataType::kUndefined && !sameKind(in, keys.dtype()))
      init.fail(std::string("input 'X' is ") + dataTypeName(in) + " but the keys are " + dataTypeName(keys.dtype()));
    values_ = std::move(values);
    // Later duplicates do not replace earlier keys (first wins).
    for (int64_t i = 0; i < keys.numel(); ++i) {
      if (keys.dtype() == DataType::kString) strIndex_.emplace(keys.data<std::string>()[i], i);
      else if (isIntegral(keys.dtype())) intIndex_.emplace(intAt(keys, i), i);
      else {
        const double k = ml::realAt(keys, i);
        if (std::isnan(k)) { if (nanIndex_ < 0) nanIndex_ = i; }
        else realIndex_.emplace(k, i);
      }
    }
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    Tensor& Y = ctx.output(0);
    const size_t es = dataTypeSize(Y.dtype());
    for (int64_t i = 0; i < X.numel(); ++i) {
      int64_t at = -1;
      if (X.dtype() == DataType::kString) {
        auto it = strIndex_.find(X.data<std::string>()[i]);
        if (it != strIndex_.end()) at = it->second;
      } else if (isIntegral(X.dtype())) {
        auto it = intIndex_.find(intAt(X, i));
        if (it != intIndex_.end()) at = it->second;
      } else {
        const double k = ml::realAt(X, i);
        if (std::isnan(k)) at = nanIndex_;
        else if (auto it = realIndex_.find(k); it != realIndex_.end()) at = it->second;
      }
      const Tensor& src = at < 0 ? default_ : values_;
      const int64_t j = at < 0 ? 0 : at;
      if (Y.dtype() == DataType::kString) Y.data<std::string>()[i] = src.data<std::string>()[j];
      else std::memcpy(static_cast<char*>(Y.data()) + i * es, static_cast<const char*>(src.data()) + j * es, es);
    }
  }

 private:
  static bool isIntegral(DataType d) {
    return d == DataType::kInt64 || d == DataType::kInt32 || d == DataType::kInt16 || d == DataType::kInt8 ||
           d == DataType::kUInt8 || d == DataType::kUInt16 || d == DataType::kUInt32 || d == DataType::kUInt64;
  }
  static bool sameKind(DataType a, DataType b) {
    if (a == DataType::kString || b == DataType::kString) return a == b;
    return isIntegral(a) == isIntegral(b);
  }
  static int64_t intAt(const Tensor& t, int64_t i) {
    switch (t.dtype()) {
      case DataType::kInt64: return t.data<int64_t>()[i];
      case DataType::kInt32: return t.data<int32_t>()[i];
      case DataType::kInt16: return t.data<int16_t>()[i];
      case DataType::kInt8: return t.data<int8_t>()[i];
      case DataType::kUInt8: return t.data<uint8_t>()[i];
      case DataType::kUInt16: return t.data<uint16_t>()[i];
      case DataType::kUInt32: return t.data<uint32_t>()[i];
      default: return static_cast<int64_t>(t.data<uint64_t>()[i]);
    }
  }
  // keys_* / values_* (one of floats, int64s, strings, tensor).
  static Tensor pick(const KernelInit& init, const std::string& what) {
    const Node& n = init.node;
    std::vector<std::string> given;
    Tensor out;
    if (const Tensor* t = n.attrTensor(what + "_tensor")) { given.push_back(what + "_tensor"); out = t->clone(); }
    if (auto v = n.attrFloats(what + "_floats"); !v.empty()) {
      given.push_back(what + "_floats");
      out = Tensor::fromVector<float>({static_cast<int64_t>(v.size())}, v);
    }
    if (auto v = n.attrInts(what + "_int64s"); !v.empty()) {
      given.push_back(what + "_int64s");
      out = Tensor::fromVector<int64_t>({static_cast<int64_t>(v.size())}, v);
    }
    if (auto v = n.attrStrings(what + "_strings"); !v.empty()) {
      given.push_back(what + "_strings");
      out = Tensor::fromVector<std::string>({static_cast<int64_t>(v.size())}, v);
    }
    if (given.size() != 1)
      init.fail("exactly one of '" + what + "_floats', '" + what + "_int64s', '" + what + "_strings', '" + what +
                "_tensor' must be given, got " + std::to_string(given.size()));
    return out;
  }

  Tensor values_, default_;
  std::unordered_map<std::string, int64_t> strIndex_;
  std::unordered_map<int64_t, int64_t> intIndex_;
  std::map<double, int64_t> realIndex_;
  int64_t nanIndex_ = -1;
};

// ---- ArrayFeatureExtractor -----------------------------------------------------

std::unique_ptr<Kernel> makeArrayFeatureExtractor(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    const Tensor& I = ctx.input(1);
    if (X.rank() == 0) ctx.fail("input 'X' must have rank >= 1");
    // The indices are read as int64 and the output written as outer x k
    // elements: both checked first (a fuzzed int32 Y was read past its end).
    if (I.dtype() != DataType::kInt64)
      ctx.fail(std::string("input 'Y' must be int64, got ") + dataTypeName(I.dtype()));
    const int64_t last = X.dim(X.rank() - 1);
    const int64_t k = I.numel();
    const int64_t* idx = I.data<int64_t>();
    for (int64_t j = 0; j < k; ++j)
      if (idx[j] < 0 || idx[j] >= last)
        ctx.fail("index " + std::to_string(idx[j]) + " in input 'Y' is outside [0, " + std::to_string(last) + ")");
    const int64_t outer = last == 0 ? 0 : X.numel() / last;
    Tensor& Y = ctx.output(0);
    if (Y.numel() != outer * k || Y.dtype() != X.dtype())
      ctx.fail("output 'Z' is " + std::string(dataTypeName(Y.dtype())) + " " + shapeToString(Y.shape()) + ", expected " +
               std::to_string(outer * k) + " " + dataTypeName(X.dtype()) + " elements");
    const size_t es = dataTypeSize(X.dtype());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j = 0; j < k; ++j) {
        if (X.dtype() == DataType::kString) Y.data<std::string>()[o * k + j] = X.data<std::string>()[o * last + idx[j]];
        else std::memcpy(static_cast<char*>(Y.data()) + (o * k + j) * es,
                         static_cast<const char*>(X.data()) + (o * last + idx[j]) * es, es);
      }
  });
}

// ---- OneHotEncoder, CategoryMapper, FeatureVectorizer -----------------------

std::unique_ptr<Kernel> makeOneHotEncoder(const KernelInit& init) {
  const Node& n = init.node;
  const std::vector<int64_t> ints = n.attrInts("cats_int64s");
  const std::vector<std::string> strs = n.attrStrings("cats_strings");
  if (ints.empty() == strs.empty()) init.fail("exactly one of 'cats_int64s' and 'cats_strings' must be given and non-empty");
  const bool zeros = n.attrInt("zeros", 1) != 0;
  std::unordered_map<std::string, int64_t> smap;
  std::unordered_map<int64_t, int64_t> imap;
  for (size_t i = 0; i < strs.size(); ++i) smap.emplace(strs[i], static_cast<int64_t>(i));
  for (size_t i = 0; i < ints.size(); ++i) imap.emplace(ints[i], static_cast<int64_t>(i));
  const int64_t K = static_cast<int64_t>(strs.empty() ? ints.size() : strs.size());
  const bool stringCats = !strs.empty();
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    if ((X.dtype() == DataType::kString) != stringCats)
      ctx.fail(std::string("input 'X' is ") + dataTypeName(X.dtype()) + " but the categories are " +
               (stringCats ? "strings" : "int64s"));
    float* y = ctx.output(0).data<float>();
    std::fill(y, y + X.numel() * K, 0.f);
    for (int64_t i = 0; i < X.numel(); ++i) {
      int64_t at = -1;
      if (stringCats) {
        auto it = smap.find(X.data<std::string>()[i]);
        if (it != smap.end()) at = it->second;
      } else {
        const double v = ml::realAt(X, i);
        auto it = imap.find(static_cast<int64_t>(v));
        if (it != imap.end() && static_cast<double>(it->first) == v) at = it->second;
      }
      if (at >= 0) y[i * K + at] = 1.f;
      else if (!zeros) ctx.fail("input 'X' holds a value at " + std::to_string(i) + " that is not a category (zeros=0)");
    }
  });
}

std::unique_ptr<Kernel> makeCategoryMapper(const KernelInit& init) {
  const Node& n = init.node;
  const std::vector<int64_t> ints = n.attrInts("cats_int64s");
  const std::vector<std::string> strs = n.attrStrings("cats_strings");
  if (ints.size() != strs.size())
    init.fail("attributes 'cats_int64s' and 'cats_strings' have " + std::to_string(ints.size()) + " and " +
              std::to_string(strs.size()) + " entries");
  std::unordered_map<std::string, int64_t> s2i;
  std::unordered_map<int64_t, std::string> i2s;
  for (size_t i = 0; i < ints.size(); ++i) {
    s2i.emplace(strs[i], ints[i]);
    i2s.emplace(ints[i], strs[i]);
  }
  const int64_t defInt = n.attrInt("default_int64", -1);
  const std::string defStr = n.attrString("default_string", "_Unused");
  return makeKernel([=](KernelContext& ctx) {
    const Tensor& X = ctx.input(0);
    Tensor& Y = ctx.output(0);
    for (int64_t i = 0; i < X.numel(); ++i) {
      if (X.dtype() == DataType::kString) {
        auto it = s2i.find(X.data<std::string>()[i]);
        Y.data<int64_t>()[i] = it == s2i.end() ? defInt : it->second;
      } else {
        auto it = i2s.find(X.data<int64_t>()[i]);
        Y.data<std::string>()[i] = it == i2s.end() ? defStr : it->second;
      }
    }
  });
}

std::unique_ptr<Kernel> makeFeatureVectorizer(const KernelInit& init) {
  const std::vector<int64_t> dims = init.node.attrInts("inputdimensions");
  if (dims.size() != init.node.inputs.size())
    init.fail("attribute 'inputdimensions' has " + std::to_string(dims.size()) + " entries for " +
              std::to_string(init.node.inputs.size()) + " inputs");
  for (int64_t d : dims)
    if (d < 0) init.fail("attribute 'inputdimensions' holds a negative size " + std::to_string(d));
  return makeKernel([dims](KernelContext& ctx) {
    Tensor& Y = ctx.output(0);
    const int64_t total = Y.rank() ? Y.dim(Y.rank() - 1) : 1;
    const int64_t rows = total ? Y.numel() / total : 0;
    float* y = Y.data<float>();
    int64_t at = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
      const Tensor& X = ctx.input(i);
      int64_t xr, xc;
      ml::rowsCols(X, xr, xc);
      if (xr != rows) ctx.fail("input " + std::to_string(i) + " has " + std::to_string(xr) + " rows, expected " + std::to_string(rows));
      // Each input gives its first inputdimensions[i] columns, zero-padded.
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < dims[i]; ++c)
          y[r * total + at + c] = c < xc ? static_cast<float>(ml::realAt(X, r * xc + c)) : 0.f;
      at += dims[i];
    }
  });
}

}  // namespace

void register_ml(Registry& r) {
  const std::vector<DataType> num{DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32};
  auto add = [&](const char* op, int v, shape::ShapeFn fn, KernelFactory k, std::vector<DataType> types) {
    r.add(ml::mlOp(op, v, fn, std::move(k), std::move(types)));
  };
  add("LinearClassifier", 1, shape::inferLinearClassifier,
      [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<LinearKernel>(i, true); }, num);
  add("LinearRegressor", 1, shape::inferLinearRegressor,
      [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<LinearKernel>(i, false); }, num);
  add("Scaler", 1, shape::inferToFloatSameShape, makeScaler, num);
  add("Normalizer", 1, shape::inferToFloatSameShape, makeNormalizer, num);
  add("Binarizer", 1, shape::inferMlSameAsInput, makeBinarizer, num);
  add("Imputer", 1, shape::inferMlSameAsInput, makeImputer, num);
  for (int v : {1, 2, 4})
    add("LabelEncoder", v, shape::inferLabelEncoder,
        [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<LabelEncoderKernel>(i); }, {});
  add("ArrayFeatureExtractor", 1, shape::inferArrayFeatureExtractor, makeArrayFeatureExtractor,
      {DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32, DataType::kString});
  add("OneHotEncoder", 1, shape::inferOneHotEncoder, makeOneHotEncoder,
      {DataType::kString, DataType::kInt64, DataType::kInt32, DataType::kFloat, DataType::kDouble});
  add("CategoryMapper", 1, shape::inferCategoryMapper, makeCategoryMapper, {DataType::kString, DataType::kInt64});
  add("FeatureVectorizer", 1, shape::inferFeatureVectorizer, makeFeatureVectorizer, num);
  add("ZipMap", 1, shape::inferZipMap, noKernel, {});
}

}  // namespace oinfer
