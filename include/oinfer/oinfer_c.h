/* oinfer C API: load an ONNX model, inspect it, run it, from C (C99) or any
 * language with a C FFI.
 *
 * Handles. Four opaque types, each created by one function and released by
 * its *_free function (which accepts NULL):
 *   oinfer_model            a loaded model (immutable once loaded)
 *   oinfer_session_options  settings read once, when a session is created
 *   oinfer_session          a model prepared for running
 *   oinfer_tensor           a dense row-major n-d array (dtype + shape + data)
 * plus oinfer_value_info, a borrowed view of one model input or output that
 * the model owns (never freed by the caller, valid while the model lives).
 *
 * Errors. Every function but oinfer_version, oinfer_c_api_version,
 * oinfer_status_name, oinfer_dtype_name, oinfer_dtype_size,
 * oinfer_last_error_message and the *_free functions returns an
 * oinfer_status: OINFER_OK (0) on success, else the code of the error. A call
 * that fails also stores a message naming the culprit (the file, the input,
 * the argument) in a per-thread slot that oinfer_last_error_message() reads:
 * the message of the most recent failing call made by the calling thread.
 * Successful calls leave the slot as it was, so read it right after the
 * failing call. A failing call leaves its out-parameters untouched and creates
 * nothing. Null handles and null pointer arguments are reported as
 * OINFER_INVALID_ARGUMENT, never dereferenced. No C++ exception crosses this
 * interface: the library catches them all (out of memory becomes
 * OINFER_OUT_OF_MEMORY, anything unexpected OINFER_INTERNAL).
 *
 * Threads. Unless a function says otherwise: handles may be read from several
 * threads at once (a model, options or a tensor used as an input by
 * concurrent calls), but not modified while another thread uses them, and a
 * *_free must not race with any other use of that handle. oinfer_session_run
 * is safe to call concurrently on one session.
 *
 * Lifetime. A session keeps what it needs from the model and the options:
 * both may be freed as soon as oinfer_session_create returns. Tensors are
 * independent of the session that produced them.
 */
#ifndef OINFER_OINFER_C_H_
#define OINFER_OINFER_C_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(OINFER_C_API_BUILD)
#define OINFER_C_EXPORT __declspec(dllexport)
#else
#define OINFER_C_EXPORT
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define OINFER_C_EXPORT __attribute__((visibility("default")))
#else
#define OINFER_C_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a function is added (new functions only ever get added);
 * compare the header's value with oinfer_c_api_version() at run time. */
#define OINFER_C_API_VERSION 2 /* 2: run timeout and terminate, custom op libraries */

/* ---- status ------------------------------------------------------------ */

/* OINFER_OK plus the codes of oinfer::ErrorCode, in the same order, plus
 * OINFER_OUT_OF_MEMORY; OINFER_CANCELLED (API version 2) is
 * oinfer::ErrorCode::kCancelled. */
typedef enum oinfer_status {
  OINFER_OK = 0,
  OINFER_INVALID_MODEL = 1,     /* malformed or inconsistent model file */
  OINFER_UNSUPPORTED_OP = 2,    /* op, opset or dtype the engine lacks */
  OINFER_INVALID_ARGUMENT = 3,  /* bad input from the caller: null pointer, unknown name, dtype, shape */
  OINFER_SHAPE_MISMATCH = 4,    /* incompatible shapes found inside the graph, or a preallocated output */
  OINFER_TYPE_MISMATCH = 5,     /* dtype inconsistency inside the graph, or a preallocated output */
  OINFER_IO = 6,                /* a file could not be read */
  OINFER_NOT_IMPLEMENTED = 7,   /* in the ONNX spec, not in oinfer (yet) */
  OINFER_DEVICE = 8,            /* device (CUDA) unavailable or failed */
  OINFER_INTERNAL = 9,          /* a bug in oinfer */
  OINFER_OUT_OF_MEMORY = 10,    /* an allocation failed, or would pass the session's memory limit */
  OINFER_CANCELLED = 11         /* the run was stopped: oinfer_session_terminate or its deadline */
} oinfer_status;

