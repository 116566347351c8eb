// TfIdfVectorizer (9) on the CPU: int32, int64 and string inputs.
//
// The pool's n-grams are loaded once per plan into a trie (one node per
// n-gram prefix; a node's id > 0 when the prefix is itself a pooled n-gram
// whose length lies in [min_gram_length, max_gram_length]). Ids count every
// pooled n-gram in pool order, so id - 1 indexes ngram_indexes even for the
// lengths that are skipped. Each row is then scanned once per skip distance
// 1..max_skip_count+1, walking the trie from every start position with that
// stride; unigrams are counted in the first pass only, since the stride does
// not change them (the counting rule onnx.reference and onnxruntime share).
// Counts are kept per n-gram and then mapped to output columns. Weights
// belong to n-grams (the spec: "the i-th element in weights is the weight of
// the i-th n-gram in pool"), as in onnxruntime: TFIDF adds weight * count per
// n-gram into its column, IDF writes the weight of a present n-gram. (The
// onnx.reference implementation indexes weights by output column instead;
// the two agree when ngram_indexes is the identity.)
#include <algorithm>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ops/registry.h"
#include "shape/tfidf.h"

namespace oinfer {

namespace {

enum class Weighting { kTF, kIDF, kTFIDF };

template <class Key>
struct Trie {
  struct Node {
    int64_t id = 0;
    std::unordered_map<Key, int32_t> next;
  };
  std::vector<Node> nodes{Node{}};

  // Inserts one n-gram; returns its end node.
  template <class It>
  int32_t insert(It first, It last) {
    int32_t at = 0;
    for (; first != last; ++first) {
      auto [it, added] = nodes[at].next.try_emplace(*first, static_cast<int32_t>(nodes.size()));
      const int32_t child = it->second;
      if (added) nodes.emplace_back();
      at = child;
    }
    return at;
  }
  // The child of `at` for key, or -1.
  template <class K>
  int32_t find(int32_t at, const K& key) const {
    const auto& m = nodes[at].next;
    auto it = m.find(key);
    return it == m.end() ? -1 : it->second;
  }
};

class TfIdfKernel final : public Kernel {
 public:
  explicit TfIdfKernel(const KernelInit& init) {
    const Node& node = init.node;
    const std::string mode = node.attrString("mode", "");
    if (mode == "TF") weighting_ = Weighting::kTF;
    else if (mode == "IDF") weighting_ = Weighting::kIDF;
    else if (mode == "TFIDF") weighting_ = Weighting::kTFIDF;
    else init.fail("attribute 'mode' must be 'TF', 'IDF' or 'TFIDF', got '" + mode + "'");
    minGram_ = node.attrInt("min_gram_length", 0);
    maxGram_ = node.attrInt("max_gram_length", 0);
    maxSkip_ = node.attrInt("max_skip_count", 0);
    if (minGram_ < 1 || maxGram_ < minGram_)
      init.fail("need 1 <= min_gram_length <= max_gram_length, got " + std::to_string(minGram_) + " and " +
                std::to_string(maxGram_));
    if (maxSkip_ < 0) init.fail("attribute 'max_skip_count' must be >= 0, got " + std::to_string(maxSkip_));
    const std::vector<int64_t> counts = node.attrInts("ngram_counts");
    indexes_ = node.attrInts("ngram_indexes");
    weights_ = node.attrFloats("weights");
    const std::vector<int64_t> ints = node.attrInts("pool_int64s");
    const std::vector<std::string> strs = node.attrStrings("pool_strings");
    if (ints.empty() == strs.empty())
      init.fail("exactly one of 'pool_strings' and 'pool_int64s' must be given and non-empty");
    if (counts.empty() || indexes_.empty()) init.fail("attributes 'ngram_counts' and 'ngram_indexes' are required");
    for (int64_t i : indexes_)
      if (i < 0) init.fail("attribute 'ngram_indexes' holds a negative index " + std::to_string(i));
    outSize_ = *std::max_element(indexes_.begin(), indexes_.end()) + 1;
    stringPool_ = !strs.empty();
    if (init.hasInput(0)) checkType(init.inputs[0]->dtype, [&](const std::string& m) { init.fail(m); });

    const int64_t total = stringPool_ ? static_cast<int64_t>(strs.size()) : static_cast<int64_t>(ints.size());
    if (stringPool_) trie_ = Trie<std::string>{};
    else trie_ = Trie<int64_t>{};
    int64_t id = 1;
    for (size_t i = 0; i < counts.size(); ++i) {
      const int64_t n = static_cast<int64_t>(i) + 1;
      const int64_t begin = counts[i], end = i + 1 < counts.size() ? counts[i + 1] : total;
      if (begin < 0 || end < begin || end > total)
        init.fail("attribute 'ngram_counts' " + std::to_string(begin) + ".." + std::to_string(end) +
                  " is out of order or outside the pool of " + std::to_string(total));
      const int64_t grams = (end - begin) / n;
      if (n < minGram_ || n > maxGram_) {
        id += grams;
        continue;
      }
      for (int64_t k = 0; k < grams; ++k, ++id) {
        const int64_t at = begin + k * n;
        std::visit([&](auto& t) {
          int32_t leaf;
          if constexpr (std::is_same_v<std::decay_t<decltype(t)>, Trie<std::string>>)
            leaf = t.insert(strs.begin() + at, strs.begin() + at + n);
          else
            leaf = t.insert(ints.begin() + at, ints.begin() + at + n);
          t.nodes[leaf].id = id;
        }, trie_);
      }
    }
    grams_ = id - 1;
    if (grams_ > static_cast<int64_t>(indexes_.size()))
      init.fail("the pool holds " + std::to_string(grams_) + " n-grams but 'ngram_indexes' has only " +
                std::to_string(indexes_.size()) + " entries");
    if (!weights_.empty() && static_cast<int64_t>(weights_.size()) < grams_)
      init.fail("attribute 'weights' has " + std::to_string(weights_.size()) + " values for " +
                std::to_string(grams_) + " n-grams in the pool");
  }

