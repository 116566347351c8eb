// The strings family (StringNormalizer, StringSplit, StringConcat,
// RegexFullMatch) plus BitCast, ReverseSequence, MaxUnpool and Det, against
// onnx.reference. The Python, with run(op, inputs, nout=1, **attrs) evaluating a
// one-node model with onnx.reference.ReferenceEvaluator and S = lambda l:
// np.array(l, dtype=object):
//   run("StringNormalizer",[S(["monday","tuesday","wednesday","thursday"])],case_change_action="UPPER",
//       stopwords=["Monday"],is_case_sensitive=0)        -> ['TUESDAY','WEDNESDAY','THURSDAY']
//   run("StringNormalizer",[S([["Monday","tuesday"]])],case_change_action="LOWER",stopwords=["Monday"],
//       is_case_sensitive=1)                             -> [['tuesday']]
//   run("StringNormalizer",[S(["monday"])],stopwords=["monday"])  -> ['']
//   run("StringSplit",[S([["a,b,,c","d"],["",",e"]])],2,delimiter=",",maxsplit=2)
//       -> [[['a','b',',c'],['d','','']],[['','',''],['','e','']]], [[3,1],[1,2]]
//   run("StringSplit",[S(["  hello  world x ","a"])],2)  -> [['hello','world','x'],['a','','']], [3,1]
//   run("StringSplit",[S(["a b c"])],2,maxsplit=1)        -> [['a','b c']], [2]
//   run("StringConcat",[S([["a","b"],["c","d"]]),S(["x","y"])])  -> [['ax','by'],['cx','dy']]
//   run("RegexFullMatch",[S(["www.google.com","www.facebook.com","www.bbc.co.uk"])],
//       pattern=r"www\.[\w.-]+\.\bcom\b")                -> [True, True, False]
//   run("BitCast",[np.array([[1.0,-2.0],[0.5,3.0]],np.float32)],to=6)
//       -> [[1065353216,-1073741824],[1056964608,1077936128]]
//   run("BitCast",[np.array([1,-2,300],np.int16)],to=UINT16)  -> [1,65534,300]
//   run("ReverseSequence",[np.arange(12,dtype=np.float32).reshape(4,3),np.array([4,1,2])],time_axis=0,batch_axis=1)
//       -> [[9,1,5],[6,4,2],[3,7,8],[0,10,11]]
//   run("ReverseSequence",[np.arange(8).reshape(2,4),np.array([3,1])],time_axis=1,batch_axis=0)
//       -> [[2,1,0,3],[4,5,6,7]]
//   X=np.array([[[[5,6],[7,8]]]],np.float32); I=np.array([[[[5,7],[13,15]]]])
//   run("MaxUnpool",[X,I],kernel_shape=[2,2],strides=[2,2])
//   run("MaxUnpool",[X,I,np.array([1,1,5,5])],kernel_shape=[2,2],strides=[2,2])
//   run("MaxUnpool",[np.array([[[3,9]]],np.float32),np.array([[[1,0]]])],kernel_shape=[2],strides=[1],pads=[1,0])
//       -> [[[9,3]]]
//   run("Det",[np.array([[[1,2],[3,4]],[[2,0],[1,3]],[[0.5,1.5],[2.5,-1]]],np.float32)])  -> [-2,6,-4.25]
//   run("Det",[np.array([[2,1,0],[1,3,1],[0,1,4]],np.float64)])  -> 17.999999999999996
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

Tensor str(std::vector<int64_t> shape, std::vector<std::string> v) { return Tensor::fromVector<std::string>(shape, v); }
Tensor i64(std::vector<int64_t> shape, std::vector<int64_t> v) { return Tensor::fromVector<int64_t>(shape, v); }
Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }

TEST(StringsNormalizer, UpperCaseInsensitiveStopwords) {
  OpTester t("StringNormalizer", 10);
  t.input("x", str({4}, {"monday", "tuesday", "wednesday", "thursday"}))
      .attr("case_change_action", "UPPER").attr("stopwords", std::vector<std::string>{"Monday"})
      .attr("is_case_sensitive", 0)
      .expect("y", str({3}, {"TUESDAY", "WEDNESDAY", "THURSDAY"}));
  t.run();
}

TEST(StringsNormalizer, LowerCaseSensitive2D) {
  OpTester t("StringNormalizer", 10);
  t.input("x", str({1, 2}, {"Monday", "tuesday"}))
      .attr("case_change_action", "LOWER").attr("stopwords", std::vector<std::string>{"Monday"})
      .attr("is_case_sensitive", 1).attr("locale", "en_US")
      .expect("y", str({1, 1}, {"tuesday"}));
  t.run();
}

