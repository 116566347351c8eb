// The C API (include/oinfer/oinfer_c.h) over the C++ one. Every entry point
// runs its body inside guard(), which turns each exception into a status code
// and the calling thread's last-error message, so none crosses into C.
#include "oinfer/oinfer_c.h"

#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "oinfer/error.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "oinfer/tensor.h"
#include "oinfer/version.h"

using oinfer::DataType;
using oinfer::Error;
using oinfer::ErrorCode;

struct oinfer_value_info {
  const oinfer::ValueInfo* info = nullptr;
  std::vector<int64_t> dims;  // -1 for symbolic dims
};

struct oinfer_model {
  oinfer::Graph graph;
  // Built once at load (the graph is never changed afterwards), so the
  // pointers handed out stay valid for the model's life.
  std::vector<oinfer_value_info> inputs;
  std::vector<oinfer_value_info> outputs;
};

struct oinfer_session_options {
  oinfer::SessionOptions options;
};

struct oinfer_session {
  std::unique_ptr<oinfer::Session> session;
  std::vector<std::string> outputNames;  // the graph outputs, in order
};

struct oinfer_tensor {
  oinfer::Tensor tensor;
};

namespace {

// The per-thread last-error slot (the one thread_local of the api layer,
// cmake/check_thread_local.cmake): one short string per thread that has
// seen a failing call, freed when the thread ends.
thread_local std::string tlsLastError;

oinfer_status fail(oinfer_status status, std::string message) noexcept {
  try {
    tlsLastError = std::move(message);
  } catch (...) {
    tlsLastError.clear();  // no memory for the message: the code still says what happened
  }
  return status;
}

oinfer_status toStatus(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidModel: return OINFER_INVALID_MODEL;
    case ErrorCode::kUnsupportedOp: return OINFER_UNSUPPORTED_OP;
    case ErrorCode::kInvalidArgument: return OINFER_INVALID_ARGUMENT;
    case ErrorCode::kShapeMismatch: return OINFER_SHAPE_MISMATCH;
    case ErrorCode::kTypeMismatch: return OINFER_TYPE_MISMATCH;
    case ErrorCode::kIO: return OINFER_IO;
    case ErrorCode::kNotImplemented: return OINFER_NOT_IMPLEMENTED;
    case ErrorCode::kDevice: return OINFER_DEVICE;
    case ErrorCode::kInternal: return OINFER_INTERNAL;
    case ErrorCode::kCancelled: return OINFER_CANCELLED;
    case ErrorCode::kResourceExhausted: return OINFER_OUT_OF_MEMORY;
  }
  return OINFER_INTERNAL;
}

