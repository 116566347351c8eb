// Reduce*, ArgMax/ArgMin against onnx.reference.
//
// Reference data from a helper run(op, inputs, attrs, opset) that builds a one-node model and evaluates it with onnx.reference.ReferenceEvaluator:
//   x = np.array([[[1,-2,3],[4,0.5,-6]],[[0,2,-1],[-3,5,1.5]]], np.float32)  # [2,2,3]
//   xa = np.abs(x) + 0.5                                                       # for ReduceLogSum
//   for op in ops:
//     for axes, kd in [([1],1), ([0,2],0), (None,1), ([-1],0)]:
//       old = run(op, [inp], dict(axes=axes, keepdims=kd), 11)              # axes attribute
//       new = run(op, [inp, np.array(axes)], dict(keepdims=kd), 13 or 18)   # axes input; same values
//     run(op, [inp, np.array([], np.int64)], dict(noop_with_empty_axes=1), 13 or 18)
//     run(op, [np.zeros((2,0,3), np.float32)], dict(axes=[1], keepdims=0), 11)
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op_tester.h"

namespace oinfer::testing {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::nanf("");

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) { return Tensor::fromVector<float>(shape, v); }
Tensor i64(std::vector<int64_t> v) { return Tensor::fromVector<int64_t>({static_cast<int64_t>(v.size())}, v); }

Tensor input(const std::string& op) {
  std::vector<float> x = {1, -2, 3, 4, 0.5f, -6, 0, 2, -1, -3, 5, 1.5f};
  if (op == "ReduceLogSum")
    for (float& v : x) v = std::fabs(v) + 0.5f;
  return f32({2, 2, 3}, x);
}
int64_t axesInputSince(const std::string& op) { return op == "ReduceSum" ? 13 : 18; }

