// SVMClassifier and SVMRegressor (ai.onnx.ml 1) on the CPU.
//
// Kernels LINEAR (x.v), POLY ((gamma x.v + coef0)^degree), RBF
// (exp(-gamma |x - v|^2)) and SIGMOID (tanh(gamma x.v + coef0)); without
// support vectors the classifier is a linear model (one coefficient row per
// class, rho[0] added). With support vectors it runs libsvm's one-vs-one
// scheme: one decision value per class pair (i < j) from the two classes'
// support vectors, a vote for i when it is > 0 else for j, the label the
// most voted class. With prob_a / prob_b the pair values go through Platt's
// sigmoid and are coupled into class probabilities by the iterative method
// of Wu, Lin and Weng (libsvm's multiclass_probability). The score layouts
// and binary labels follow onnxruntime: no probabilities and two classes give
// [-s, s] (post_transform NONE) or [1 - t, t]; more classes give one score
// per class pair.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops/cpu/ml_common.h"
#include "ops/registry.h"
#include "shape/ml.h"

namespace oinfer {
namespace {

using ml::PostTransform;

enum class SvmKernel { kLinear, kPoly, kRbf, kSigmoid };

struct SvmCommon {
  SvmKernel kernel = SvmKernel::kLinear;
  double gamma = 0, coef0 = 0, degree = 0;

  void parse(const KernelInit& init) {
    const std::string k = init.node.attrString("kernel_type", "LINEAR");
    if (k == "LINEAR") kernel = SvmKernel::kLinear;
    else if (k == "POLY") kernel = SvmKernel::kPoly;
    else if (k == "RBF") kernel = SvmKernel::kRbf;
    else if (k == "SIGMOID") kernel = SvmKernel::kSigmoid;
    else init.fail("attribute 'kernel_type' must be LINEAR, POLY, RBF or SIGMOID, got '" + k + "'");
    const auto p = init.node.attrFloats("kernel_params");
    if (!p.empty() && p.size() != 3)
      init.fail("attribute 'kernel_params' must hold [gamma, coef0, degree], got " + std::to_string(p.size()) + " values");
    if (p.size() == 3) { gamma = p[0]; coef0 = p[1]; degree = p[2]; }
  }

  double apply(const double* x, const float* v, int64_t n) const {
    if (kernel == SvmKernel::kRbf) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) { const double d = x[i] - v[i]; s += d * d; }
      return std::exp(-gamma * s);
    }
    double dot = 0;
    for (int64_t i = 0; i < n; ++i) dot += x[i] * v[i];
    switch (kernel) {
      case SvmKernel::kPoly: return std::pow(gamma * dot + coef0, degree);
      case SvmKernel::kSigmoid: return std::tanh(gamma * dot + coef0);
      default: return dot;
    }
  }
};

// libsvm's pairwise coupling: r[i * k + j] ~ P(i | i or j) -> p (k values).
void coupleProbabilities(int64_t k, const std::vector<double>& r, double* p) {
  std::vector<double> Q(k * k), Qp(k);
  const int maxIter = std::max<int>(100, static_cast<int>(k));
  const double eps = 0.005 / static_cast<double>(k);
  for (int64_t t = 0; t < k; ++t) {
    p[t] = 1.0 / static_cast<double>(k);
    Q[t * k + t] = 0;
    for (int64_t j = 0; j < t; ++j) {
      Q[t * k + t] += r[j * k + t] * r[j * k + t];
      Q[t * k + j] = Q[j * k + t];
    }
    for (int64_t j = t + 1; j < k; ++j) {
      Q[t * k + t] += r[j * k + t] * r[j * k + t];
      Q[t * k + j] = -r[j * k + t] * r[t * k + j];
    }
  }
  for (int iter = 0; iter < maxIter; ++iter) {
    double pQp = 0;
    for (int64_t t = 0; t < k; ++t) {
      Qp[t] = 0;
      for (int64_t j = 0; j < k; ++j) Qp[t] += Q[t * k + j] * p[j];
      pQp += p[t] * Qp[t];
    }
    double maxErr = 0;
    for (int64_t t = 0; t < k; ++t) maxErr = std::max(maxErr, std::abs(Qp[t] - pQp));
    if (maxErr < eps) break;
    for (int64_t t = 0; t < k; ++t) {
      const double diff = (-Qp[t] + pQp) / Q[t * k + t];
      p[t] += diff;
      pQp = (pQp + diff * (diff * Q[t * k + t] + 2 * Qp[t])) / (1 + diff) / (1 + diff);
      for (int64_t j = 0; j < k; ++j) {
        Qp[j] = (Qp[j] + diff * Q[t * k + j]) / (1 + diff);
        p[j] /= (1 + diff);
      }
    }
  }
}