TEST(StringsNormalizer, AllFilteredGivesOneEmpty) {
  OpTester t("StringNormalizer", 10);
  t.input("x", str({1}, {"monday"})).attr("stopwords", std::vector<std::string>{"monday"}).expect("y", str({1}, {""}));
  t.run();
}

TEST(StringsNormalizer, RejectsRank3) {
  OpTester t("StringNormalizer", 10);
  t.input("x", str({1, 1, 1}, {"a"})).expect("y", str({1, 1, 1}, {"a"}));
  t.expectError("input 0 ('x') must be [C] or [1, C], got [1,1,1]");
}

TEST(StringsSplit, DelimiterMaxsplit) {
  OpTester t("StringSplit", 20);
  t.input("x", str({2, 2}, {"a,b,,c", "d", "", ",e"})).attr("delimiter", ",").attr("maxsplit", int64_t{2})
      .expect("y", str({2, 2, 3}, {"a", "b", ",c", "d", "", "", "", "", "", "", "e", ""}))
      .expect("z", i64({2, 2}, {3, 1, 1, 2}));
  t.run();
}

TEST(StringsSplit, Whitespace) {
  OpTester t("StringSplit", 20);
  t.input("x", str({2}, {"  hello  world x ", "a"}))
      .expect("y", str({2, 3}, {"hello", "world", "x", "a", "", ""}))
      .expect("z", i64({2}, {3, 1}));
  t.run();
}

TEST(StringsSplit, WhitespaceMaxsplit) {
  OpTester t("StringSplit", 20);
  t.input("x", str({1}, {"a b c"})).attr("maxsplit", int64_t{1})
      .expect("y", str({1, 2}, {"a", "b c"})).expect("z", i64({1}, {2}));
  t.run();
}

TEST(StringsConcat, Broadcast) {
  OpTester t("StringConcat", 20);
  t.input("a", str({2, 2}, {"a", "b", "c", "d"})).input("b", str({2}, {"x", "y"}))
      .expect("y", str({2, 2}, {"ax", "by", "cx", "dy"}));
  t.run();
}

TEST(StringsConcat, ShapeMismatch) {
  OpTester t("StringConcat", 20);
  t.input("a", str({2}, {"a", "b"})).input("b", str({3}, {"x", "y", "z"})).expect("y", str({3}, {"", "", ""}));
  t.expectError("input 0 ('a') of shape [2] and input 1 ('b') of shape [3] cannot be broadcast");
}

TEST(StringsRegex, FullMatch) {
  OpTester t("RegexFullMatch", 20);
  t.input("x", str({3}, {"www.google.com", "www.facebook.com", "www.bbc.co.uk"}))
      .attr("pattern", R"(www\.[\w.-]+\.\bcom\b)")
      .expect("y", Tensor::fromVector<bool>({3}, {true, true, false}));
  t.run();
}

// RE2 semantics (linear time): the patterns std::regex backtracked on for
// minutes, or overflowed the stack with, answer at once.
TEST(StringsRegex, CatastrophicPatternsAndLongStringsAreLinear) {
  const std::string as40(40, 'a');
  const std::string long100k(100000, 'a');
  OpTester t("RegexFullMatch", 20);
  t.input("x", str({3}, {as40, as40 + "b", long100k}))
      .attr("pattern", "(a*)*b")
      .expect("y", Tensor::fromVector<bool>({3}, {false, true, false}));
  t.run();
  OpTester u("RegexFullMatch", 20);
  u.input("x", str({2}, {long100k, long100k + "!"}))
      .attr("pattern", "(a|aa)+")
      .expect("y", Tensor::fromVector<bool>({2}, {true, false}));
  u.run();
}

TEST(StringsRegex, Re2SyntaxNamedGroupsAndClasses) {
  OpTester t("RegexFullMatch", 20);
  t.input("x", str({3}, {"key=42", "key=x", "KEY=7"}))
      .attr("pattern", R"((?P<k>[a-z]+)=\d+)")
      .expect("y", Tensor::fromVector<bool>({3}, {true, false, false}));
  t.run();
}

TEST(StringsRegex, InvalidPatternNamesIt) {
  OpTester t("RegexFullMatch", 20);
  t.input("x", str({1}, {"a"})).attr("pattern", "(ab").expect("y", Tensor::fromVector<bool>({1}, {false}));
  t.expectError("invalid regex pattern '(ab' (RE2 syntax): missing )");
}

