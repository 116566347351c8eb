// Comparison, logic, bitwise ops and Where.
#include <string>

#include "ops/cpu/elementwise_kernels.h"
#include "shape/elementwise.h"

namespace oinfer::cpu {
namespace {

struct EqualOp {
  template <class T> bool operator()(const T& a, const T& b) const { return a == b; }
};
struct LessOp {
  template <class T> bool operator()(T a, T b) const { return a < b; }
};
struct LessEqualOp {
  template <class T> bool operator()(T a, T b) const { return a <= b; }
};
struct GreaterOp {
  template <class T> bool operator()(T a, T b) const { return a > b; }
};
struct GreaterEqualOp {
  template <class T> bool operator()(T a, T b) const { return a >= b; }
};
struct AndOp {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
struct OrOp {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
struct XorOp {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
struct NotOp {
  template <class T> T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) return !x;
    else return static_cast<T>(~x);
  }
};
// Shifting by the full width or more gives 0 rather than undefined behaviour.
struct BitShiftOp {
  bool left = true;
  explicit BitShiftOp(const KernelInit& init) {
    const std::string d = init.node.attrString("direction", "");
    if (d != "LEFT" && d != "RIGHT") init.fail("direction must be LEFT or RIGHT, got '" + d + "'");
    left = d == "LEFT";
  }
  template <class T> T operator()(T a, T b) const {
    if (b >= static_cast<T>(sizeof(T) * 8)) return 0;
    return static_cast<T>(left ? a << b : a >> b);
  }
};

// Where only moves elements, so it dispatches on element size and handles
// every type with four instantiations (strings separately).
class WhereKernel final : public Kernel {
 public:
  explicit WhereKernel(const KernelInit& init) {
    std::vector<int64_t> c, x, y, o;
    if (staticShapeOf(init.inputs[0], c) && staticShapeOf(init.inputs[1], x) && staticShapeOf(init.inputs[2], y) &&
        staticShapeOf(init.outputs[0], o))
      cache_.prepare({&c, &x, &y}, o);
  }
  void run(KernelContext& ctx) override {
    const Tensor& c = ctx.input(0);
    const Tensor& x = ctx.input(1);
    const Tensor& y = ctx.input(2);
    Tensor& o = ctx.output(0);
    if (c.dtype() != DataType::kBool) ctx.fail("condition must be bool");
    if (x.dtype() != y.dtype()) ctx.fail("X and Y types differ");
    Broadcaster<3> local;
    const Broadcaster<3>& bc = cache_.get({&c.shape(), &x.shape(), &y.shape()}, o.shape(), local, ctx);
    auto select = [&](auto tag) {
      using T = typename decltype(tag)::type;
      const bool* pc = c.data<bool>();
      const T* px = static_cast<const T*>(x.data());
      const T* py = static_cast<const T*>(y.data());
      T* po = static_cast<T*>(o.data());
      const int64_t sc = bc.innerStride(0), sx = bc.innerStride(1), sy = bc.innerStride(2);
      parallelRows(ctx.pool(), bc, kGrainCheap, [&](int64_t out, const int64_t* off, int64_t n) {
        const bool* rc = pc + off[0];
        const T* rx = px + off[1];
        const T* ry = py + off[2];
        T* ro = po + out;
        if (sc && sx && sy) {
          for (int64_t i = 0; i < n; ++i) ro[i] = rc[i] ? rx[i] : ry[i];
        } else {
          for (int64_t i = 0; i < n; ++i) ro[i] = rc[i * sc] ? rx[i * sx] : ry[i * sy];
        }
      });
    };
    if (x.dtype() == DataType::kString) {
      select(TypeTag<std::string>{});
      return;
    }
    switch (dataTypeSize(x.dtype())) {
      case 1: select(TypeTag<uint8_t>{}); break;
      case 2: select(TypeTag<uint16_t>{}); break;
      case 4: select(TypeTag<uint32_t>{}); break;
      case 8: select(TypeTag<uint64_t>{}); break;
      default: ctx.fail(std::string("unsupported type ") + dataTypeName(x.dtype()));
    }
  }

 private:
  PlanCache<3> cache_;
};

using CompareTypes = NumericTypes;
using EqualTypes = TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t,
                            uint16_t, uint32_t, uint64_t, bool, std::string>;  // strings from opset 19

}  // namespace

void registerElementwiseLogic(Registry& r) {
  const auto cmpTypes = typesOf(CompareTypes{});
  addVersions(r, "Equal", {1, 7, 11, 13, 19}, shape::inferCompare, binaryFactory<EqualOp, EqualTypes, true>(),
              typesOf(EqualTypes{}));
  addVersions(r, "Less", {1, 7, 9, 13}, shape::inferCompare, binaryFactory<LessOp, CompareTypes, true>(), cmpTypes);
  addVersions(r, "LessOrEqual", {12, 16}, shape::inferCompare, binaryFactory<LessEqualOp, CompareTypes, true>(),
              cmpTypes);
  addVersions(r, "Greater", {1, 7, 9, 13}, shape::inferCompare, binaryFactory<GreaterOp, CompareTypes, true>(),
              cmpTypes);
  addVersions(r, "GreaterOrEqual", {12, 16}, shape::inferCompare,
              binaryFactory<GreaterEqualOp, CompareTypes, true>(), cmpTypes);

  const auto boolTypes = typesOf(BoolTypes{});
  addVersions(r, "Not", {1}, shape::propagateUnary, unaryFactory<NotOp>(BoolTypes{}), boolTypes);
  addVersions(r, "And", {1, 7}, shape::inferCompare, binaryFactory<AndOp, BoolTypes>(), boolTypes);
  addVersions(r, "Or", {1, 7}, shape::inferCompare, binaryFactory<OrOp, BoolTypes>(), boolTypes);
  addVersions(r, "Xor", {1, 7}, shape::inferCompare, binaryFactory<XorOp, BoolTypes>(), boolTypes);

  const auto ints = typesOf(AllIntTypes{});
  addVersions(r, "BitShift", {11}, shape::inferBinary, binaryFactory<BitShiftOp, UnsignedIntTypes>(),
              typesOf(UnsignedIntTypes{}));
  addVersions(r, "BitwiseAnd", {18}, shape::inferBinary, binaryFactory<AndOp, AllIntTypes>(), ints);
  addVersions(r, "BitwiseOr", {18}, shape::inferBinary, binaryFactory<OrOp, AllIntTypes>(), ints);
  addVersions(r, "BitwiseXor", {18}, shape::inferBinary, binaryFactory<XorOp, AllIntTypes>(), ints);
  addVersions(r, "BitwiseNot", {18}, shape::propagateUnary, unaryFactory<NotOp>(AllIntTypes{}), ints);

  std::vector<DataType> all = typesOf(NumericTypes{});
  all.push_back(DataType::kBool);
  all.push_back(DataType::kString);
  addVersions(r, "Where", {9, 16},
              shape::inferWhere,
              [](const KernelInit& init) -> std::unique_ptr<Kernel> { return std::make_unique<WhereKernel>(init); },
              all);
}

}  // namespace oinfer::cpu
