// The versioned op registry: (domain, op_type, since_version) -> shape function
// + kernels + what the runtime may do around the op. The CPU families fill it
// through register_<family>(Registry&) functions called from
// registerCpuOps() (src/ops/cpu/register_all.cpp); explicit calls, because
// static self-registering objects get dropped from static libraries. A
// device backend then attaches its kernels to the entries (attachKernel).
// Nothing here is global: the API layer owns the built-in registry
// (api/builtin_registry.h) and hands it down. A registry may sit over a base
// (the API layer's custom ops over the built-in ones): an op it has hides the
// base's entries of that op within its opset ranges.
#pragma once

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "oinfer/session.h"
#include "ops/kernel.h"
#include "shape/infer_context.h"

namespace oinfer {

struct OpDef {
  std::string domain;  // "" = default ONNX domain
  std::string opType;
  int sinceVersion = 1;
  shape::ShapeFn shape;
  KernelFactory cpu;
  KernelFactory cuda;           // empty: no CUDA kernel (falls back to CPU)
  // The dtypes the CPU kernel takes for input `typedInput` (its primary type
  // constraint): the one list docs/operators.md shows and the planner checks
  // (a node whose input has another dtype is an Error naming the node, the
  // input and both, before any kernel is made). Empty: not checked.
  std::vector<DataType> types;
  int viewOfInput = -1;         // >= 0: output 0 is a view of that input (Reshape-like)
  bool deterministic = true;    // false for random ops: never constant-folded
  BlockedFn blocked;            // empty: the CPU kernel reads and writes NCHW only
  // The output is its inputs joined along attribute "axis" (Concat): where
  // the pieces are contiguous in it, the planner may place each input inside
  // the output buffer, and the kernel skips a piece already in place.
  bool concatInPlace = false;
  // Reads only input 0's shape, never its data (Shape, Size): runs wherever
  // that input lives, with no copy.
  bool readsShapeOnly = false;
  // Which input `types` constrains; -1: none (an op whose listed type is
  // only its output's). (Last, so the positional OpDef{...} initializers of
  // the families keep their meaning.)
  int typedInput = 0;
  // > 0: the entry serves opsets up to this one only (custom ops, whose
  // definitions state a range); 0: up to the next entry of the op.
  int lastVersion = 0;
};

class Registry {
 public:
  Registry() = default;
  // A registry over `base`: find() asks this one first, then the base.
  explicit Registry(std::shared_ptr<const Registry> base) : base_(std::move(base)) {}
  const Registry* base() const { return base_.get(); }
  // Adds an entry; a duplicate (domain, op_type, since_version) throws.
  void add(OpDef def);
  // Sets the `device` kernel factory of every registered since_version of
  // (domain, opType); returns how many entries took it (0: no such op).
  int attachKernel(Device device, const std::string& domain, const std::string& opType, KernelFactory factory);
  // Sets capability flags on every since_version of an op (after add).
  template <class F>
  void updateOp(const std::string& domain, const std::string& opType, F&& f) {
    for (auto& [k, d] : defs_)
      if (std::get<0>(k) == domain && std::get<1>(k) == opType) f(d);
  }
  // The entry with the highest since_version <= opset (and lastVersion, when
  // set, >= opset) of this registry, else of the base; or nullptr.
  const OpDef* find(const std::string& domain, const std::string& opType, int64_t opset) const;
  // Whether this registry or its base has any version of the op.
  bool hasOp(const std::string& domain, const std::string& opType) const;
  // Every entry, ordered by (domain, op_type, since_version); an op this
  // registry has replaces the base's entries of that op in the list.
  std::vector<const OpDef*> all() const;

 private:
  const OpDef* findOwn(const std::string& domain, const std::string& opType, int64_t opset) const;
  bool hasOwnOp(const std::string& domain, const std::string& opType) const;
  std::map<std::tuple<std::string, std::string, int>, OpDef> defs_;
  std::shared_ptr<const Registry> base_;
};

// Registers `op` once per ONNX since_version, all sharing one shape function
// and kernel factory (which branch on the opset where semantics changed).
void addVersions(Registry& r, const std::string& op, std::initializer_list<int> versions, shape::ShapeFn fn,
                 KernelFactory cpu, std::vector<DataType> types, int viewOfInput = -1, BlockedFn blocked = nullptr);

}  // namespace oinfer
