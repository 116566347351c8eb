// The pass pipeline: the one place that decides which passes run, in which
// order, for a session's optimization level, device and precision.
#pragma once

#include <string>
#include <vector>

#include "graph/ir.h"
#include "oinfer/session.h"
#include "passes/passes.h"

namespace oinfer::passes {

struct PipelineOptions {
  int level = 2;                 // 0: no pass (fp16 conversion still runs); 1: folding only; 2: all
  Device device = Device::kCPU;  // device sessions skip the CPU-only fusions
  bool fp16 = false;             // SessionOptions::fp16: keep ONNX ops, then convert
  bool blockedLayout = false;    // PassContext::blockedLayout
};

using PassFn = int (*)(ir::Graph&, const PassContext&);
struct Pass {
  const char* name;
  PassFn run;
};

// The passes for these options, in order:
//   fp16:  foldConvBatchNorm, convertToFloat16 (the fused ai.oinfer ops are
//          float32 kernels, so no other fusion);
//   CUDA:  foldConvBatchNorm, fuseConvActivation, transformerGroupDevice
//          (the fusions whose ops have CUDA kernels);
//   CPU:   foldConstants, foldConvBatchNorm, fuseConvActivation,
//          fuseConvMaxPool, fuseConvDepthwise, transformerGroup.
// Level 0 keeps only convertToFloat16.
std::vector<Pass> buildPipeline(const PipelineOptions& options);

// Runs `pipeline` over `g` (sorted first): after each pass that reports a
// change the graph's order and types are invalidated and it is sorted again.
// Returns the passes that changed something, "name: count" each (for logs).
std::vector<std::string> runPipeline(ir::Graph& g, const std::vector<Pass>& pipeline, const PassContext& ctx);

// buildPipeline + runPipeline.
void optimize(ir::Graph& g, const Registry& registry, const PipelineOptions& options);

}  // namespace oinfer::passes
