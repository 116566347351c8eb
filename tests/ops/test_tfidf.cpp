// TfIdfVectorizer against onnx.reference and onnxruntime. Each test names its
// input and pool; the helpers build a one-node model of the attributes shown in
// the test and run it:
//   node = helper.make_node("TfIdfVectorizer", ["X"], ["y0"], **attrs)
//   model = helper.make_model(helper.make_graph([node], ...), opset_imports=[helper.make_opsetid("", 9)])
//   ReferenceEvaluator(model).run(None, {"X": X})          # or
//   onnxruntime.InferenceSession(model.SerializeToString()).run(None, {"X": X})
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

TEST(TfIdf, Int32TfUniAndBigramsSkip0) {
  // X = int32 [1,1,3,3,3,7,8,6,7,5,6,8]; pool: unigrams 2,3,5,4; bigrams (5,6),(7,8),(6,7)
  // expected: onnx.reference.ReferenceEvaluator on TfIdfVectorizer-9
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "TF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{2}).attr("max_skip_count", int64_t{0}).attr("ngram_counts", std::vector<int64_t>{0, 4}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}).attr("pool_int64s", std::vector<int64_t>{2, 3, 5, 4, 5, 6, 7, 8, 6, 7})
      .input("X", Tensor::fromVector<int32_t>({12}, {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}))
      .expect("y0", Tensor::fromVector<float>({7}, {0, 3, 1, 0, 1, 1, 1}));
  t.run();
}

TEST(TfIdf, HugeSkipCountEqualsTheRowLength) {
  // X = int32 [1,1,3,3,3,7,8,6,7,5,6,8]; only bigrams; max_skip_count 2^40 and INT64_MAX (a fuzz finding:
  // the kernel looped over every skip for hours). Strides past the row reach nothing, so the result is
  // that of max_skip_count = 5, 11 or 100, which onnx.reference gives alike: [0,0,0,0,1,3,1].
  for (int64_t skip : {int64_t{1} << 40, INT64_MAX}) {
    OpTester t("TfIdfVectorizer", 9);
    t.attr("mode", "TF").attr("min_gram_length", int64_t{2}).attr("max_gram_length", int64_t{2}).attr("max_skip_count", skip).attr("ngram_counts", std::vector<int64_t>{0, 4}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}).attr("pool_int64s", std::vector<int64_t>{2, 3, 5, 4, 5, 6, 7, 8, 6, 7})
        .input("X", Tensor::fromVector<int32_t>({12}, {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}))
        .expect("y0", Tensor::fromVector<float>({7}, {0, 0, 0, 0, 1, 3, 1}));
    t.run();
  }
}

TEST(TfIdf, Int64BatchIdfWeightsBigramsSkip5) {
  // X = int64 [[1,1,3,3,3,7],[8,6,7,5,6,8]]; only bigrams, max_skip_count=5, weights=[0.5,1.5,2,3,0.25,4,5]
  // expected: onnx.reference.ReferenceEvaluator on TfIdfVectorizer-9
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "IDF").attr("min_gram_length", int64_t{2}).attr("max_gram_length", int64_t{2}).attr("max_skip_count", int64_t{5}).attr("ngram_counts", std::vector<int64_t>{0, 4}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6}).attr("pool_int64s", std::vector<int64_t>{2, 3, 5, 4, 5, 6, 7, 8, 6, 7}).attr("weights", std::vector<float>{0.5f, 1.5f, 2.0f, 3.0f, 0.25f, 4.0f, 5.0f})
      .input("X", Tensor::fromVector<int64_t>({2, 6}, {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}))
      .expect("y0", Tensor::fromVector<float>({2, 7}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.25, 4, 5}));
  t.run();
}

TEST(TfIdf, StringTfIdfUpToTrigramsSkip1) {
  // X = [["a","b","c","a","b","d","c"],["b","c","a","b","c","x","a"]]; unigrams a,b,x; bigrams (a,b),(b,c); trigrams (a,b,c),(b,c,d)
  // ngram_indexes=[5,4,3,2,1,0,6], weights=[1,2,3,0.5,0.25,4,10], max_skip_count=1
  // expected: onnxruntime, which weights each n-gram by its pool position as the spec says (onnx.reference
  // indexes weights by output column and gives other values when ngram_indexes is not the identity)
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "TFIDF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{3}).attr("max_skip_count", int64_t{1}).attr("ngram_counts", std::vector<int64_t>{0, 3, 7}).attr("ngram_indexes", std::vector<int64_t>{5, 4, 3, 2, 1, 0, 6}).attr("pool_strings", std::vector<std::string>{"a", "b", "x", "a", "b", "b", "c", "a", "b", "c", "b", "c", "d"}).attr("weights", std::vector<float>{1.0f, 2.0f, 3.0f, 0.5f, 0.25f, 4.0f, 10.0f})
      .input("X", Tensor::fromVector<std::string>({2, 7}, {"a", "b", "c", "a", "b", "d", "c", "b", "c", "a", "b", "c", "x", "a"}))
      .expect("y0", Tensor::fromVector<float>({2, 7}, {4, 0.5, 1, 0, 4, 2, 0, 4, 0.5, 0.5, 3, 4, 2, 0}));
  t.run();
}

TEST(TfIdf, Int64IdfNoWeights) {
  // X = int64 [4,5,6,7,5,4,5,6]; unigrams 4,5,9; bigrams (5,6),(4,6); max_skip_count=2, no weights
  // expected: onnxruntime (onnx.reference fails without weights)
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "IDF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{2}).attr("max_skip_count", int64_t{2}).attr("ngram_counts", std::vector<int64_t>{0, 3}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2, 3, 4}).attr("pool_int64s", std::vector<int64_t>{4, 5, 9, 5, 6, 4, 6})
      .input("X", Tensor::fromVector<int64_t>({8}, {4, 5, 6, 7, 5, 4, 5, 6}))
      .expect("y0", Tensor::fromVector<float>({5}, {1, 1, 0, 1, 1}));
  t.run();
}