class SvmClassifierKernel final : public Kernel {
 public:
  explicit SvmClassifierKernel(const KernelInit& init) {
    const Node& n = init.node;
    svm_.parse(init);
    intLabels_ = n.attrInts("classlabels_ints");
    strLabels_ = n.attrStrings("classlabels_strings");
    if (intLabels_.empty() == strLabels_.empty())
      init.fail("exactly one of 'classlabels_ints' and 'classlabels_strings' must be given and non-empty");
    K_ = static_cast<int64_t>(strLabels_.empty() ? intLabels_.size() : strLabels_.size());
    perClass_ = n.attrInts("vectors_per_class");
    sv_ = n.attrFloats("support_vectors");
    coef_ = n.attrFloats("coefficients");
    rho_ = n.attrFloats("rho");
    probA_ = n.attrFloats("prob_a");
    probB_ = n.attrFloats("prob_b");
    pt_ = ml::parsePostTransform(init, n.attrString("post_transform", "NONE"));
    if (coef_.empty()) init.fail("attribute 'coefficients' is required");
    if (rho_.empty()) init.fail("attribute 'rho' is required");
    if (probA_.size() != probB_.size())
      init.fail("attributes 'prob_a' and 'prob_b' have " + std::to_string(probA_.size()) + " and " +
                std::to_string(probB_.size()) + " values");
    pairs_ = K_ * (K_ - 1) / 2;
    for (int64_t c : perClass_) {
      if (c < 0) init.fail("attribute 'vectors_per_class' holds a negative count " + std::to_string(c));
      start_.push_back(V_);
      V_ += c;
    }
    if (V_ > 0) {
      if (static_cast<int64_t>(perClass_.size()) != K_)
        init.fail("attribute 'vectors_per_class' has " + std::to_string(perClass_.size()) + " entries for " +
                  std::to_string(K_) + " class labels");
      if (static_cast<int64_t>(sv_.size()) % V_ != 0)
        init.fail("attribute 'support_vectors' has " + std::to_string(sv_.size()) + " values, not a multiple of " +
                  std::to_string(V_) + " vectors");
      F_ = static_cast<int64_t>(sv_.size()) / V_;
      if (static_cast<int64_t>(coef_.size()) < (K_ - 1) * V_)
        init.fail("attribute 'coefficients' has " + std::to_string(coef_.size()) + " values, need " +
                  std::to_string((K_ - 1) * V_) + " ((classes - 1) x vectors)");
      if (static_cast<int64_t>(rho_.size()) < pairs_)
        init.fail("attribute 'rho' has " + std::to_string(rho_.size()) + " values, need one per class pair (" +
                  std::to_string(pairs_) + ")");
      if (!probA_.empty() && static_cast<int64_t>(probA_.size()) < pairs_)
        init.fail("attributes 'prob_a' / 'prob_b' have " + std::to_string(probA_.size()) +
                  " values, need one per class pair (" + std::to_string(pairs_) + ")");
    } else {
      if (static_cast<int64_t>(coef_.size()) % K_ != 0)
        init.fail("attribute 'coefficients' has " + std::to_string(coef_.size()) + " values, not a multiple of " +
                  std::to_string(K_) + " classes");
      F_ = static_cast<int64_t>(coef_.size()) / K_;
      svm_.kernel = SvmKernel::kLinear;
    }
    allPositive_ = std::all_of(coef_.begin(), coef_.end(), [](float c) { return c >= 0; });
    const bool proba = !probA_.empty();
    outScores_ = K_;
    if (V_ > 0 && !proba) outScores_ = K_ > 2 ? pairs_ : 2;
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    if (cols != F_)
      ctx.fail("input 'X' has " + std::to_string(cols) + " features but the model expects " + std::to_string(F_));
    Tensor& Y = ctx.output(0);
    Tensor& Z = ctx.output(1);
    if (Z.numel() != rows * outScores_)
      ctx.fail("output 'Z' holds " + std::to_string(Z.numel()) + " values, expected " +
               std::to_string(rows * outScores_));
    ctx.pool().parallelFor(rows, [&](int64_t b, int64_t e) {
      std::vector<double> x(cols), kern(V_), s(std::max<int64_t>(pairs_, K_) + 2), r(K_ * K_);
      std::vector<int64_t> votes(K_);
      for (int64_t row = b; row < e; ++row) {
        for (int64_t c = 0; c < cols; ++c) x[c] = ml::realAt(X, row * cols + c);
        rowScores(x.data(), kern, s, r, votes, Y, Z.data<float>() + row * outScores_, row);
      }
    }, 1);
  }

