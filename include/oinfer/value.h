// Value: what flows along a graph edge. Almost always a Tensor; sequences and
// optionals exist for the ops that make or take them (SequenceInsert, Loop
// bodies carrying a sequence, Optional*).
//
// An optional that holds something is represented by what it holds (a tensor
// or a sequence); only the empty optional has its own kind. The static type
// (ValueInfo::kind) says whether an edge is optional.
#pragma once

#include <vector>

#include "oinfer/graph.h"
#include "oinfer/tensor.h"

namespace oinfer {

struct Value {
  ValueKind kind = ValueKind::kTensor;  // kTensor, kSequence, or kOptional (= empty optional)
  Tensor tensor;                        // kTensor
  std::vector<Tensor> sequence;         // kSequence

  static Value fromTensor(Tensor t) {
    Value v;
    v.tensor = std::move(t);
    return v;
  }
  static Value fromSequence(std::vector<Tensor> s) {
    Value v;
    v.kind = ValueKind::kSequence;
    v.sequence = std::move(s);
    return v;
  }
  static Value none() {
    Value v;
    v.kind = ValueKind::kOptional;
    return v;
  }
  bool isTensor() const { return kind == ValueKind::kTensor; }
  bool isSequence() const { return kind == ValueKind::kSequence; }
  bool isNone() const { return kind == ValueKind::kOptional; }
  // "tensor float32 [2,3]", "sequence of 4 tensors", "empty optional": for messages.
  std::string describe() const;
};

}  // namespace oinfer