  void run(KernelContext& ctx) override {
    const Tensor& X = ctx.input(0);
    checkType(X.dtype(), [&](const std::string& m) { ctx.fail(m); });
    if (X.rank() > 2) ctx.fail("input 0 must be [C] or [B,C], got shape " + shapeToString(X.shape()));
    const int64_t rows = X.rank() == 2 ? X.dim(0) : 1;
    const int64_t C = X.rank() == 0 ? 1 : X.dim(X.rank() - 1);
    std::vector<int64_t> freq(static_cast<size_t>(rows * grams_), 0);
    float* y = ctx.output(0).data<float>();
    ctx.pool().parallelFor(rows, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        int64_t* f = freq.data() + r * grams_;
        if (C > 0) {
          switch (X.dtype()) {
            case DataType::kString: countRow(std::get<1>(trie_), X.data<std::string>() + r * C, C, f); break;
            case DataType::kInt32: countRow(std::get<0>(trie_), X.data<int32_t>() + r * C, C, f); break;
            default: countRow(std::get<0>(trie_), X.data<int64_t>() + r * C, C, f); break;
          }
        }
        float* out = y + r * outSize_;
        std::fill(out, out + outSize_, 0.f);
        for (int64_t g = 0; g < grams_; ++g) {
          const float n = static_cast<float>(f[g]), w = weights_.empty() ? 1.f : weights_[g];
          float& o = out[indexes_[g]];
          switch (weighting_) {
            case Weighting::kTF: o += n; break;
            case Weighting::kIDF: if (f[g] > 0) o = w; break;
            case Weighting::kTFIDF: o += w * n; break;
          }
        }
      }
    }, 1);
  }

 private:
  template <class F>
  void checkType(DataType dt, F fail) const {
    const bool isInt = dt == DataType::kInt32 || dt == DataType::kInt64;
    if (dt != DataType::kString && !isInt)
      fail(std::string("input 0 must be string, int32 or int64, got ") + dataTypeName(dt));
    if (stringPool_ != (dt == DataType::kString))
      fail(std::string("input 0 of type ") + dataTypeName(dt) + " needs attribute '" +
           (stringPool_ ? "pool_int64s" : "pool_strings") + "', but the node gives '" +
           (stringPool_ ? "pool_strings" : "pool_int64s") + "'");
  }

  template <class Key, class T>
  void countRow(const Trie<Key>& trie, const T* x, int64_t C, int64_t* f) const {
    int64_t startSize = minGram_;
    // A stride of C or more reaches no second item, so passes past it count
    // nothing: a max_skip_count of 2^40 would loop for hours (or overflow).
    const int64_t lastSkip = std::min(maxSkip_, std::max<int64_t>(C - 1, 0)) + 1;
    for (int64_t skip = 1; skip <= lastSkip; ++skip) {
      for (int64_t start = 0; start < C; ++start) {
        if (startSize - 1 > (C - 1 - start) / skip) break;  // start + skip * (startSize - 1) >= C, without overflow
        int32_t at = 0;
        for (int64_t size = 1, item = start; size <= maxGram_ && item < C; ++size, item += skip) {
          int32_t next;
          if constexpr (std::is_same_v<Key, int64_t>) next = trie.find(at, static_cast<int64_t>(x[item]));
          else next = trie.find(at, x[item]);
          if (next < 0) break;
          const int64_t id = trie.nodes[next].id;
          if (size >= startSize && id != 0) ++f[id - 1];
          at = next;
        }
      }
      if (startSize == 1) {
        if (++startSize > maxGram_) break;
      }
    }
  }

  Weighting weighting_ = Weighting::kTF;
  int64_t minGram_ = 1, maxGram_ = 1, maxSkip_ = 0, outSize_ = 0, grams_ = 0;
  bool stringPool_ = false;
  std::vector<int64_t> indexes_;
  std::vector<float> weights_;
  std::variant<Trie<int64_t>, Trie<std::string>> trie_;
};

}  // namespace

void register_tfidf(Registry& r) {
  addVersions(r, "TfIdfVectorizer", {9}, shape::inferTfIdfVectorizer,
              [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<TfIdfKernel>(init); },
              {DataType::kString, DataType::kInt32, DataType::kInt64});
}

}  // namespace oinfer
