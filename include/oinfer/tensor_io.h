// Reading and writing tensors: ONNX TensorProto (.pb) and NumPy (.npy).
#pragma once

#include <string>

#include "oinfer/tensor.h"

namespace oinfer {

// A serialized onnx.TensorProto file (as in the ONNX backend test data).
Tensor loadTensorProto(const std::string& path);
Tensor parseTensorProto(const void* data, size_t size);
// NumPy .npy (version 1.0-3.0, little-endian, C order).
Tensor loadNpy(const std::string& path);
void saveNpy(const std::string& path, const Tensor& tensor);

}  // namespace oinfer

namespace oinfer {

// A serialized onnx.SequenceProto of tensors (sequence test data), in order.
std::vector<Tensor> loadSequenceProto(const std::string& path);

}  // namespace oinfer
