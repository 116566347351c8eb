// The versioned op registry: (domain, op_type, since_version) -> shape function
// + kernels. Families fill it through register_<family>(Registry&) functions
// called from registerAll() (src/ops/register_all.cpp); explicit calls, because
// static self-registering objects get dropped from static libraries.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <tuple>
#include <vector>

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
  std::vector<DataType> types;  // the dtypes the CPU kernel handles (for docs and load checks)
  int viewOfInput = -1;         // >= 0: output 0 is a view of that input (Reshape-like)
  bool deterministic = true;    // false for random ops: never constant-folded
  BlockedFn blocked;            // empty: the CPU kernel reads and writes NCHW only
};

class Registry {
 public:
  // Adds an entry; a duplicate (domain, op_type, since_version) throws.
  void add(OpDef def);
  // The entry with the highest since_version <= opset, or nullptr.
  const OpDef* find(const std::string& domain, const std::string& opType, int64_t opset) const;
  bool hasOp(const std::string& domain, const std::string& opType) const;
  // Every entry, ordered by (domain, op_type, since_version).
  std::vector<const OpDef*> all() const;

  // The process-wide registry, filled by registerAll() on first use.
  static const Registry& global();

 private:
  std::map<std::tuple<std::string, std::string, int>, OpDef> defs_;
};

void registerAll(Registry& r);

// Registers `op` once per ONNX since_version, all sharing one shape function
// and kernel factory (which branch on the opset where semantics changed).
void addVersions(Registry& r, const std::string& op, std::initializer_list<int> versions, shape::ShapeFn fn,
                 KernelFactory cpu, std::vector<DataType> types, int viewOfInput = -1, BlockedFn blocked = nullptr);

}  // namespace oinfer