/* "OINFER_INVALID_ARGUMENT", ...; "OINFER_UNKNOWN_STATUS" for other values.
 * A static string. */
OINFER_C_EXPORT const char* oinfer_status_name(oinfer_status status);

/* The message of the calling thread's most recent failing call ("" when none
 * has failed). Valid until that thread's next failing call; copy it to keep it. */
OINFER_C_EXPORT const char* oinfer_last_error_message(void);

/* The library version, "0.2.0" (a static string). */
OINFER_C_EXPORT const char* oinfer_version(void);
/* The C API version of the library (OINFER_C_API_VERSION it was built with). */
OINFER_C_EXPORT int oinfer_c_api_version(void);

/* ---- data types ------------------------------------------------------------ */

/* Element types; the values are ONNX TensorProto.DataType. */
typedef enum oinfer_dtype {
  OINFER_DTYPE_UNDEFINED = 0,
  OINFER_DTYPE_FLOAT32 = 1,
  OINFER_DTYPE_UINT8 = 2,
  OINFER_DTYPE_INT8 = 3,
  OINFER_DTYPE_UINT16 = 4,
  OINFER_DTYPE_INT16 = 5,
  OINFER_DTYPE_INT32 = 6,
  OINFER_DTYPE_INT64 = 7,
  OINFER_DTYPE_STRING = 8,  /* model outputs only: read with oinfer_tensor_string */
  OINFER_DTYPE_BOOL = 9,    /* one byte per element, 0 or 1 */
  OINFER_DTYPE_FLOAT16 = 10,
  OINFER_DTYPE_FLOAT64 = 11,
  OINFER_DTYPE_UINT32 = 12,
  OINFER_DTYPE_UINT64 = 13,
  OINFER_DTYPE_COMPLEX64 = 14,
  OINFER_DTYPE_COMPLEX128 = 15,
  OINFER_DTYPE_BFLOAT16 = 16,
  OINFER_DTYPE_FLOAT8E4M3FN = 17,
  OINFER_DTYPE_FLOAT8E4M3FNUZ = 18,
  OINFER_DTYPE_FLOAT8E5M2 = 19,
  OINFER_DTYPE_FLOAT8E5M2FNUZ = 20,
  OINFER_DTYPE_UINT4 = 21, /* 4- and 2-bit types: unpacked, one element per byte */
  OINFER_DTYPE_INT4 = 22,
  OINFER_DTYPE_FLOAT4E2M1 = 23,
  OINFER_DTYPE_FLOAT8E8M0 = 24,
  OINFER_DTYPE_UINT2 = 25,
  OINFER_DTYPE_INT2 = 26
} oinfer_dtype;

/* "float32", "int64", ...; "undefined" for unknown values. A static string. */
OINFER_C_EXPORT const char* oinfer_dtype_name(oinfer_dtype dtype);
/* Bytes per element in a tensor's buffer; 0 for UNDEFINED, STRING and unknown values. */
OINFER_C_EXPORT size_t oinfer_dtype_size(oinfer_dtype dtype);

/* ---- handles ----------------------------------------------------------------- */

typedef struct oinfer_model oinfer_model;
typedef struct oinfer_value_info oinfer_value_info;
typedef struct oinfer_session_options oinfer_session_options;
typedef struct oinfer_session oinfer_session;
typedef struct oinfer_tensor oinfer_tensor;

/* ---- model ------------------------------------------------------------------- */

/* Parses a .onnx file (external data is resolved relative to its folder).
 * On success *out is a new model the caller frees with oinfer_model_free.
 * A missing or unreadable file is OINFER_IO, a file that is not a valid model
 * OINFER_INVALID_MODEL; the message names the path. */
OINFER_C_EXPORT oinfer_status oinfer_model_load(const char* path, oinfer_model** out);
/* Parses a serialized ModelProto of `size` bytes. The bytes are not kept:
 * the caller may free them once the call returns. Models with external data
 * are refused (load them from a file). */
