// libFuzzer target for the ONNX loader (not built by default). Build:
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address -Iinclude -Isrc tests/fuzz/fuzz_loader.cpp src/parser/*.cpp src/graph/*.cpp $(pkg-config --cflags --libs protobuf) -DONNX_ML=1 -DONNX_NAMESPACE=onnx -lonnx_proto -o fuzz_loader
#include <cstddef>
#include <cstdint>

#include "oinfer/graph.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    // No base directory: external data is refused, so the fuzzer never reads files.
    oinfer::Graph g = oinfer::Graph::loadFromBuffer(data, size);
    (void)g;
  } catch (const oinfer::Error&) {
  }
  return 0;
}