 private:
  void rowScores(const double* x, std::vector<double>& kern, std::vector<double>& s, std::vector<double>& r,
                 std::vector<int64_t>& votes, Tensor& Y, float* z, int64_t row) const {
    const bool proba = !probA_.empty();
    int64_t nScores = K_;
    int addSecond = -1;
    int64_t best = 0;
    double maxWeight = 0;
    if (V_ == 0) {
      for (int64_t k = 0; k < K_; ++k) s[k] = svm_.apply(x, coef_.data() + k * F_, F_) + rho_[0];
      for (int64_t k = 1; k < K_; ++k)
        if (s[k] > s[best]) best = k;
      maxWeight = s[best];
    } else {
      for (int64_t v = 0; v < V_; ++v) kern[v] = svm_.apply(x, sv_.data() + v * F_, F_);
      std::fill(votes.begin(), votes.end(), 0);
      int64_t at = 0;
      for (int64_t i = 0; i < K_; ++i)
        for (int64_t j = i + 1; j < K_; ++j, ++at) {
          double sum = rho_[at];
          for (int64_t m = 0; m < perClass_[i]; ++m) sum += coef_[(j - 1) * V_ + start_[i] + m] * kern[start_[i] + m];
          for (int64_t m = 0; m < perClass_[j]; ++m) sum += coef_[i * V_ + start_[j] + m] * kern[start_[j] + m];
          s[at] = sum;
          ++votes[sum > 0 ? i : j];
        }
      best = std::max_element(votes.begin(), votes.end()) - votes.begin();
      if (proba) {
        std::fill(r.begin(), r.end(), 0.0);
        at = 0;
        for (int64_t i = 0; i < K_; ++i)
          for (int64_t j = i + 1; j < K_; ++j, ++at) {
            double p = 1 - ml::logistic(s[at] * probA_[at] + probB_[at]);
            p = std::min(std::max(p, 1e-7), 1 - 1e-7);
            r[i * K_ + j] = p;
            r[j * K_ + i] = 1 - p;
          }
        coupleProbabilities(K_, r, s.data());
      } else {
        nScores = pairs_;
        if (K_ <= 2) addSecond = pt_ == PostTransform::kNone ? 2 : 0;
      }
    }
    // The label.
    int64_t label = best;
    bool fixed = false;  // label given as 0 / 1 rather than an index
    if (pairs_ == 1) {
      if (K_ == 2) {
        if (!proba && ((allPositive_ && maxWeight >= 0.5) || (maxWeight > 0 && !allPositive_))) label = 1;
      } else {
        label = maxWeight > 0 ? 1 : 0;
        fixed = true;
      }
    }
    if (strLabels_.empty()) Y.data<int64_t>()[row] = fixed ? label : intLabels_[label];
    else Y.data<std::string>()[row] = fixed ? std::to_string(label) : strLabels_[label];
    // The scores.
    if (nScores == 1 && addSecond >= 0) {
      const double v = s[0];
      if (addSecond == 2) { z[0] = static_cast<float>(-v); z[1] = static_cast<float>(v); return; }
      double t = v;
      if (pt_ == PostTransform::kLogistic) t = ml::logistic(v);
      else if (pt_ == PostTransform::kProbit) t = ml::probit(v);
      z[0] = static_cast<float>(1 - t);
      z[1] = static_cast<float>(t);
      return;
    }
    ml::postTransform(pt_, s.data(), nScores);
    for (int64_t k = 0; k < outScores_; ++k) z[k] = k < nScores ? static_cast<float>(s[k]) : 0.f;
  }