OINFER_C_EXPORT oinfer_status oinfer_model_load_from_buffer(const void* data, size_t size,
                                                            oinfer_model** out);
OINFER_C_EXPORT void oinfer_model_free(oinfer_model* model);

/* Number of graph inputs (initializers excluded) and outputs. */
OINFER_C_EXPORT oinfer_status oinfer_model_input_count(const oinfer_model* model, size_t* count);
OINFER_C_EXPORT oinfer_status oinfer_model_output_count(const oinfer_model* model, size_t* count);
/* The index-th input / output, in model order. *info is owned by the model
 * (valid until oinfer_model_free; never freed by the caller). An index past
 * the end is OINFER_INVALID_ARGUMENT. */
OINFER_C_EXPORT oinfer_status oinfer_model_input(const oinfer_model* model, size_t index,
                                                 const oinfer_value_info** info);
OINFER_C_EXPORT oinfer_status oinfer_model_output(const oinfer_model* model, size_t index,
                                                  const oinfer_value_info** info);

/* The value's name (owned by the model). */
OINFER_C_EXPORT oinfer_status oinfer_value_info_name(const oinfer_value_info* info, const char** name);
/* The element type declared by the model (OINFER_DTYPE_UNDEFINED when none;
 * for a sequence, the type of its tensors). */
OINFER_C_EXPORT oinfer_status oinfer_value_info_dtype(const oinfer_value_info* info, oinfer_dtype* dtype);
/* Whether the value is a tensor (1) or a sequence / optional / map (0). */
OINFER_C_EXPORT oinfer_status oinfer_value_info_is_tensor(const oinfer_value_info* info, int* is_tensor);
/* The declared rank; -1 when the model declares no shape. */
OINFER_C_EXPORT oinfer_status oinfer_value_info_rank(const oinfer_value_info* info, int64_t* rank);
/* The declared dims, rank of them (owned by the model; NULL when rank <= 0).
 * A symbolic dim ("batch") is -1: oinfer_value_info_dim_name names it. */
OINFER_C_EXPORT oinfer_status oinfer_value_info_dims(const oinfer_value_info* info, const int64_t** dims);
/* The symbol of dim `axis` ("batch", or "unk__N" for an unnamed unknown dim),
 * or "" for a static dim. An axis >= rank is OINFER_INVALID_ARGUMENT. */
OINFER_C_EXPORT oinfer_status oinfer_value_info_dim_name(const oinfer_value_info* info, size_t axis,
                                                         const char** name);

/* ---- session options ------------------------------------------------------- */

/* New options with the defaults: threads 0 (one per hardware thread),
 * optimization level 1, log level "warn", CPU, float32, blocked layout on. */
OINFER_C_EXPORT oinfer_status oinfer_session_options_create(oinfer_session_options** out);
OINFER_C_EXPORT void oinfer_session_options_free(oinfer_session_options* options);
/* Intra-op threads of the session's pool; 0 = hardware concurrency. < 0 is rejected. */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_threads(oinfer_session_options* options, int threads);
/* 0: no graph passes; 1: constant and BatchNormalization folding; 2 (the
 * default): all passes (fusions, blocked layout). Other values are rejected. */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_optimization_level(oinfer_session_options* options,
                                                                            int level);
/* "trace", "debug", "info", "warn", "error" or "off" (the process-wide log
 * level is set when the session is created; OINFER_LOG_LEVEL overrides). */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_log_level(oinfer_session_options* options,
                                                                   const char* level);
/* Collect per-node timings (0 / 1). */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_profiling(oinfer_session_options* options, int enable);
/* Keep 4-d float32 intermediates in the NCHW16c layout where kernels take it (0 / 1). */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_blocked_layout(oinfer_session_options* options,
                                                                        int enable);
/* Run in float16 internally (inputs and outputs stay float32; ~1e-2 error) (0 / 1). */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_fp16(oinfer_session_options* options, int enable);