struct ReduceCase {
  const char* op;
  std::vector<int64_t> axes;
  int keepdims;
  std::vector<int64_t> shape;
  std::vector<float> y;
};
const ReduceCase kAxesCases[] = {
    {"ReduceSum", {1}, 1, {2, 1, 3}, {5.0f, -1.5f, -3.0f, -3.0f, 7.0f, 0.5f}},
    {"ReduceSum", {0, 2}, 0, {2}, {3.0f, 2.0f}},
    {"ReduceSum", {}, 1, {1, 1, 1}, {5.0f}},
    {"ReduceSum", {-1}, 0, {2, 2}, {2.0f, -1.5f, 1.0f, 3.5f}},
    {"ReduceMean", {1}, 1, {2, 1, 3}, {2.5f, -0.75f, -1.5f, -1.5f, 3.5f, 0.25f}},
    {"ReduceMean", {0, 2}, 0, {2}, {0.5f, 0.33333334f}},
    {"ReduceMean", {}, 1, {1, 1, 1}, {0.41666666f}},
    {"ReduceMean", {-1}, 0, {2, 2}, {0.66666669f, -0.5f, 0.33333334f, 1.1666666f}},
    {"ReduceMax", {1}, 1, {2, 1, 3}, {4.0f, 0.5f, 3.0f, 0.0f, 5.0f, 1.5f}},
    {"ReduceMax", {0, 2}, 0, {2}, {3.0f, 5.0f}},
    {"ReduceMax", {}, 1, {1, 1, 1}, {5.0f}},
    {"ReduceMax", {-1}, 0, {2, 2}, {3.0f, 4.0f, 2.0f, 5.0f}},
    {"ReduceMin", {1}, 1, {2, 1, 3}, {1.0f, -2.0f, -6.0f, -3.0f, 2.0f, -1.0f}},
    {"ReduceMin", {0, 2}, 0, {2}, {-2.0f, -6.0f}},
    {"ReduceMin", {}, 1, {1, 1, 1}, {-6.0f}},
    {"ReduceMin", {-1}, 0, {2, 2}, {-2.0f, -6.0f, -1.0f, -3.0f}},
    {"ReduceProd", {1}, 1, {2, 1, 3}, {4.0f, -1.0f, -18.0f, -0.0f, 10.0f, -1.5f}},
    {"ReduceProd", {0, 2}, 0, {2}, {0.0f, 270.0f}},
    {"ReduceProd", {}, 1, {1, 1, 1}, {0.0f}},
    {"ReduceProd", {-1}, 0, {2, 2}, {-6.0f, -12.0f, -0.0f, -22.5f}},
    {"ReduceL1", {1}, 1, {2, 1, 3}, {5.0f, 2.5f, 9.0f, 3.0f, 7.0f, 2.5f}},
    {"ReduceL1", {0, 2}, 0, {2}, {9.0f, 20.0f}},
    {"ReduceL1", {}, 1, {1, 1, 1}, {29.0f}},
    {"ReduceL1", {-1}, 0, {2, 2}, {6.0f, 10.5f, 3.0f, 9.5f}},
    {"ReduceL2", {1}, 1, {2, 1, 3}, {4.1231055f, 2.0615528f, 6.7082038f, 3.0f, 5.3851647f, 1.8027756f}},
    {"ReduceL2", {0, 2}, 0, {2}, {4.3588991f, 9.407444f}},
    {"ReduceL2", {}, 1, {1, 1, 1}, {10.36822f}},
    {"ReduceL2", {-1}, 0, {2, 2}, {3.7416575f, 7.228416f, 2.236068f, 6.0207973f}},
    {"ReduceLogSum", {1}, 1, {2, 1, 3}, {1.7917595f, 1.252763f, 2.3025851f, 1.3862944f, 2.0794415f, 1.252763f}},
    {"ReduceLogSum", {0, 2}, 0, {2}, {2.4849067f, 3.1354942f}},
    {"ReduceLogSum", {}, 1, {1, 1, 1}, {3.5553482f}},
    {"ReduceLogSum", {-1}, 0, {2, 2}, {2.0149031f, 2.4849067f, 1.5040774f, 2.3978953f}},
    {"ReduceLogSumExp", {1}, 1, {2, 1, 3}, {4.0485873f, 0.57888973f, 3.0001233f, 0.048587333f, 5.0485873f, 1.5788897f}},
    {"ReduceLogSumExp", {0, 2}, 0, {2}, {3.4561934f, 5.3432617f}},
    {"ReduceLogSumExp", {}, 1, {1, 1, 1}, {5.4843407f}},
    {"ReduceLogSumExp", {-1}, 0, {2, 2}, {3.1328452f, 4.0297947f, 2.1698461f, 5.030076f}},
    {"ReduceSumSquare", {1}, 1, {2, 1, 3}, {17.0f, 4.25f, 45.0f, 9.0f, 29.0f, 3.25f}},
    {"ReduceSumSquare", {0, 2}, 0, {2}, {19.0f, 88.5f}},
    {"ReduceSumSquare", {}, 1, {1, 1, 1}, {107.5f}},
    {"ReduceSumSquare", {-1}, 0, {2, 2}, {14.0f, 52.25f, 5.0f, 36.25f}},
};

// Every Reduce op, with axes as an attribute (opset 11; 1 for the first
// case) and as a constant and a non-constant input (13 / 18).
TEST(Reduce, AxesAttributeAndInputForms) {
  for (const ReduceCase& c : kAxesCases) {
    SCOPED_TRACE(std::string(c.op) + " axes " + shapeToString(c.axes) + " keepdims " + std::to_string(c.keepdims));
    for (int64_t opset : {int64_t(1), int64_t(11), int64_t(12), int64_t(13)}) {
      if (opset >= axesInputSince(c.op)) continue;
      OpTester t(c.op, opset);
      t.attr("keepdims", c.keepdims);
      if (!c.axes.empty()) t.attr("axes", c.axes);
      t.input("X", input(c.op)).expect("Y", f32(c.shape, c.y));
      t.run();
    }
    for (int64_t opset : {axesInputSince(c.op), int64_t(20)}) {
      for (bool constant : {true, false}) {
        OpTester t(c.op, opset);
        t.attr("keepdims", c.keepdims);
        t.input("X", input(c.op));
        if (!c.axes.empty()) t.input("axes", i64(c.axes), constant);
        t.expect("Y", f32(c.shape, c.y));
        t.run();
      }
    }
  }
}

