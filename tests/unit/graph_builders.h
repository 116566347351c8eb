// Small builders for the unit tests that make graphs by hand (passes,
// fusion passes, the blocked layout).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "oinfer/oinfer.h"

namespace oinfer::test {

// Uniform in [lo, hi), float32.
inline Tensor rndT(std::vector<int64_t> shape, std::mt19937& rng, float lo = -1.f, float hi = 1.f) {
  Tensor t(DataType::kFloat, std::move(shape));
  std::uniform_real_distribution<float> d(lo, hi);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(rng);
  return t;
}

inline Node mk(const std::string& op, const std::string& name, std::vector<std::string> in,
               std::vector<std::string> out) {
  Node n;
  n.opType = op;
  n.name = name;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  return n;
}

}  // namespace oinfer::test