typedef enum oinfer_device { OINFER_DEVICE_CPU = 0, OINFER_DEVICE_CUDA = 1 } oinfer_device;
/* Where the session runs; device_index picks the CUDA device. Tensors given
 * to and returned by oinfer_session_run stay in host memory either way. A
 * build or machine without CUDA fails at oinfer_session_create (OINFER_DEVICE). */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_device(oinfer_session_options* options,
                                                                oinfer_device device, int device_index);

/* A deadline for every run of the session, in seconds from the start of
 * oinfer_session_run (0, the default: none). A run past it stops between
 * nodes (a Loop or Scan between iterations) with OINFER_CANCELLED and a
 * message naming the node; the session stays usable. (API version 2.) */
OINFER_C_EXPORT oinfer_status oinfer_session_options_set_run_timeout(oinfer_session_options* options,
                                                                     double seconds);
/* Custom ops from a shared library (a plugin; see oinfer/custom_op.h): the
 * library at `path` is loaded now (once per process; it stays loaded) and
 * the sessions made with these options may use its ops; repeatable. Errors
 * name the library: a missing file is OINFER_IO, a file that cannot be
 * loaded OINFER_IO with the loader's reason, a library without the
 * oinfer_register_custom_ops entry point, built for another custom-op ABI
 * version or whose registration failed OINFER_INVALID_ARGUMENT; the options
 * are then unchanged. Conflicts between op names are reported by
 * oinfer_session_create. The C++ SessionOptions::customOpLibraries. */
OINFER_C_EXPORT oinfer_status oinfer_session_options_add_custom_op_library(oinfer_session_options* options,
                                                                           const char* path);
/* Loads the library at `path` as above and registers its ops for every
 * session made afterwards in this process (oinfer::registerGlobalCustomOps):
 * a name that conflicts with a built-in op or a global custom op already
 * registered is OINFER_INVALID_ARGUMENT, and nothing is registered. */
OINFER_C_EXPORT oinfer_status oinfer_register_custom_op_library(const char* path);

/* ---- session ------------------------------------------------------------------- */

/* Prepares `model` for running with `options` (NULL: the defaults): graph
 * passes, shape inference, kernels. On success *out is a new session the
 * caller frees with oinfer_session_free, after every run on it has returned.
 * The session copies what it needs: model and options may be freed at once
 * (the weights' bytes are shared, not copied). */
OINFER_C_EXPORT oinfer_status oinfer_session_create(const oinfer_model* model,
                                                    const oinfer_session_options* options,
                                                    oinfer_session** out);
OINFER_C_EXPORT void oinfer_session_free(oinfer_session* session);
/* Stops every oinfer_session_run of `session` in progress when called: each
 * returns OINFER_CANCELLED at its next check (between nodes, and between
 * Loop / Scan iterations). Runs started after it returns are not affected.
 * Safe to call from any thread while runs are in progress (not concurrently
 * with oinfer_session_free). (API version 2.) */
OINFER_C_EXPORT oinfer_status oinfer_session_terminate(oinfer_session* session);

/* Runs the model. Safe to call concurrently on one session (each call has
 * its own inputs and outputs).
 *
 *   input_names[i], inputs[i]   for i < num_inputs: every model input, by
 *                               name, in any order. The tensors are only
 *                               read (the array is not const so that a C
 *                               oinfer_tensor* array passes without a cast),
 *                               and not kept: the caller still owns them.
 *   output_names[i]             for i < num_outputs: what to fetch, by name:
 *                               graph outputs or intermediate values. NULL:
 *                               every graph output, in model order
 *                               (num_outputs must then equal their count).
 *   outputs[i]                  for i < num_outputs, on entry either NULL or a
 *                               tensor of the caller's:
 *                               NULL     on success it receives a new tensor
 *                                        that the caller owns (oinfer_tensor_free).
 *                               a tensor the value is copied into its buffer
 *                                        (for instance one made by
 *                                        oinfer_tensor_create_wrap over the
 *                                        caller's memory); its dtype and shape
 *                                        must match the value's, else
 *                                        OINFER_TYPE_MISMATCH / OINFER_SHAPE_MISMATCH.
 *
 * An unknown or missing input, or an input of the wrong dtype or shape, is
 * OINFER_INVALID_ARGUMENT with a message naming the input and what the model
 * expects; an unknown output name likewise. On failure nothing is created
 * (NULL entries of outputs stay NULL) and the caller's output tensors keep
 * their contents. A caller's output tensor must not be used by another call
 * while this one runs. */