// noop_with_empty_axes=1 with empty axes: a reduction over no axes, i.e. the
// per-element transform (x, |x|, x^2, log x ...), as onnx.reference does.
struct NoopCase {
  const char* op;
  std::vector<int64_t> shape;
  std::vector<float> y;
};
const NoopCase kNoopCases[] = {
    {"ReduceSum", {2, 2, 3}, {1.0f, -2.0f, 3.0f, 4.0f, 0.5f, -6.0f, 0.0f, 2.0f, -1.0f, -3.0f, 5.0f, 1.5f}},
    {"ReduceMean", {2, 2, 3}, {1.0f, -2.0f, 3.0f, 4.0f, 0.5f, -6.0f, 0.0f, 2.0f, -1.0f, -3.0f, 5.0f, 1.5f}},
    {"ReduceMax", {2, 2, 3}, {1.0f, -2.0f, 3.0f, 4.0f, 0.5f, -6.0f, 0.0f, 2.0f, -1.0f, -3.0f, 5.0f, 1.5f}},
    {"ReduceMin", {2, 2, 3}, {1.0f, -2.0f, 3.0f, 4.0f, 0.5f, -6.0f, 0.0f, 2.0f, -1.0f, -3.0f, 5.0f, 1.5f}},
    {"ReduceProd", {2, 2, 3}, {1.0f, -2.0f, 3.0f, 4.0f, 0.5f, -6.0f, 0.0f, 2.0f, -1.0f, -3.0f, 5.0f, 1.5f}},
    {"ReduceL1", {2, 2, 3}, {1.0f, 2.0f, 3.0f, 4.0f, 0.5f, 6.0f, 0.0f, 2.0f, 1.0f, 3.0f, 5.0f, 1.5f}},
    {"ReduceL2", {2, 2, 3}, {1.0f, 2.0f, 3.0f, 4.0f, 0.5f, 6.0f, 0.0f, 2.0f, 1.0f, 3.0f, 5.0f, 1.5f}},
    {"ReduceLogSum", {2, 2, 3}, {0.4054651f, 0.91629076f, 1.252763f, 1.5040774f, 0.0f, 1.8718022f, -0.69314718f, 0.91629076f, 0.4054651f, 1.252763f, 1.7047482f, 0.69314718f}},
    {"ReduceLogSumExp", {2, 2, 3}, {1.0f, -2.0f, 3.0f, 4.0f, 0.5f, -6.0f, 0.0f, 2.0f, -1.0f, -3.0f, 5.0f, 1.5f}},
    {"ReduceSumSquare", {2, 2, 3}, {1.0f, 4.0f, 9.0f, 16.0f, 0.25f, 36.0f, 0.0f, 4.0f, 1.0f, 9.0f, 25.0f, 2.25f}},
};

TEST(Reduce, NoopWithEmptyAxes) {
  for (const NoopCase& c : kNoopCases) {
    SCOPED_TRACE(c.op);
    OpTester t(c.op, axesInputSince(c.op));
    t.attr("noop_with_empty_axes", 1);
    t.input("X", input(c.op)).input("axes", Tensor(DataType::kInt64, {0}), true).expect("Y", f32(c.shape, c.y));
    t.run();
    OpTester absent(c.op, axesInputSince(c.op));
    absent.attr("noop_with_empty_axes", 1);
    absent.input("X", input(c.op)).expect("Y", f32(c.shape, c.y));
    absent.run();
  }
}

