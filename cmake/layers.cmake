# The layer map of docs/ARCHITECTURE.md: each layer, the folder it is
# compiled from, and the layers it may use (its arrows). The build
# (CMakeLists.txt) and the include check (cmake/check_layers.cmake) both read
# it; change the map here and in the document together.
#
#   graph    IR, Tensor, .npy, topological sort, aligned memory   -> (nothing)
#   parser   ONNX protobuf -> IR                                  -> graph
#   shape    shape inference, one file per op family             -> graph
#   ops      registry, kernel contract, thread pool, evaluation,
#            device-neutral op helpers (src/ops/common)           -> shape, graph
#   cpu      CPU kernels by op family (src/ops/cpu)               -> ops, shape, graph
#   passes   graph passes and the pipeline builder                -> ops, shape, graph
#   runtime  planner, executor, device-backend interface          -> ops, shape, graph
#   cuda     CUDA kernels and the CUDA backend (src/ops/cuda)     -> runtime, ops, shape, graph
#   api      the public Graph / Session, the built-in registry    -> every layer
#
# Public headers (include/oinfer) may be included from any layer. Third-party
# headers are confined: protobuf / ONNX to parser, Eigen to cpu, CUDA to cuda.

set(OINFER_LAYERS graph parser shape ops cpu passes runtime cuda api)

set(OINFER_LAYER_DEPS_graph "")
set(OINFER_LAYER_DEPS_parser graph)
set(OINFER_LAYER_DEPS_shape graph)
set(OINFER_LAYER_DEPS_ops shape graph)
set(OINFER_LAYER_DEPS_cpu ops shape graph)
set(OINFER_LAYER_DEPS_passes ops shape graph)
set(OINFER_LAYER_DEPS_runtime ops shape graph)
set(OINFER_LAYER_DEPS_cuda runtime ops shape graph)
set(OINFER_LAYER_DEPS_api graph parser shape ops cpu passes runtime cuda)

# Third-party include prefixes (<...>) and the only layers that may use them.
set(OINFER_THIRD_PARTY_onnx parser)
set(OINFER_THIRD_PARTY_google parser)
set(OINFER_THIRD_PARTY_Eigen cpu)
set(OINFER_THIRD_PARTY_unsupported cpu)
set(OINFER_THIRD_PARTY_cuda cuda)
set(OINFER_THIRD_PARTY_cublas cuda)
set(OINFER_THIRD_PARTY_cublasLt cuda)
set(OINFER_THIRD_PARTY_cudnn cuda)
set(OINFER_THIRD_PARTY_cuda_runtime cuda)
set(OINFER_THIRD_PARTY_cuda_runtime_api cuda)
set(OINFER_THIRD_PARTY_cuda_fp16 cuda)

# The layer of a path relative to src/ ("ops/cpu/conv.cpp" -> cpu), or "".
function(oinfer_layer_of relpath out)
  set(layer "")
  if(relpath MATCHES "^ops/cpu/")
    set(layer cpu)
  elseif(relpath MATCHES "^ops/cuda/")
    set(layer cuda)
  elseif(relpath MATCHES "^(graph|parser|shape|ops|passes|runtime|api)/")
    set(layer ${CMAKE_MATCH_1})
  endif()
  set(${out} ${layer} PARENT_SCOPE)
endfunction()

# The sources of a layer.
function(oinfer_layer_sources layer out)
  set(root ${PROJECT_SOURCE_DIR}/src)
  if(layer STREQUAL "cpu")
    file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${root}/ops/cpu/*.cpp)
  elseif(layer STREQUAL "cuda")
    if(OINFER_HAVE_CUDA)
      file(GLOB srcs CONFIGURE_DEPENDS ${root}/ops/cuda/*.cpp ${root}/ops/cuda/*.cu)
    else()
      set(srcs "")
    endif()
  elseif(layer STREQUAL "ops")
    file(GLOB srcs CONFIGURE_DEPENDS ${root}/ops/*.cpp ${root}/ops/common/*.cpp)
  else()
    file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${root}/${layer}/*.cpp)
  endif()
  set(${out} ${srcs} PARENT_SCOPE)
endfunction()
