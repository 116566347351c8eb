// libFuzzer target for the ONNX loader (not built by default). Build:
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc -DONNX_ML=1 -DONNX_NAMESPACE=onnx tests/fuzz/fuzz_loader.cpp src/parser/*.cpp src/graph/{tensor,graph,error}.cpp -lonnx_proto -lprotobuf -lspdlog -lfmt -o fuzz_loader && ./fuzz_loader -max_len=8192 corpus/
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