// Reducing a zero-size axis gives the identity of each reduction:
// run(op, [np.zeros((2,0,3), np.float32)], dict(axes=[1], keepdims=0), 11).
const NoopCase kEmptyCases[] = {
    {"ReduceSum", {2, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}},
    {"ReduceMean", {2, 3}, {kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}},
    {"ReduceMax", {2, 3}, {-kInf, -kInf, -kInf, -kInf, -kInf, -kInf}},
    {"ReduceMin", {2, 3}, {kInf, kInf, kInf, kInf, kInf, kInf}},
    {"ReduceProd", {2, 3}, {1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f}},
    {"ReduceL1", {2, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}},
    {"ReduceL2", {2, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}},
    {"ReduceLogSum", {2, 3}, {-kInf, -kInf, -kInf, -kInf, -kInf, -kInf}},
    {"ReduceLogSumExp", {2, 3}, {-kInf, -kInf, -kInf, -kInf, -kInf, -kInf}},
    {"ReduceSumSquare", {2, 3}, {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}},
};

TEST(Reduce, ZeroSizeAxis) {
  for (const NoopCase& c : kEmptyCases) {
    SCOPED_TRACE(c.op);
    OpTester t(c.op, 11);
    t.attr("axes", std::vector<int64_t>{1}).attr("keepdims", 0);
    t.input("X", Tensor(DataType::kFloat, {2, 0, 3})).expect("Y", f32(c.shape, c.y));
    t.run();
  }
}

// xi = np.array([[3,-7,2],[5,1,-4]], np.int64); run(op, [xi], dict(axes=[1], keepdims=0), 13)
struct IntCase {
  const char* op;
  std::vector<int64_t> y;
};
const IntCase kIntCases[] = {
    {"ReduceSum", {-2, 2}},
    {"ReduceMean", {0, 0}},
    {"ReduceMax", {3, 5}},
    {"ReduceMin", {-7, -4}},
    {"ReduceProd", {-42, -20}},
    {"ReduceL1", {12, 10}},
    {"ReduceL2", {7, 6}},
    {"ReduceSumSquare", {62, 42}},
};

TEST(Reduce, Int64) {
  for (const IntCase& c : kIntCases) {
    SCOPED_TRACE(c.op);
    OpTester t(c.op, 11);
    t.attr("axes", std::vector<int64_t>{1}).attr("keepdims", 0);
    t.input("X", Tensor::fromVector<int64_t>({2, 3}, {3, -7, 2, 5, 1, -4}))
        .expect("Y", Tensor::fromVector<int64_t>({2}, c.y));
    t.run();
  }
}

// run(op, [np.zeros((0,2), np.int32)], dict(axes=[0], keepdims=1), 13): iinfo min / max
TEST(Reduce, Int32EmptyMaxMin) {
  OpTester mx("ReduceMax", 13);
  mx.attr("axes", std::vector<int64_t>{0});
  mx.input("X", Tensor(DataType::kInt32, {0, 2}))
      .expect("Y", Tensor::fromVector<int32_t>({1, 2}, {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min()}));
  mx.run();
  OpTester mn("ReduceMin", 13);
  mn.attr("axes", std::vector<int64_t>{0});
  mn.input("X", Tensor(DataType::kInt32, {0, 2}))
      .expect("Y", Tensor::fromVector<int32_t>({1, 2}, {std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::max()}));
  mn.run();
}

// Non-adjacent axes take the general (offset table) path: x = np.arange(24).reshape(2,3,4)
// np.sum(x, axis=(0,2)) = [60, 92, 124]; np.max(x, axis=(0,2), keepdims=True) = [[[15],[19],[23]]]
TEST(Reduce, NonAdjacentAxesDouble) {
  std::vector<double> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  OpTester s("ReduceSum", 13);
  s.attr("keepdims", 0);
  s.input("X", Tensor::fromVector<double>({2, 3, 4}, v)).constantInput("axes", i64({0, 2}));
  s.expect("Y", Tensor::fromVector<double>({3}, {60, 92, 124}));
  s.run();
  OpTester m("ReduceMax", 18);
  m.input("X", Tensor::fromVector<double>({2, 3, 4}, v)).constantInput("axes", i64({2, 0}));
  m.expect("Y", Tensor::fromVector<double>({1, 3, 1}, {15, 19, 23}));
  m.run();
}