TEST(StringsBitCast, FloatToInt32) {
  OpTester t("BitCast", 26);
  t.input("x", f32({2, 2}, {1.0f, -2.0f, 0.5f, 3.0f})).attr("to", int64_t{6})
      .expect("y", Tensor::fromVector<int32_t>({2, 2}, {1065353216, -1073741824, 1056964608, 1077936128}));
  t.run();
}

TEST(StringsBitCast, Int16ToUInt16) {
  OpTester t("BitCast", 26);
  t.input("x", Tensor::fromVector<int16_t>({3}, {1, -2, 300})).attr("to", int64_t{4})
      .expect("y", Tensor::fromVector<uint16_t>({3}, {1, 65534, 300}));
  t.run();
}

TEST(StringsBitCast, WidthMismatch) {
  // onnx.reference: "BitCast requires input and output types to have the same bit-width".
  OpTester t("BitCast", 26);
  t.input("x", Tensor::fromVector<int32_t>({2}, {1, 2})).attr("to", int64_t{7})
      .expect("y", i64({2}, {0, 0}));
  t.expectError("BitCast needs equal bit-widths, got int32 (input 0 'x') and int64");
}

TEST(StringsReverseSequence, TimeMajor) {
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = static_cast<float>(i);
  OpTester t("ReverseSequence", 10);
  t.input("x", f32({4, 3}, x)).input("lens", i64({3}, {4, 1, 2}))
      .attr("time_axis", int64_t{0}).attr("batch_axis", int64_t{1})
      .expect("y", f32({4, 3}, {9, 1, 5, 6, 4, 2, 3, 7, 8, 0, 10, 11}));
  t.run();
}

TEST(StringsReverseSequence, BatchMajor) {
  OpTester t("ReverseSequence", 10);
  t.input("x", i64({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})).input("lens", i64({2}, {3, 1}))
      .attr("time_axis", int64_t{1}).attr("batch_axis", int64_t{0})
      .expect("y", i64({2, 4}, {2, 1, 0, 3, 4, 5, 6, 7}));
  t.run();
}

Tensor unpoolX() { return f32({1, 1, 2, 2}, {5, 6, 7, 8}); }
Tensor unpoolI() { return i64({1, 1, 2, 2}, {5, 7, 13, 15}); }

TEST(StringsMaxUnpool, Inferred) {
  for (int64_t opset : {9, 11, 22}) {
    OpTester t("MaxUnpool", opset);
    t.input("x", unpoolX()).input("i", unpoolI())
        .attr("kernel_shape", std::vector<int64_t>{2, 2}).attr("strides", std::vector<int64_t>{2, 2})
        .expect("y", f32({1, 1, 4, 4}, {0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 7, 0, 8}));
    t.run();
  }
}

TEST(StringsMaxUnpool, OutputShape) {
  OpTester t("MaxUnpool", 11);
  t.input("x", unpoolX()).input("i", unpoolI()).constantInput("shape", i64({4}, {1, 1, 5, 5}))
      .attr("kernel_shape", std::vector<int64_t>{2, 2}).attr("strides", std::vector<int64_t>{2, 2})
      .expect("y", f32({1, 1, 5, 5}, {0, 0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0}));
  t.run();
}

TEST(StringsMaxUnpool, Pads1D) {
  OpTester t("MaxUnpool", 22);
  t.input("x", f32({1, 1, 2}, {3, 9})).input("i", i64({1, 1, 2}, {1, 0}))
      .attr("kernel_shape", std::vector<int64_t>{2}).attr("strides", std::vector<int64_t>{1})
      .attr("pads", std::vector<int64_t>{1, 0})
      .expect("y", f32({1, 1, 2}, {9, 3}));
  t.run();
}

TEST(StringsDet, BatchFloat) {
  for (int64_t opset : {11, 22}) {
    OpTester t("Det", opset);
    t.input("x", f32({3, 2, 2}, {1, 2, 3, 4, 2, 0, 1, 3, 0.5f, 1.5f, 2.5f, -1}))
        .expect("y", f32({3}, {-2, 6, -4.25f}));
    t.run();
  }
}

TEST(StringsDet, Double3x3) {
  OpTester t("Det", 22);
  t.input("x", Tensor::fromVector<double>({3, 3}, {2, 1, 0, 1, 3, 1, 0, 1, 4}))
      .expect("y", Tensor::scalar<double>(17.999999999999996), 1e-12, 1e-12);
  t.run();
}

TEST(StringsDet, NotSquare) {
  OpTester t("Det", 22);
  t.input("x", f32({2, 3}, {1, 2, 3, 4, 5, 6})).expect("y", Tensor::scalar<float>(0));
  t.expectError("input 0 ('x') must end in square matrices, got [2,3]");
}

}  // namespace
}  // namespace oinfer::testing