TEST(TfIdf, Int64TfIdfNoWeightsMinGram2) {
  // same X and pool, mode TFIDF, min_gram_length=2 (unigrams not counted), no weights
  // expected: onnxruntime (onnx.reference fails without weights)
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "TFIDF").attr("min_gram_length", int64_t{2}).attr("max_gram_length", int64_t{2}).attr("max_skip_count", int64_t{2}).attr("ngram_counts", std::vector<int64_t>{0, 3}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2, 3, 4}).attr("pool_int64s", std::vector<int64_t>{4, 5, 9, 5, 6, 4, 6})
      .input("X", Tensor::fromVector<int64_t>({8}, {4, 5, 6, 7, 5, 4, 5, 6}))
      .expect("y0", Tensor::fromVector<float>({5}, {0, 0, 0, 3, 2}));
  t.run();
}

TEST(TfIdf, EmptyRowsGiveZeros) {
  // X = int32 zeros((2,0)): every count is 0
  // expected: onnx.reference.ReferenceEvaluator on TfIdfVectorizer-9
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "TF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{1}).attr("max_skip_count", int64_t{0}).attr("ngram_counts", std::vector<int64_t>{0}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2}).attr("pool_int64s", std::vector<int64_t>{1, 2, 3})
      .input("X", Tensor::fromVector<int32_t>({2, 0}, {}))
      .expect("y0", Tensor::fromVector<float>({2, 3}, {0, 0, 0, 0, 0, 0}));
  t.run();
}

TEST(TfIdf, SharedColumnIDF) {
  // X = int64 [1,2,2,3,3,3]; unigrams 1,2 share output column 1, weights=[2,5,7]
  // expected: onnxruntime (TFIDF sums weight * count over the column; IDF keeps the last present n-gram)
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "IDF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{1}).attr("max_skip_count", int64_t{0}).attr("ngram_counts", std::vector<int64_t>{0}).attr("ngram_indexes", std::vector<int64_t>{1, 1, 0}).attr("pool_int64s", std::vector<int64_t>{1, 2, 3}).attr("weights", std::vector<float>{2.0f, 5.0f, 7.0f})
      .input("X", Tensor::fromVector<int64_t>({6}, {1, 2, 2, 3, 3, 3}))
      .expect("y0", Tensor::fromVector<float>({2}, {7, 5}));
  t.run();
}

TEST(TfIdf, SharedColumnTFIDF) {
  // X = int64 [1,2,2,3,3,3]; unigrams 1,2 share output column 1, weights=[2,5,7]
  // expected: onnxruntime (TFIDF sums weight * count over the column; IDF keeps the last present n-gram)
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "TFIDF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{1}).attr("max_skip_count", int64_t{0}).attr("ngram_counts", std::vector<int64_t>{0}).attr("ngram_indexes", std::vector<int64_t>{1, 1, 0}).attr("pool_int64s", std::vector<int64_t>{1, 2, 3}).attr("weights", std::vector<float>{2.0f, 5.0f, 7.0f})
      .input("X", Tensor::fromVector<int64_t>({6}, {1, 2, 2, 3, 3, 3}))
      .expect("y0", Tensor::fromVector<float>({2}, {21, 12}));
  t.run();
}

TEST(TfIdf, StringInputWithIntegerPoolIsAnError) {
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "TF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{1})
      .attr("ngram_counts", std::vector<int64_t>{0}).attr("ngram_indexes", std::vector<int64_t>{0, 1})
      .attr("pool_int64s", std::vector<int64_t>{1, 2})
      .input("X", Tensor::fromVector<std::string>({2}, {"a", "b"}))
      .output("y0");
  t.expectError("input 0 of type string needs attribute 'pool_strings', but the node gives 'pool_int64s'");
}

TEST(TfIdf, UnknownModeIsAnError) {
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "BM25").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{1})
      .attr("ngram_counts", std::vector<int64_t>{0}).attr("ngram_indexes", std::vector<int64_t>{0})
      .attr("pool_int64s", std::vector<int64_t>{1})
      .input("X", Tensor::fromVector<int64_t>({2}, {1, 2}))
      .output("y0");
  t.expectError("attribute 'mode' must be 'TF', 'IDF' or 'TFIDF', got 'BM25'");
}

TEST(TfIdf, HugeSkipCountIsBoundedByTheRow) {
  // max_skip_count 2^40 (a hostile model) counts what max_skip_count 2 does
  // on a row of 8 (Int64IdfNoWeights's values), at once: skips past the row
  // reach nothing.
  OpTester t("TfIdfVectorizer", 9);
  t.attr("mode", "IDF").attr("min_gram_length", int64_t{1}).attr("max_gram_length", int64_t{1} << 40).attr("max_skip_count", int64_t{1} << 40).attr("ngram_counts", std::vector<int64_t>{0, 3}).attr("ngram_indexes", std::vector<int64_t>{0, 1, 2, 3, 4}).attr("pool_int64s", std::vector<int64_t>{4, 5, 9, 5, 6, 4, 6})
      .input("X", Tensor::fromVector<int64_t>({8}, {4, 5, 6, 7, 5, 4, 5, 6}))
      .expect("y0", Tensor::fromVector<float>({5}, {1, 1, 0, 1, 1}));
  t.run();
}

}  // namespace
}  // namespace oinfer::testing