// float16 goes through float: np.sum(np.array([[1,2],[3,4.5]], np.float16), axis=0) = [4, 6.5]
TEST(Reduce, Float16) {
  auto h = [](std::vector<float> v) {
    std::vector<Float16> o;
    for (float f : v) o.push_back(Float16(f));
    return Tensor::fromVector<Float16>({static_cast<int64_t>(v.size() / 2), 2}, o);
  };
  OpTester t("ReduceSum", 11);
  t.attr("axes", std::vector<int64_t>{0}).attr("keepdims", 0);
  t.input("X", h({1, 2, 3, 4.5f})).expect("Y", h({4, 6.5f}).reshaped({2}));
  t.run();
}

TEST(Reduce, AxisOutOfRange) {
  OpTester t("ReduceMean", 13);
  t.attr("axes", std::vector<int64_t>{3});
  t.input("X", input("ReduceMean")).output("Y");
  t.expectError("axis 3 is out of range for rank 3");
}

TEST(Reduce, RepeatedAxis) {
  OpTester t("ReduceSum", 13);
  t.input("X", input("ReduceSum")).constantInput("axes", i64({1, -2})).output("Y");
  t.expectError("axis -2 is repeated");
}

// Opset 20 bool inputs (max = any, min = all), and int8/uint8 (opset 12+).
// X = np.array([[[1,0,0],[0,0,0]],[[1,1,1],[0,1,0]]], bool); expected: onnx.reference.ReferenceEvaluator,
// run(op, [X, np.array(axes)], dict(keepdims=kd), 20) for (axes, kd) in ([1],1), ([0,2],0), (None,1)
TEST(Reduce, BoolMaxMinOpset20) {
  const std::vector<bool> x = {true, false, false, false, false, false, true, true, true, false, true, false};
  struct BoolCase {
    const char* op;
    std::vector<int64_t> axes;
    int keepdims;
    std::vector<int64_t> shape;
    std::vector<bool> y;
  };
  const std::vector<BoolCase> cases = {
      {"ReduceMax", {1}, 1, {2, 1, 3}, {true, false, false, true, true, true}},
      {"ReduceMax", {0, 2}, 0, {2}, {true, true}},
      {"ReduceMax", {}, 1, {1, 1, 1}, {true}},
      {"ReduceMin", {1}, 1, {2, 1, 3}, {false, false, false, false, true, false}},
      {"ReduceMin", {0, 2}, 0, {2}, {false, false}},
      {"ReduceMin", {}, 1, {1, 1, 1}, {false}},
  };
  for (const BoolCase& c : cases) {
    SCOPED_TRACE(std::string(c.op) + " axes " + std::to_string(c.axes.size()));
    OpTester t(c.op, 20);
    t.attr("keepdims", c.keepdims).input("X", Tensor::fromVector<bool>({2, 2, 3}, x));
    if (!c.axes.empty()) t.input("axes", i64(c.axes), true);
    t.expect("Y", Tensor::fromVector<bool>(c.shape, c.y));
    t.run();
  }
}

// The spec's rule for an empty reduction: the type's lowest value for max
// (false), its highest for min (true). (onnx.reference gives True for both,
// casting -inf to bool; onnxruntime refuses empty bool reductions.)
TEST(Reduce, BoolEmptyReduction) {
  for (const char* op : {"ReduceMax", "ReduceMin"}) {
    OpTester t(op, 20);
    const bool y = std::string(op) == "ReduceMin";
    t.attr("keepdims", 0).input("X", Tensor(DataType::kBool, {2, 0, 3})).input("axes", i64({1}), true)
        .expect("Y", Tensor::fromVector<bool>({2, 3}, std::vector<bool>(6, y)));
    t.run();
  }
}