OINFER_C_EXPORT oinfer_status oinfer_session_run(oinfer_session* session, const char* const* input_names,
                                                 oinfer_tensor* const* inputs, size_t num_inputs,
                                                 const char* const* output_names, size_t num_outputs,
                                                 oinfer_tensor** outputs);

/* ---- tensor -------------------------------------------------------------------- */

/* A new tensor owning a zero-filled buffer of dtype and shape (rank dims,
 * each >= 0; rank 0 is a scalar and shape may then be NULL). STRING is
 * rejected (OINFER_NOT_IMPLEMENTED). Fill it through oinfer_tensor_data. */
OINFER_C_EXPORT oinfer_status oinfer_tensor_create(oinfer_dtype dtype, const int64_t* shape, size_t rank,
                                                   oinfer_tensor** out);
/* Copies: a new tensor owning a copy of the byte_size bytes at data;
 * byte_size must equal elements * oinfer_dtype_size(dtype). The caller keeps
 * its buffer (and may reuse or free it at once). */
OINFER_C_EXPORT oinfer_status oinfer_tensor_create_copy(oinfer_dtype dtype, const int64_t* shape, size_t rank,
                                                        const void* data, size_t byte_size, oinfer_tensor** out);
/* Wraps, no copy: a new tensor whose buffer is the caller's memory at data
 * (byte_size bytes, as above; suitably aligned for dtype). The caller keeps
 * ownership and must keep the memory alive and unchanged while any call
 * uses the tensor, until oinfer_tensor_free; oinfer_tensor_free does not
 * free it. Passed as a preallocated output of oinfer_session_run, the
 * result is written into that memory. */
OINFER_C_EXPORT oinfer_status oinfer_tensor_create_wrap(oinfer_dtype dtype, const int64_t* shape, size_t rank,
                                                        void* data, size_t byte_size, oinfer_tensor** out);
/* Frees the handle and, unless it wraps caller memory, its buffer. */
OINFER_C_EXPORT void oinfer_tensor_free(oinfer_tensor* tensor);

OINFER_C_EXPORT oinfer_status oinfer_tensor_dtype(const oinfer_tensor* tensor, oinfer_dtype* dtype);
/* The shape: *rank dims at *dims (owned by the tensor, valid until it is
 * freed; NULL when the rank is 0). */
OINFER_C_EXPORT oinfer_status oinfer_tensor_shape(const oinfer_tensor* tensor, const int64_t** dims,
                                                  size_t* rank);
/* Number of elements (the product of the dims; 1 for a scalar). */
OINFER_C_EXPORT oinfer_status oinfer_tensor_element_count(const oinfer_tensor* tensor, int64_t* count);
/* The buffer, row-major, elements * oinfer_dtype_size(dtype) bytes (may be
 * NULL when there are no elements). Writable: the caller may fill an input's
 * buffer between runs. A STRING tensor is OINFER_INVALID_ARGUMENT (use
 * oinfer_tensor_string). */
OINFER_C_EXPORT oinfer_status oinfer_tensor_data(oinfer_tensor* tensor, void** data);
/* The size of that buffer in bytes (0 for a STRING tensor). */
OINFER_C_EXPORT oinfer_status oinfer_tensor_byte_size(const oinfer_tensor* tensor, size_t* byte_size);
/* Element `index` (row-major) of a STRING tensor: *str points at its bytes
 * (owned by the tensor, NUL-terminated, but may hold NULs: *length counts them). */
OINFER_C_EXPORT oinfer_status oinfer_tensor_string(const oinfer_tensor* tensor, size_t index, const char** str,
                                                   size_t* length);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif /* OINFER_OINFER_C_H_ */
