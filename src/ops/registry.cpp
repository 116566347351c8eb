#include "ops/registry.h"

#include <algorithm>


namespace oinfer {

void Registry::add(OpDef def) {
  if (def.domain == "ai.onnx") def.domain.clear();
  auto key = std::make_tuple(def.domain, def.opType, def.sinceVersion);
  if (defs_.count(key))
    throw Error(ErrorCode::kInternal, "registry: duplicate entry for " +
                                          (def.domain.empty() ? std::string("ai.onnx") : def.domain) + "::" +
                                          def.opType + " since opset " + std::to_string(def.sinceVersion));
  if (!def.shape)
    throw Error(ErrorCode::kInternal, "registry: " + def.opType + " has no shape function");
  defs_.emplace(std::move(key), std::move(def));
}

const OpDef* Registry::find(const std::string& domain, const std::string& opType, int64_t opset) const {
  if (const OpDef* own = findOwn(domain, opType, opset)) return own;
  return base_ ? base_->find(domain, opType, opset) : nullptr;
}

bool Registry::hasOp(const std::string& domain, const std::string& opType) const {
  return hasOwnOp(domain, opType) || (base_ && base_->hasOp(domain, opType));
}

const OpDef* Registry::findOwn(const std::string& domain, const std::string& opType, int64_t opset) const {
  const std::string d = domain == "ai.onnx" ? std::string() : domain;
  // Highest since_version <= opset: the last key below (d, op, opset + 1).
  auto it = defs_.upper_bound(std::make_tuple(d, opType, static_cast<int>(opset)));
  if (it == defs_.begin()) return nullptr;
  --it;
  const auto& [kd, kop, kv] = it->first;
  if (kd != d || kop != opType) return nullptr;
  if (it->second.lastVersion > 0 && opset > it->second.lastVersion) return nullptr;
  return &it->second;
}

bool Registry::hasOwnOp(const std::string& domain, const std::string& opType) const {
  const std::string d = domain == "ai.onnx" ? std::string() : domain;
  auto it = defs_.lower_bound(std::make_tuple(d, opType, 0));
  return it != defs_.end() && std::get<0>(it->first) == d && std::get<1>(it->first) == opType;
}

int Registry::attachKernel(Device device, const std::string& domain, const std::string& opType, KernelFactory factory) {
  const std::string d = domain == "ai.onnx" ? std::string() : domain;
  int n = 0;
  for (auto it = defs_.lower_bound(std::make_tuple(d, opType, 0));
       it != defs_.end() && std::get<0>(it->first) == d && std::get<1>(it->first) == opType; ++it, ++n) {
    if (device == Device::kCUDA) it->second.cuda = factory;
    else it->second.cpu = factory;
  }
  return n;
}

std::vector<const OpDef*> Registry::all() const {
  std::vector<const OpDef*> out;
  if (base_)
    for (const OpDef* d : base_->all())
      if (!hasOwnOp(d->domain, d->opType)) out.push_back(d);
  out.reserve(out.size() + defs_.size());
  for (const auto& [k, v] : defs_) out.push_back(&v);
  std::stable_sort(out.begin(), out.end(), [](const OpDef* a, const OpDef* b) {
    return std::tie(a->domain, a->opType, a->sinceVersion) < std::tie(b->domain, b->opType, b->sinceVersion);
  });
  return out;
}

void addVersions(Registry& r, const std::string& op, std::initializer_list<int> versions, shape::ShapeFn fn,
                 KernelFactory cpu, std::vector<DataType> types, int viewOfInput, BlockedFn blocked) {
  for (int v : versions) {
    OpDef d;
    d.opType = op;
    d.sinceVersion = v;
    d.shape = fn;
    d.cpu = cpu;
    d.types = types;
    d.viewOfInput = viewOfInput;
    d.blocked = blocked;
    r.add(std::move(d));
  }
}

}  // namespace oinfer
