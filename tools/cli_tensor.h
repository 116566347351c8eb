// Tensor helpers of oinfer-run: reading input files, random inputs, statistics,
// top-k, and the --test-data comparison.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "oinfer/tensor.h"

namespace oinfer::cli {

// Whether the CLI can turn elements of this dtype into numbers.
bool isNumeric(DataType t);
bool isFloating(DataType t);
// Every element as a double (numeric dtypes only; throws otherwise).
std::vector<double> toDoubles(const Tensor& t);

struct Stats {
  int64_t count = 0;     // elements
  int64_t nanCount = 0;  // NaN elements, left out of min / max / mean
  double min = 0, max = 0, mean = 0;
  bool valid = false;    // false when no element is a number (empty, all NaN, or non-numeric)
};
Stats computeStats(const Tensor& t);

// Deterministic pseudo-random tensor: floats uniform in [-1, 1), integers in
// [0, 4), bools 0/1. The same name and shape always give the same values.
Tensor randomTensor(DataType dtype, const std::vector<int64_t>& shape, const std::string& name);

// The k largest elements (NaN excluded) as (flat index, value), largest first;
// ties keep the lower index first.
std::vector<std::pair<int64_t, double>> topK(const Tensor& t, int k);

struct Comparison {
  bool match = true;
  std::string message;       // why not, when !match
  double maxAbsError = 0;
  double maxRelError = 0;    // over elements whose expected value is nonzero
  int64_t mismatches = 0;    // elements outside tolerance
  int64_t firstMismatch = -1;
};
// |actual - expected| <= atol + rtol * |expected| per element; NaN matches NaN,
// infinities must be equal; integers, bools and strings must be equal; dtype and
// shape must match.
Comparison compareTensors(const Tensor& actual, const Tensor& expected, double rtol, double atol);

// Reads an input file: .npy or .pb (TensorProto), chosen by the extension.
Tensor loadTensorFile(const std::string& path);

// A file name made from a tensor name: [A-Za-z0-9._-] kept, everything else '_',
// never hidden, never empty.
std::string sanitizeFileName(const std::string& name);

// "[1,3,224,224]"-style shape of a symbolic model shape, "?" when unknown.
std::string describeShape(bool hasShape, const Shape& s);

}  // namespace oinfer::cli