// X = np.array([[-3,7,0],[5,-8,2]], np.int8): ReduceMax-13 axes=[1] keepdims=0 -> [7,5];
// X.astype(np.uint8) = [[253,7,0],[5,248,2]]: ReduceMin-18 axes=[0] -> [[5,7,0]] (onnx.reference)
TEST(Reduce, Int8AndUInt8MaxMin) {
  OpTester a("ReduceMax", 13);
  a.attr("axes", std::vector<int64_t>{1}).attr("keepdims", 0)
      .input("X", Tensor::fromVector<int8_t>({2, 3}, {-3, 7, 0, 5, -8, 2}))
      .expect("Y", Tensor::fromVector<int8_t>({2}, {7, 5}));
  a.run();
  OpTester b("ReduceMin", 18);
  b.input("X", Tensor::fromVector<uint8_t>({2, 3}, {253, 7, 0, 5, 248, 2})).input("axes", i64({0}), true)
      .expect("Y", Tensor::fromVector<uint8_t>({1, 3}, {5, 7, 0}));
  b.run();
}

TEST(Reduce, BoolSumIsRejected) {
  OpTester t("ReduceSum", 13);
  t.input("X", Tensor::fromVector<bool>({2}, {true, false})).output("Y");
  t.expectError("data type bool is not supported");
}

// xl = np.array([[1,3,3,0],[2,2,-1,2]], np.float32)
// run(op, [xl], dict(axis=a, keepdims=kd, select_last_index=last), 13)
struct ArgCase {
  const char* op;
  int64_t axis, keepdims, last;
  std::vector<int64_t> shape, y;
};
const ArgCase kArgCases[] = {
    {"ArgMax", 0, 1, 0, {1, 4}, {1, 0, 0, 1}},
    {"ArgMax", 1, 0, 0, {2}, {1, 0}},
    {"ArgMax", 1, 1, 1, {2, 1}, {2, 3}},
    {"ArgMax", -1, 0, 1, {2}, {2, 3}},
    {"ArgMin", 0, 1, 0, {1, 4}, {0, 1, 1, 0}},
    {"ArgMin", 1, 0, 0, {2}, {3, 2}},
    {"ArgMin", 1, 1, 1, {2, 1}, {3, 2}},
    {"ArgMin", -1, 0, 1, {2}, {3, 2}},
};

TEST(ReduceArg, AxisKeepdimsSelectLastIndex) {
  for (const ArgCase& c : kArgCases) {
    SCOPED_TRACE(std::string(c.op) + " axis " + std::to_string(c.axis) + " last " + std::to_string(c.last));
    for (int64_t opset : {int64_t(12), int64_t(13)}) {
      OpTester t(c.op, opset);
      t.attr("axis", c.axis).attr("keepdims", c.keepdims).attr("select_last_index", c.last);
      t.input("X", f32({2, 4}, {1, 3, 3, 0, 2, 2, -1, 2})).expect("Y", Tensor::fromVector<int64_t>(c.shape, c.y));
      t.run();
    }
  }
}

// Opsets 1 and 11: default axis 0, first index. np.argmax([[1,5],[7,2]], axis=0) = [1, 0]
TEST(ReduceArg, OldOpsetsInt32) {
  for (int64_t opset : {1, 11}) {
    OpTester t("ArgMax", opset);
    t.input("X", Tensor::fromVector<int32_t>({2, 2}, {1, 5, 7, 2})).expect("Y", Tensor::fromVector<int64_t>({1, 2}, {1, 0}));
    t.run();
  }
}

TEST(ReduceArg, AxisOutOfRange) {
  OpTester t("ArgMin", 13);
  t.attr("axis", int64_t(2));
  t.input("X", f32({2, 2}, {1, 2, 3, 4})).output("Y");
  t.expectError("axis 2 is out of range for rank 2");
}

}  // namespace
}  // namespace oinfer::testing