  SvmCommon svm_;
  std::vector<int64_t> intLabels_, perClass_, start_;
  std::vector<std::string> strLabels_;
  std::vector<float> sv_, coef_, rho_, probA_, probB_;
  PostTransform pt_ = PostTransform::kNone;
  int64_t K_ = 0, V_ = 0, F_ = 0, pairs_ = 0, outScores_ = 0;
  bool allPositive_ = true;
};

class SvmRegressorKernel final : public Kernel {
 public:
  explicit SvmRegressorKernel(const KernelInit& init) {
    const Node& n = init.node;
    svm_.parse(init);
    sv_ = n.attrFloats("support_vectors");
    coef_ = n.attrFloats("coefficients");
    rho_ = n.attrFloats("rho");
    V_ = n.attrInt("n_supports", 0);
    oneClass_ = n.attrInt("one_class", 0) != 0;
    pt_ = ml::parsePostTransform(init, n.attrString("post_transform", "NONE"));
    if (coef_.empty()) init.fail("attribute 'coefficients' is required");
    if (rho_.empty()) init.fail("attribute 'rho' is required");
    if (V_ < 0) init.fail("attribute 'n_supports' must be >= 0, got " + std::to_string(V_));
    if (V_ > 0) {
      if (static_cast<int64_t>(sv_.size()) % V_ != 0)
        init.fail("attribute 'support_vectors' has " + std::to_string(sv_.size()) + " values, not a multiple of " +
                  std::to_string(V_) + " vectors");
      if (static_cast<int64_t>(coef_.size()) < V_)
        init.fail("attribute 'coefficients' has " + std::to_string(coef_.size()) + " values for " +
                  std::to_string(V_) + " support vectors");
      F_ = static_cast<int64_t>(sv_.size()) / V_;
    } else {
      F_ = static_cast<int64_t>(coef_.size());
      svm_.kernel = SvmKernel::kLinear;
    }
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    int64_t rows, cols;
    ml::rowsCols(X, rows, cols);
    if (cols != F_)
      ctx.fail("input 'X' has " + std::to_string(cols) + " features but the model expects " + std::to_string(F_));
    float* y = ctx.output(0).data<float>();
    ctx.pool().parallelFor(rows, [&](int64_t b, int64_t e) {
      std::vector<double> x(cols);
      for (int64_t r = b; r < e; ++r) {
        for (int64_t c = 0; c < cols; ++c) x[c] = ml::realAt(X, r * cols + c);
        double s = rho_[0];
        if (V_ > 0) {
          for (int64_t v = 0; v < V_; ++v) s += coef_[v] * svm_.apply(x.data(), sv_.data() + v * F_, F_);
        } else {
          s += svm_.apply(x.data(), coef_.data(), F_);
        }
        if (oneClass_) s = s > 0 ? 1 : -1;
        if (pt_ == PostTransform::kProbit) s = ml::probit(s);
        y[r] = static_cast<float>(s);
      }
    }, 1);
  }

 private:
  SvmCommon svm_;
  std::vector<float> sv_, coef_, rho_;
  int64_t V_ = 0, F_ = 0;
  bool oneClass_ = false;
  PostTransform pt_ = PostTransform::kNone;
};

}  // namespace

void register_ml_svm(Registry& r) {
  const std::vector<DataType> num{DataType::kFloat, DataType::kDouble, DataType::kInt64, DataType::kInt32};
  r.add(ml::mlOp("SVMClassifier", 1, shape::inferSVMClassifier,
                 [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<SvmClassifierKernel>(i); },
                 num));
  r.add(ml::mlOp("SVMRegressor", 1, shape::inferSVMRegressor,
                 [](const KernelInit& i) -> std::unique_ptr<Kernel> { return std::make_unique<SvmRegressorKernel>(i); },
                 num));
}

}  // namespace oinfer