// Runs `body` (which returns nothing and throws on failure): OINFER_OK, or
// the status and message of what it threw.
template <class F>
oinfer_status guard(const char* function, F&& body) noexcept {
  try {
    body();
    return OINFER_OK;
  } catch (const Error& e) {
    return fail(toStatus(e.code()), std::string(function) + ": " + e.what());
  } catch (const std::bad_alloc&) {
    return fail(OINFER_OUT_OF_MEMORY, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return fail(OINFER_INTERNAL, std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(OINFER_INTERNAL, std::string(function) + ": unknown exception");
  }
}

[[noreturn]] void invalid(const std::string& message) { throw Error(ErrorCode::kInvalidArgument, message); }

// Null handles and out-pointers are argument errors naming the parameter.
template <class T>
void require(const T* p, const char* name) {
  if (p == nullptr) invalid(std::string(name) + " is NULL");
}

void buildInfos(const std::vector<oinfer::ValueInfo>& values, std::vector<oinfer_value_info>& out) {
  out.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    out[i].info = &values[i];
    if (!values[i].hasShape) continue;
    for (const oinfer::Dim& d : values[i].shape) out[i].dims.push_back(d.isStatic() ? d.value : -1);
  }
}

oinfer_model* newModel(oinfer::Graph graph) {
  auto model = std::make_unique<oinfer_model>();
  model->graph = std::move(graph);
  buildInfos(model->graph.inputs(), model->inputs);
  buildInfos(model->graph.outputs(), model->outputs);
  return model.release();
}

// A C caller may pass any int as one of the API's enums (a C enum is an
// int); reading such a value as the C++ enum is undefined behaviour when it
// lies outside the enumerators' range (UBSan's enum check), so the bits are
// read as the int they are.
template <class E>
int32_t enumBits(const E& e) {  // by reference: copying an out-of-range enum is itself a load UBSan flags
  static_assert(sizeof(E) == sizeof(int32_t), "the C API's enums are int-sized");
  int32_t v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

DataType checkedDtype(const oinfer_dtype& dtype) {  // by reference, as enumBits
  const int32_t v = enumBits(dtype);
  if (!oinfer::isValidDataType(v) || v == 0)
    invalid("dtype " + std::to_string(v) + " is not a data type");
  if (static_cast<DataType>(v) == DataType::kString)
    throw Error(ErrorCode::kNotImplemented,
                "string tensors cannot be made through the C API");
  return static_cast<DataType>(v);
}

std::vector<int64_t> checkedShape(const int64_t* shape, size_t rank) {
  if (rank > 0 && shape == nullptr) invalid("shape is NULL with rank " + std::to_string(rank));
  std::vector<int64_t> dims(shape, shape + rank);
  for (size_t i = 0; i < rank; ++i)
    if (dims[i] < 0)
      invalid("dimension " + std::to_string(i) + " is " + std::to_string(dims[i]) +
              " (shape " + oinfer::shapeToString(dims) + ")");
  oinfer::numElements(dims);  // throws on overflow
  return dims;
}

void checkByteSize(DataType dt, const std::vector<int64_t>& dims, const void* data, size_t byteSize) {
  const int64_t n = oinfer::numElements(dims);
  const size_t elem = oinfer::dataTypeSize(dt);
  if (n > 0 && static_cast<uint64_t>(n) > SIZE_MAX / elem)
    invalid("shape " + oinfer::shapeToString(dims) + " is too large");
  const size_t need = static_cast<size_t>(n) * elem;
  if (byteSize != need)
    invalid("byte_size is " + std::to_string(byteSize) + ", but " + oinfer::dataTypeName(dt) +
            " " + oinfer::shapeToString(dims) + " takes " + std::to_string(need) + " bytes");
  if (need > 0 && data == nullptr) invalid("data is NULL");
}

const oinfer_value_info* infoAt(const std::vector<oinfer_value_info>& infos, size_t index,
                                const char* what) {
  if (index >= infos.size())
    invalid("index " + std::to_string(index) + " is past the model's " + std::to_string(infos.size()) + " " +
            what);
  return &infos[index];
}

}  // namespace

extern "C" {

// ---- status, version, data types ------------------------------------------------

const char* oinfer_status_name(oinfer_status status) {
  switch (enumBits(status)) {
    case OINFER_OK: return "OINFER_OK";
    case OINFER_INVALID_MODEL: return "OINFER_INVALID_MODEL";
    case OINFER_UNSUPPORTED_OP: return "OINFER_UNSUPPORTED_OP";
    case OINFER_INVALID_ARGUMENT: return "OINFER_INVALID_ARGUMENT";
    case OINFER_SHAPE_MISMATCH: return "OINFER_SHAPE_MISMATCH";
    case OINFER_TYPE_MISMATCH: return "OINFER_TYPE_MISMATCH";
    case OINFER_IO: return "OINFER_IO";
    case OINFER_NOT_IMPLEMENTED: return "OINFER_NOT_IMPLEMENTED";
    case OINFER_DEVICE: return "OINFER_DEVICE";
    case OINFER_INTERNAL: return "OINFER_INTERNAL";
    case OINFER_OUT_OF_MEMORY: return "OINFER_OUT_OF_MEMORY";
    case OINFER_CANCELLED: return "OINFER_CANCELLED";
  }
  return "OINFER_UNKNOWN_STATUS";
}

const char* oinfer_last_error_message(void) { return tlsLastError.c_str(); }

const char* oinfer_version(void) { return OINFER_VERSION_STRING; }

int oinfer_c_api_version(void) { return OINFER_C_API_VERSION; }

const char* oinfer_dtype_name(oinfer_dtype dtype) {
  const int32_t v = enumBits(dtype);
  return oinfer::isValidDataType(v) ? oinfer::dataTypeName(static_cast<DataType>(v)) : "undefined";
}

size_t oinfer_dtype_size(oinfer_dtype dtype) {
  const int32_t v = enumBits(dtype);
  if (!oinfer::isValidDataType(v) || v == 0 || static_cast<DataType>(v) == DataType::kString) return 0;
  return oinfer::dataTypeSize(static_cast<DataType>(v));
}

// ---- model ------------------------------------------------------------------------

oinfer_status oinfer_model_load(const char* path, oinfer_model** out) {
  return guard("oinfer_model_load", [&] {
    require(path, "path");
    require(out, "out");
    *out = newModel(oinfer::Graph::loadFromONNX(path));
  });
}

oinfer_status oinfer_model_load_from_buffer(const void* data, size_t size, oinfer_model** out) {
  return guard("oinfer_model_load_from_buffer", [&] {
    if (data == nullptr && size > 0) invalid("data is NULL");
    require(out, "out");
    *out = newModel(oinfer::Graph::loadFromBuffer(data, size));
  });
}

void oinfer_model_free(oinfer_model* model) { delete model; }

oinfer_status oinfer_model_input_count(const oinfer_model* model, size_t* count) {
  return guard("oinfer_model_input_count", [&] {
    require(model, "model");
    require(count, "count");
    *count = model->inputs.size();
  });
}

oinfer_status oinfer_model_output_count(const oinfer_model* model, size_t* count) {
  return guard("oinfer_model_output_count", [&] {
    require(model, "model");
    require(count, "count");
    *count = model->outputs.size();
  });
}

oinfer_status oinfer_model_input(const oinfer_model* model, size_t index, const oinfer_value_info** info) {
  return guard("oinfer_model_input", [&] {
    require(model, "model");
    require(info, "info");
    *info = infoAt(model->inputs, index, "inputs");
  });
}

oinfer_status oinfer_model_output(const oinfer_model* model, size_t index, const oinfer_value_info** info) {
  return guard("oinfer_model_output", [&] {
    require(model, "model");
    require(info, "info");
    *info = infoAt(model->outputs, index, "outputs");
  });
}

oinfer_status oinfer_value_info_name(const oinfer_value_info* info, const char** name) {
  return guard("oinfer_value_info_name", [&] {
    require(info, "info");
    require(name, "name");
    *name = info->info->name.c_str();
  });
}

oinfer_status oinfer_value_info_dtype(const oinfer_value_info* info, oinfer_dtype* dtype) {
  return guard("oinfer_value_info_dtype", [&] {
    require(info, "info");
    require(dtype, "dtype");
    *dtype = static_cast<oinfer_dtype>(info->info->dtype);
  });
}

oinfer_status oinfer_value_info_is_tensor(const oinfer_value_info* info, int* is_tensor) {
  return guard("oinfer_value_info_is_tensor", [&] {
    require(info, "info");
    require(is_tensor, "is_tensor");
    *is_tensor = info->info->kind == oinfer::ValueKind::kTensor ? 1 : 0;
  });
}

oinfer_status oinfer_value_info_rank(const oinfer_value_info* info, int64_t* rank) {
  return guard("oinfer_value_info_rank", [&] {
    require(info, "info");
    require(rank, "rank");
    *rank = info->info->hasShape ? static_cast<int64_t>(info->dims.size()) : -1;
  });
}

oinfer_status oinfer_value_info_dims(const oinfer_value_info* info, const int64_t** dims) {
  return guard("oinfer_value_info_dims", [&] {
    require(info, "info");
    require(dims, "dims");
    *dims = info->dims.empty() ? nullptr : info->dims.data();
  });
}

oinfer_status oinfer_value_info_dim_name(const oinfer_value_info* info, size_t axis, const char** name) {
  return guard("oinfer_value_info_dim_name", [&] {
    require(info, "info");
    require(name, "name");
    if (axis >= info->dims.size())
      invalid("axis " + std::to_string(axis) + " of '" + info->info->name + "', whose rank is " +
              (info->info->hasShape ? std::to_string(info->dims.size()) : std::string("unknown")));
    *name = info->info->shape[axis].isStatic() ? "" : info->info->shape[axis].symbol.c_str();
  });
}

// ---- session options ------------------------------------------------------------

oinfer_status oinfer_session_options_create(oinfer_session_options** out) {
  return guard("oinfer_session_options_create", [&] {
    require(out, "out");
    *out = new oinfer_session_options();
  });
}

void oinfer_session_options_free(oinfer_session_options* options) { delete options; }

oinfer_status oinfer_session_options_set_threads(oinfer_session_options* options, int threads) {
  return guard("oinfer_session_options_set_threads", [&] {
    require(options, "options");
    if (threads < 0) invalid("threads is " + std::to_string(threads) + "; it must be >= 0 (0: one per hardware thread)");
    options->options.threads = threads;
  });
}

oinfer_status oinfer_session_options_set_optimization_level(oinfer_session_options* options, int level) {
  return guard("oinfer_session_options_set_optimization_level", [&] {
    require(options, "options");
    if (level < 0 || level > 2) invalid("level is " + std::to_string(level) + "; it must be 0, 1 or 2");
    options->options.optimizationLevel = level;
  });
}

oinfer_status oinfer_session_options_set_log_level(oinfer_session_options* options, const char* level) {
  return guard("oinfer_session_options_set_log_level", [&] {
    require(options, "options");
    require(level, "level");
    static const char* const kLevels[] = {"trace", "debug", "info", "warn", "error", "off"};
    bool known = false;
    for (const char* l : kLevels) known |= std::strcmp(l, level) == 0;
    if (!known) invalid(std::string("level '") + level + "'; expected trace, debug, info, warn, error or off");
    options->options.logLevel = level;
  });
}

oinfer_status oinfer_session_options_set_profiling(oinfer_session_options* options, int enable) {
  return guard("oinfer_session_options_set_profiling", [&] {
    require(options, "options");
    options->options.profiling = enable != 0;
  });
}

oinfer_status oinfer_session_options_set_blocked_layout(oinfer_session_options* options, int enable) {
  return guard("oinfer_session_options_set_blocked_layout", [&] {
    require(options, "options");
    options->options.blockedLayout = enable != 0;
  });
}

oinfer_status oinfer_session_options_set_fp16(oinfer_session_options* options, int enable) {
  return guard("oinfer_session_options_set_fp16", [&] {
    require(options, "options");
    options->options.fp16 = enable != 0;
  });
}

oinfer_status oinfer_session_options_set_run_timeout(oinfer_session_options* options, double seconds) {
  return guard("oinfer_session_options_set_run_timeout", [&] {
    require(options, "options");
    if (!(seconds >= 0) || seconds > 1e12)
      throw Error(ErrorCode::kInvalidArgument, "run timeout " + std::to_string(seconds) +
                                                   " s: must be a number of seconds >= 0 (0: none)");
    options->options.runTimeoutSeconds = seconds;
  });
}

oinfer_status oinfer_session_options_set_device(oinfer_session_options* options, oinfer_device device,
                                               int device_index) {
  return guard("oinfer_session_options_set_device", [&] {
    require(options, "options");
    const int32_t d = enumBits(device);
    if (d != OINFER_DEVICE_CPU && d != OINFER_DEVICE_CUDA)
      invalid("device " + std::to_string(d) + " is neither OINFER_DEVICE_CPU nor OINFER_DEVICE_CUDA");
    if (device_index < 0) invalid("device_index is " + std::to_string(device_index) + "; it must be >= 0");
    options->options.device = d == OINFER_DEVICE_CUDA ? oinfer::Device::kCUDA : oinfer::Device::kCPU;
    options->options.deviceIndex = device_index;
    options->options.deviceIO = false;  // the C API's tensors live in host memory
  });
}

oinfer_status oinfer_session_options_add_custom_op_library(oinfer_session_options* options, const char* path) {
  return guard("oinfer_session_options_add_custom_op_library", [&] {
    require(options, "options");
    require(path, "path");
    oinfer::loadCustomOpLibrary(path);  // errors now, naming the library
    options->options.customOpLibraries.push_back(path);
  });
}

oinfer_status oinfer_register_custom_op_library(const char* path) {
  return guard("oinfer_register_custom_op_library", [&] {
    require(path, "path");
    oinfer::registerGlobalCustomOps(oinfer::loadCustomOpLibrary(path));
  });
}

// ---- session ------------------------------------------------------------------------

oinfer_status oinfer_session_create(const oinfer_model* model, const oinfer_session_options* options,
                                    oinfer_session** out) {
  return guard("oinfer_session_create", [&] {
    require(model, "model");
    require(out, "out");
    auto s = std::make_unique<oinfer_session>();
    // A copy of the graph: the weights' bytes are shared, so this is cheap,
    // and the session does not depend on the model handle afterwards.
    s->session = std::make_unique<oinfer::Session>(model->graph, options ? options->options : oinfer::SessionOptions{});
    for (const oinfer::ValueInfo& o : s->session->graph().outputs()) s->outputNames.push_back(o.name);
    *out = s.release();
  });
}

void oinfer_session_free(oinfer_session* session) { delete session; }

oinfer_status oinfer_session_terminate(oinfer_session* session) {
  return guard("oinfer_session_terminate", [&] {
    require(session, "session");
    session->session->terminate();
  });
}

oinfer_status oinfer_session_run(oinfer_session* session, const char* const* input_names,
                                 oinfer_tensor* const* inputs, size_t num_inputs,
                                 const char* const* output_names, size_t num_outputs, oinfer_tensor** outputs) {
  return guard("oinfer_session_run", [&] {
    require(session, "session");
    if (num_inputs > 0) {
      require(input_names, "input_names");
      require(inputs, "inputs");
    }
    if (num_outputs > 0) require(outputs, "outputs");
    oinfer::TensorMap feeds;
    for (size_t i = 0; i < num_inputs; ++i) {
      if (input_names[i] == nullptr) invalid("input_names[" + std::to_string(i) + "] is NULL");
      if (inputs[i] == nullptr) invalid("inputs[" + std::to_string(i) + "] ('" + input_names[i] + "') is NULL");
      if (!feeds.emplace(input_names[i], inputs[i]->tensor).second)
        invalid(std::string("input '") + input_names[i] + "' is given twice");
    }
    std::vector<std::string> fetch;
    if (output_names == nullptr) {
      if (num_outputs != session->outputNames.size())
        invalid("output_names is NULL (every graph output) but num_outputs is " + std::to_string(num_outputs) +
                "; the model has " + std::to_string(session->outputNames.size()));
      fetch = session->outputNames;
    } else {
      for (size_t j = 0; j < num_outputs; ++j) {
        if (output_names[j] == nullptr) invalid("output_names[" + std::to_string(j) + "] is NULL");
        fetch.emplace_back(output_names[j]);
      }
    }
    std::vector<oinfer::Tensor> results = session->session->run(feeds, fetch);
    if (results.size() != fetch.size())
      throw Error(ErrorCode::kInternal, "Session::run returned " + std::to_string(results.size()) + " values for " +
                                            std::to_string(fetch.size()) + " names");
    // Check every caller tensor before writing any, and make the new
    // handles before handing any out, so a failure creates nothing.
    for (size_t j = 0; j < num_outputs; ++j) {
      if (outputs[j] == nullptr) continue;
      const oinfer::Tensor& dst = outputs[j]->tensor;
      const oinfer::Tensor& src = results[j];
      if (dst.dtype() != src.dtype())
        throw Error(ErrorCode::kTypeMismatch, "output '" + fetch[j] + "' is " + oinfer::dataTypeName(src.dtype()) +
                                                  ", but outputs[" + std::to_string(j) + "] is " +
                                                  oinfer::dataTypeName(dst.dtype()));
      if (dst.shape() != src.shape())
        throw Error(ErrorCode::kShapeMismatch, "output '" + fetch[j] + "' has shape " +
                                                   oinfer::shapeToString(src.shape()) + ", but outputs[" +
                                                   std::to_string(j) + "] has shape " +
                                                   oinfer::shapeToString(dst.shape()));
    }
    std::vector<std::unique_ptr<oinfer_tensor>> created(num_outputs);
    for (size_t j = 0; j < num_outputs; ++j)
      if (outputs[j] == nullptr) created[j].reset(new oinfer_tensor{std::move(results[j])});
    for (size_t j = 0; j < num_outputs; ++j)
      if (outputs[j] != nullptr) outputs[j]->tensor.copyFrom(results[j]);
    for (size_t j = 0; j < num_outputs; ++j)
      if (created[j]) outputs[j] = created[j].release();
  });
}

// ---- tensor ---------------------------------------------------------------------------

oinfer_status oinfer_tensor_create(oinfer_dtype dtype, const int64_t* shape, size_t rank, oinfer_tensor** out) {
  return guard("oinfer_tensor_create", [&] {
    require(out, "out");
    const DataType dt = checkedDtype(dtype);
    std::vector<int64_t> dims = checkedShape(shape, rank);
    *out = new oinfer_tensor{oinfer::Tensor(dt, std::move(dims))};
  });
}

oinfer_status oinfer_tensor_create_copy(oinfer_dtype dtype, const int64_t* shape, size_t rank, const void* data,
                                        size_t byte_size, oinfer_tensor** out) {
  return guard("oinfer_tensor_create_copy", [&] {
    require(out, "out");
    const DataType dt = checkedDtype(dtype);
    std::vector<int64_t> dims = checkedShape(shape, rank);
    checkByteSize(dt, dims, data, byte_size);
    oinfer::Tensor t(dt, std::move(dims));
    if (byte_size > 0) std::memcpy(t.data(), data, byte_size);
    *out = new oinfer_tensor{std::move(t)};
  });
}

oinfer_status oinfer_tensor_create_wrap(oinfer_dtype dtype, const int64_t* shape, size_t rank, void* data,
                                        size_t byte_size, oinfer_tensor** out) {
  return guard("oinfer_tensor_create_wrap", [&] {
    require(out, "out");
    const DataType dt = checkedDtype(dtype);
    std::vector<int64_t> dims = checkedShape(shape, rank);
    checkByteSize(dt, dims, data, byte_size);
    if (reinterpret_cast<uintptr_t>(data) % oinfer::dataTypeSize(dt) != 0)
      invalid("data is not aligned for " + std::string(oinfer::dataTypeName(dt)));
    *out = new oinfer_tensor{oinfer::Tensor::wrap(dt, std::move(dims), data)};
  });
}

void oinfer_tensor_free(oinfer_tensor* tensor) { delete tensor; }

oinfer_status oinfer_tensor_dtype(const oinfer_tensor* tensor, oinfer_dtype* dtype) {
  return guard("oinfer_tensor_dtype", [&] {
    require(tensor, "tensor");
    require(dtype, "dtype");
    *dtype = static_cast<oinfer_dtype>(tensor->tensor.dtype());
  });
}

oinfer_status oinfer_tensor_shape(const oinfer_tensor* tensor, const int64_t** dims, size_t* rank) {
  return guard("oinfer_tensor_shape", [&] {
    require(tensor, "tensor");
    require(dims, "dims");
    require(rank, "rank");
    const std::vector<int64_t>& s = tensor->tensor.shape();
    *dims = s.empty() ? nullptr : s.data();
    *rank = s.size();
  });
}

oinfer_status oinfer_tensor_element_count(const oinfer_tensor* tensor, int64_t* count) {
  return guard("oinfer_tensor_element_count", [&] {
    require(tensor, "tensor");
    require(count, "count");
    *count = tensor->tensor.numel();
  });
}

oinfer_status oinfer_tensor_data(oinfer_tensor* tensor, void** data) {
  return guard("oinfer_tensor_data", [&] {
    require(tensor, "tensor");
    require(data, "data");
    if (tensor->tensor.dtype() == DataType::kString)
      invalid("a string tensor has no raw buffer; read it with oinfer_tensor_string");
    *data = tensor->tensor.data();
  });
}

oinfer_status oinfer_tensor_byte_size(const oinfer_tensor* tensor, size_t* byte_size) {
  return guard("oinfer_tensor_byte_size", [&] {
    require(tensor, "tensor");
    require(byte_size, "byte_size");
    *byte_size = tensor->tensor.dtype() == DataType::kString ? 0 : tensor->tensor.nbytes();
  });
}

oinfer_status oinfer_tensor_string(const oinfer_tensor* tensor, size_t index, const char** str, size_t* length) {
  return guard("oinfer_tensor_string", [&] {
    require(tensor, "tensor");
    require(str, "str");
    require(length, "length");
    const oinfer::Tensor& t = tensor->tensor;
    if (t.dtype() != DataType::kString)
      invalid(std::string("the tensor is ") + oinfer::dataTypeName(t.dtype()) + ", not string");
    if (index >= static_cast<size_t>(t.numel()))
      invalid("index " + std::to_string(index) + " is past the tensor's " +
              std::to_string(t.numel()) + " elements");
    const std::string& s = t.data<std::string>()[index];
    *str = s.c_str();
    *length = s.size();
  });
}

}  // extern "C"
