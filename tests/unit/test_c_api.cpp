// The C API (include/oinfer/oinfer_c.h), called as a C program would: load
// and run the digits model, every error path's code and message, concurrent
// runs on one session, wrap vs copy, symbolic dims in inspection.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "oinfer/graph.h"
#include "oinfer/oinfer_c.h"
#include "oinfer/tensor_io.h"
#include "oinfer/version.h"

namespace {

const std::string kDigits = std::string(OINFER_MODELS_DIR) + "/digits.onnx";
const std::string kSeven = std::string(OINFER_MODELS_DIR) + "/digits_samples/digit_7.npy";

std::vector<float> sevenPixels() {
  oinfer::Tensor t = oinfer::loadNpy(kSeven);
  return t.toVector<float>();
}

int argmax(const float* p, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i)
    if (p[i] > p[best]) best = i;
  return best;
}

// Asserts `status` is `code` and the last error names every one of `words`.
void expectError(oinfer_status status, oinfer_status code, std::initializer_list<const char*> words) {
  EXPECT_EQ(status, code) << oinfer_status_name(status) << ": " << oinfer_last_error_message();
  const std::string msg = oinfer_last_error_message();
  for (const char* w : words) EXPECT_NE(msg.find(w), std::string::npos) << "'" << w << "' not in: " << msg;
}

struct Digits {
  oinfer_model* model = nullptr;
  oinfer_session* session = nullptr;
  Digits() {
    EXPECT_EQ(oinfer_model_load(kDigits.c_str(), &model), OINFER_OK) << oinfer_last_error_message();
    EXPECT_EQ(oinfer_session_create(model, nullptr, &session), OINFER_OK) << oinfer_last_error_message();
  }
  ~Digits() {
    oinfer_session_free(session);
    oinfer_model_free(model);
  }
};

oinfer_tensor* pixelsTensor(std::vector<float>& pixels, int64_t batch = 1) {
  const int64_t shape[2] = {batch, 64};
  oinfer_tensor* t = nullptr;
  EXPECT_EQ(oinfer_tensor_create_copy(OINFER_DTYPE_FLOAT32, shape, 2, pixels.data(), pixels.size() * sizeof(float),
                                      &t),
            OINFER_OK)
      << oinfer_last_error_message();
  return t;
}

}  // namespace

TEST(CApi, VersionAndNames) {
  EXPECT_STREQ(oinfer_version(), OINFER_VERSION_STRING);
  EXPECT_EQ(oinfer_c_api_version(), OINFER_C_API_VERSION);
  EXPECT_STREQ(oinfer_status_name(OINFER_OK), "OINFER_OK");
  EXPECT_STREQ(oinfer_status_name(OINFER_SHAPE_MISMATCH), "OINFER_SHAPE_MISMATCH");
  EXPECT_STREQ(oinfer_status_name(static_cast<oinfer_status>(99)), "OINFER_UNKNOWN_STATUS");
  EXPECT_STREQ(oinfer_dtype_name(OINFER_DTYPE_INT64), "int64");
  EXPECT_EQ(oinfer_dtype_size(OINFER_DTYPE_FLOAT16), 2u);
  EXPECT_EQ(oinfer_dtype_size(OINFER_DTYPE_STRING), 0u);
  EXPECT_EQ(oinfer_dtype_size(static_cast<oinfer_dtype>(1000)), 0u);
}

// The codes mirror oinfer::ErrorCode one for one, in order.
TEST(CApi, StatusCodesMirrorErrorCode) {
  EXPECT_EQ(OINFER_INVALID_MODEL, static_cast<int>(oinfer::ErrorCode::kInvalidModel) + 1);
  EXPECT_EQ(OINFER_INVALID_ARGUMENT, static_cast<int>(oinfer::ErrorCode::kInvalidArgument) + 1);
  EXPECT_EQ(OINFER_IO, static_cast<int>(oinfer::ErrorCode::kIO) + 1);
  EXPECT_EQ(OINFER_INTERNAL, static_cast<int>(oinfer::ErrorCode::kInternal) + 1);
  // Then OINFER_OUT_OF_MEMORY (no ErrorCode), then kCancelled.
  EXPECT_EQ(OINFER_CANCELLED, static_cast<int>(oinfer::ErrorCode::kCancelled) + 2);
  EXPECT_STREQ(oinfer_status_name(OINFER_CANCELLED), "OINFER_CANCELLED");
}

// tests/cli/data/endless_loop.onnx: a Loop of INT64_MAX iterations over x [1].
TEST(CApi, RunTimeoutAndTerminateStopAnEndlessLoop) {
  const std::string path = std::string(OINFER_TEST_DATA_DIR) + "/../cli/data/endless_loop.onnx";
  oinfer_model* model = nullptr;
  ASSERT_EQ(oinfer_model_load(path.c_str(), &model), OINFER_OK) << oinfer_last_error_message();
  oinfer_session_options* opts = nullptr;
  ASSERT_EQ(oinfer_session_options_create(&opts), OINFER_OK);
  expectError(oinfer_session_options_set_run_timeout(opts, -1), OINFER_INVALID_ARGUMENT, {"run timeout", ">= 0"});
  ASSERT_EQ(oinfer_session_options_set_run_timeout(opts, 0.05), OINFER_OK);
  oinfer_session* timed = nullptr;
  ASSERT_EQ(oinfer_session_create(model, opts, &timed), OINFER_OK) << oinfer_last_error_message();
  oinfer_session* plain = nullptr;
  ASSERT_EQ(oinfer_session_create(model, nullptr, &plain), OINFER_OK) << oinfer_last_error_message();
  oinfer_session_options_free(opts);
  oinfer_model_free(model);

  std::vector<float> x{0.f};
  const int64_t shape[1] = {1};
  oinfer_tensor* in = nullptr;
  ASSERT_EQ(oinfer_tensor_create_copy(OINFER_DTYPE_FLOAT32, shape, 1, x.data(), 4, &in), OINFER_OK);
  const char* inName = "x";
  oinfer_tensor* out = nullptr;
  expectError(oinfer_session_run(timed, &inName, &in, 1, nullptr, 1, &out), OINFER_CANCELLED,
              {"run cancelled: the run's deadline (0.05 s) passed; stopped before node '"});
  EXPECT_EQ(out, nullptr);

  // terminate() from this thread, repeated until the run on the other has ended.
  std::atomic<bool> done{false};
  oinfer_status status = OINFER_OK;
  std::string message;
  std::thread runner([&] {
    oinfer_tensor* o = nullptr;
    status = oinfer_session_run(plain, &inName, &in, 1, nullptr, 1, &o);
    message = oinfer_last_error_message();  // per thread: read it here
    done = true;
  });
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_EQ(oinfer_session_terminate(plain), OINFER_OK);
  }
  runner.join();
  EXPECT_EQ(status, OINFER_CANCELLED);
  EXPECT_NE(message.find("run cancelled: Session::terminate() was called"), std::string::npos) << message;
  expectError(oinfer_session_terminate(nullptr), OINFER_INVALID_ARGUMENT, {"session"});
  oinfer_tensor_free(in);
  oinfer_session_free(timed);
  oinfer_session_free(plain);
}

TEST(CApi, LoadAndRunDigits) {
  Digits d;
  ASSERT_NE(d.session, nullptr);
  std::vector<float> pixels = sevenPixels();
  oinfer_tensor* in = pixelsTensor(pixels);
  const char* inName = "pixels";
  oinfer_tensor* out = nullptr;
  ASSERT_EQ(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &out), OINFER_OK)
      << oinfer_last_error_message();
  ASSERT_NE(out, nullptr);
  oinfer_dtype dt = OINFER_DTYPE_UNDEFINED;
  ASSERT_EQ(oinfer_tensor_dtype(out, &dt), OINFER_OK);
  EXPECT_EQ(dt, OINFER_DTYPE_FLOAT32);
  const int64_t* dims = nullptr;
  size_t rank = 0;
  ASSERT_EQ(oinfer_tensor_shape(out, &dims, &rank), OINFER_OK);
  ASSERT_EQ(rank, 2u);
  EXPECT_EQ(dims[0], 1);
  EXPECT_EQ(dims[1], 10);
  int64_t count = 0;
  size_t bytes = 0;
  ASSERT_EQ(oinfer_tensor_element_count(out, &count), OINFER_OK);
  ASSERT_EQ(oinfer_tensor_byte_size(out, &bytes), OINFER_OK);
  EXPECT_EQ(count, 10);
  EXPECT_EQ(bytes, 40u);
  void* data = nullptr;
  ASSERT_EQ(oinfer_tensor_data(out, &data), OINFER_OK);
  const float* p = static_cast<const float*>(data);
  EXPECT_EQ(argmax(p, 10), 7);
  float sum = 0;
  for (int i = 0; i < 10; ++i) sum += p[i];
  EXPECT_NEAR(sum, 1.0f, 1e-4f);  // softmax
  oinfer_tensor_free(out);

  // By name, with options set, and the model freed before the run.
  oinfer_session_options* opts = nullptr;
  ASSERT_EQ(oinfer_session_options_create(&opts), OINFER_OK);
  ASSERT_EQ(oinfer_session_options_set_threads(opts, 2), OINFER_OK);
  ASSERT_EQ(oinfer_session_options_set_optimization_level(opts, 0), OINFER_OK);
  ASSERT_EQ(oinfer_session_options_set_log_level(opts, "error"), OINFER_OK);
  ASSERT_EQ(oinfer_session_options_set_blocked_layout(opts, 0), OINFER_OK);
  ASSERT_EQ(oinfer_session_options_set_profiling(opts, 1), OINFER_OK);
  ASSERT_EQ(oinfer_session_options_set_device(opts, OINFER_DEVICE_CPU, 0), OINFER_OK);
  oinfer_model* model = nullptr;
  ASSERT_EQ(oinfer_model_load(kDigits.c_str(), &model), OINFER_OK);
  oinfer_session* s = nullptr;
  ASSERT_EQ(oinfer_session_create(model, opts, &s), OINFER_OK) << oinfer_last_error_message();
  oinfer_model_free(model);
  oinfer_session_options_free(opts);
  const char* outName = "probabilities";
  out = nullptr;
  ASSERT_EQ(oinfer_session_run(s, &inName, &in, 1, &outName, 1, &out), OINFER_OK) << oinfer_last_error_message();
  ASSERT_EQ(oinfer_tensor_data(out, &data), OINFER_OK);
  EXPECT_EQ(argmax(static_cast<const float*>(data), 10), 7);
  oinfer_tensor_free(out);
  oinfer_session_free(s);
  oinfer_tensor_free(in);
}

TEST(CApi, LoadFromBufferRunsAndBytesMayGo) {
  std::ifstream f(kDigits, std::ios::binary);
  auto* bytes = new std::vector<char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  oinfer_model* model = nullptr;
  ASSERT_EQ(oinfer_model_load_from_buffer(bytes->data(), bytes->size(), &model), OINFER_OK)
      << oinfer_last_error_message();
  delete bytes;  // the model does not keep them
  oinfer_session* s = nullptr;
  ASSERT_EQ(oinfer_session_create(model, nullptr, &s), OINFER_OK);
  std::vector<float> pixels = sevenPixels();
  oinfer_tensor* in = pixelsTensor(pixels);
  const char* inName = "pixels";
  oinfer_tensor* out = nullptr;
  ASSERT_EQ(oinfer_session_run(s, &inName, &in, 1, nullptr, 1, &out), OINFER_OK);
  void* data = nullptr;
  ASSERT_EQ(oinfer_tensor_data(out, &data), OINFER_OK);
  EXPECT_EQ(argmax(static_cast<const float*>(data), 10), 7);
  oinfer_tensor_free(out);
  oinfer_tensor_free(in);
  oinfer_session_free(s);
  oinfer_model_free(model);
}

TEST(CApi, InspectionReportsSymbolicDims) {
  Digits d;
  size_t n = 0;
  ASSERT_EQ(oinfer_model_input_count(d.model, &n), OINFER_OK);
  EXPECT_EQ(n, 1u);
  ASSERT_EQ(oinfer_model_output_count(d.model, &n), OINFER_OK);
  EXPECT_EQ(n, 1u);

  const oinfer_value_info* info = nullptr;
  ASSERT_EQ(oinfer_model_input(d.model, 0, &info), OINFER_OK);
  const char* name = nullptr;
  ASSERT_EQ(oinfer_value_info_name(info, &name), OINFER_OK);
  EXPECT_STREQ(name, "pixels");
  oinfer_dtype dt = OINFER_DTYPE_UNDEFINED;
  ASSERT_EQ(oinfer_value_info_dtype(info, &dt), OINFER_OK);
  EXPECT_EQ(dt, OINFER_DTYPE_FLOAT32);
  int isTensor = 0;
  ASSERT_EQ(oinfer_value_info_is_tensor(info, &isTensor), OINFER_OK);
  EXPECT_EQ(isTensor, 1);
  int64_t rank = 0;
  ASSERT_EQ(oinfer_value_info_rank(info, &rank), OINFER_OK);
  ASSERT_EQ(rank, 2);
  const int64_t* dims = nullptr;
  ASSERT_EQ(oinfer_value_info_dims(info, &dims), OINFER_OK);
  EXPECT_EQ(dims[0], -1);  // "batch"
  EXPECT_EQ(dims[1], 64);
  const char* dimName = nullptr;
  ASSERT_EQ(oinfer_value_info_dim_name(info, 0, &dimName), OINFER_OK);
  EXPECT_STREQ(dimName, "batch");
  ASSERT_EQ(oinfer_value_info_dim_name(info, 1, &dimName), OINFER_OK);
  EXPECT_STREQ(dimName, "");
  expectError(oinfer_value_info_dim_name(info, 2, &dimName), OINFER_INVALID_ARGUMENT, {"axis 2", "'pixels'", "rank is 2"});

  ASSERT_EQ(oinfer_model_output(d.model, 0, &info), OINFER_OK);
  ASSERT_EQ(oinfer_value_info_name(info, &name), OINFER_OK);
  EXPECT_STREQ(name, "probabilities");
  ASSERT_EQ(oinfer_value_info_dims(info, &dims), OINFER_OK);
  EXPECT_EQ(dims[0], -1);
  EXPECT_EQ(dims[1], 10);
  ASSERT_EQ(oinfer_value_info_dim_name(info, 0, &dimName), OINFER_OK);
  EXPECT_STREQ(dimName, "batch");

  expectError(oinfer_model_input(d.model, 1, &info), OINFER_INVALID_ARGUMENT, {"oinfer_model_input", "index 1", "1 inputs"});
  expectError(oinfer_model_output(d.model, 5, &info), OINFER_INVALID_ARGUMENT, {"index 5", "1 outputs"});
}

// Outputs by name, an intermediate value among them, in the order asked.
TEST(CApi, FetchesValuesByName) {
  const oinfer::Graph g = oinfer::Graph::loadFromONNX(kDigits);
  ASSERT_EQ(g.node(1).opType, "Relu");
  const std::string hidden = g.node(1).outputs[0];
  Digits d;
  std::vector<float> pixels = sevenPixels();
  oinfer_tensor* in = pixelsTensor(pixels);
  const char* inName = "pixels";
  const char* names[2] = {hidden.c_str(), "probabilities"};
  oinfer_tensor* outs[2] = {nullptr, nullptr};
  ASSERT_EQ(oinfer_session_run(d.session, &inName, &in, 1, names, 2, outs), OINFER_OK) << oinfer_last_error_message();
  const int64_t* dims = nullptr;
  size_t rank = 0;
  ASSERT_EQ(oinfer_tensor_shape(outs[0], &dims, &rank), OINFER_OK);
  ASSERT_EQ(rank, 2u);
  EXPECT_EQ(dims[0], 1);
  const int64_t width = dims[1];
  EXPECT_GT(width, 0);
  void* data = nullptr;
  ASSERT_EQ(oinfer_tensor_data(outs[0], &data), OINFER_OK);
  int positive = 0;
  for (int64_t i = 0; i < width; ++i) {
    EXPECT_GE(static_cast<const float*>(data)[i], 0.0f);  // after the Relu
    positive += static_cast<const float*>(data)[i] > 0;
  }
  EXPECT_GT(positive, 0);
  ASSERT_EQ(oinfer_tensor_shape(outs[1], &dims, &rank), OINFER_OK);
  EXPECT_EQ(dims[1], 10);
  ASSERT_EQ(oinfer_tensor_data(outs[1], &data), OINFER_OK);
  EXPECT_EQ(argmax(static_cast<const float*>(data), 10), 7);
  oinfer_tensor_free(outs[0]);
  oinfer_tensor_free(outs[1]);
  oinfer_tensor_free(in);
}

// The symbolic batch dim takes any size at run time.
TEST(CApi, RunsABatch) {
  Digits d;
  std::vector<float> seven = sevenPixels();
  std::vector<float> pixels;
  for (int b = 0; b < 3; ++b) pixels.insert(pixels.end(), seven.begin(), seven.end());
  oinfer_tensor* in = pixelsTensor(pixels, 3);
  const char* inName = "pixels";
  oinfer_tensor* out = nullptr;
  ASSERT_EQ(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &out), OINFER_OK)
      << oinfer_last_error_message();
  const int64_t* dims = nullptr;
  size_t rank = 0;
  ASSERT_EQ(oinfer_tensor_shape(out, &dims, &rank), OINFER_OK);
  ASSERT_EQ(rank, 2u);
  EXPECT_EQ(dims[0], 3);
  void* data = nullptr;
  ASSERT_EQ(oinfer_tensor_data(out, &data), OINFER_OK);
  for (int b = 0; b < 3; ++b) EXPECT_EQ(argmax(static_cast<const float*>(data) + 10 * b, 10), 7);
  oinfer_tensor_free(out);
  oinfer_tensor_free(in);
}

TEST(CApi, LoadErrorsNameTheCulprit) {
  oinfer_model* model = reinterpret_cast<oinfer_model*>(0x1);  // a failing call leaves *out alone
  expectError(oinfer_model_load("/nonexistent/dir/model.onnx", &model), OINFER_IO,
              {"oinfer_model_load", "/nonexistent/dir/model.onnx"});
  EXPECT_EQ(model, reinterpret_cast<oinfer_model*>(0x1));

  const char garbage[] = "this is not a protobuf \xff\xff\xff\xff\xff";
  model = nullptr;
  expectError(oinfer_model_load_from_buffer(garbage, sizeof garbage, &model), OINFER_INVALID_MODEL,
              {"oinfer_model_load_from_buffer", "not a valid ONNX model"});
  EXPECT_EQ(model, nullptr);

  expectError(oinfer_model_load(nullptr, &model), OINFER_INVALID_ARGUMENT, {"path is NULL"});
  expectError(oinfer_model_load(kDigits.c_str(), nullptr), OINFER_INVALID_ARGUMENT, {"out is NULL"});
  expectError(oinfer_model_load_from_buffer(nullptr, 10, &model), OINFER_INVALID_ARGUMENT, {"data is NULL"});
}

TEST(CApi, RunErrorsNameTheCulprit) {
  Digits d;
  std::vector<float> pixels = sevenPixels();
  oinfer_tensor* in = pixelsTensor(pixels);
  oinfer_tensor* out = nullptr;

  const char* wrongName = "pixel";
  expectError(oinfer_session_run(d.session, &wrongName, &in, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"oinfer_session_run", "unknown input 'pixel'", "'pixels'"});
  EXPECT_EQ(out, nullptr);

  expectError(oinfer_session_run(d.session, nullptr, nullptr, 0, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"missing input 'pixels'"});

  const char* inName = "pixels";
  const char* const twice[2] = {"pixels", "pixels"};
  oinfer_tensor* const twoInputs[2] = {in, in};
  expectError(oinfer_session_run(d.session, twice, twoInputs, 2, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"'pixels' is given twice"});

  // Wrong dtype: int32 [1, 64].
  std::vector<int32_t> ints(64, 0);
  const int64_t shape[2] = {1, 64};
  oinfer_tensor* intIn = nullptr;
  ASSERT_EQ(oinfer_tensor_create_copy(OINFER_DTYPE_INT32, shape, 2, ints.data(), ints.size() * 4, &intIn), OINFER_OK);
  expectError(oinfer_session_run(d.session, &inName, &intIn, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"input 'pixels'", "int32", "float32"});
  oinfer_tensor_free(intIn);

  // Wrong shape: float32 [1, 63].
  const int64_t shortShape[2] = {1, 63};
  oinfer_tensor* shortIn = nullptr;
  ASSERT_EQ(oinfer_tensor_create(OINFER_DTYPE_FLOAT32, shortShape, 2, &shortIn), OINFER_OK);
  expectError(oinfer_session_run(d.session, &inName, &shortIn, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"input 'pixels'", "dimension 1 is 63", "64"});
  oinfer_tensor_free(shortIn);

  // Unknown output name.
  const char* wrongOut = "probs";
  expectError(oinfer_session_run(d.session, &inName, &in, 1, &wrongOut, 1, &out), OINFER_INVALID_ARGUMENT,
              {"unknown output 'probs'"});
  EXPECT_EQ(out, nullptr);

  // Every output requested with output_names NULL, but the count is wrong.
  oinfer_tensor* outs[2] = {nullptr, nullptr};
  expectError(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 2, outs), OINFER_INVALID_ARGUMENT,
              {"num_outputs is 2", "the model has 1"});

  // Null handle and arguments.
  expectError(oinfer_session_run(nullptr, &inName, &in, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"session is NULL"});
  expectError(oinfer_session_run(d.session, nullptr, &in, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"input_names is NULL"});
  expectError(oinfer_session_run(d.session, &inName, nullptr, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"inputs is NULL"});
  expectError(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, nullptr), OINFER_INVALID_ARGUMENT,
              {"outputs is NULL"});
  oinfer_tensor* nullTensor = nullptr;
  expectError(oinfer_session_run(d.session, &inName, &nullTensor, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"inputs[0] ('pixels') is NULL"});
  const char* nullName = nullptr;
  expectError(oinfer_session_run(d.session, &nullName, &in, 1, nullptr, 1, &out), OINFER_INVALID_ARGUMENT,
              {"input_names[0] is NULL"});
  EXPECT_EQ(out, nullptr);

  // The session still works after all that.
  ASSERT_EQ(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &out), OINFER_OK);
  oinfer_tensor_free(out);
  oinfer_tensor_free(in);
}

TEST(CApi, NullHandlesAreErrorsNotCrashes) {
  size_t n = 0;
  expectError(oinfer_model_input_count(nullptr, &n), OINFER_INVALID_ARGUMENT, {"oinfer_model_input_count", "model is NULL"});
  expectError(oinfer_model_output_count(nullptr, &n), OINFER_INVALID_ARGUMENT, {"model is NULL"});
  const oinfer_value_info* info = nullptr;
  expectError(oinfer_model_input(nullptr, 0, &info), OINFER_INVALID_ARGUMENT, {"model is NULL"});
  const char* s = nullptr;
  expectError(oinfer_value_info_name(nullptr, &s), OINFER_INVALID_ARGUMENT, {"info is NULL"});
  int64_t r = 0;
  expectError(oinfer_value_info_rank(nullptr, &r), OINFER_INVALID_ARGUMENT, {"info is NULL"});
  expectError(oinfer_session_create(nullptr, nullptr, nullptr), OINFER_INVALID_ARGUMENT, {"model is NULL"});
  expectError(oinfer_session_options_set_threads(nullptr, 1), OINFER_INVALID_ARGUMENT, {"options is NULL"});
  oinfer_dtype dt;
  expectError(oinfer_tensor_dtype(nullptr, &dt), OINFER_INVALID_ARGUMENT, {"oinfer_tensor_dtype", "tensor is NULL"});
  void* data = nullptr;
  expectError(oinfer_tensor_data(nullptr, &data), OINFER_INVALID_ARGUMENT, {"tensor is NULL"});
  size_t bytes = 0;
  expectError(oinfer_tensor_byte_size(nullptr, &bytes), OINFER_INVALID_ARGUMENT, {"tensor is NULL"});
  const int64_t* dims = nullptr;
  expectError(oinfer_tensor_shape(nullptr, &dims, &n), OINFER_INVALID_ARGUMENT, {"tensor is NULL"});
  // Out-pointers too.
  Digits d;
  expectError(oinfer_model_input_count(d.model, nullptr), OINFER_INVALID_ARGUMENT, {"count is NULL"});
  expectError(oinfer_session_options_create(nullptr), OINFER_INVALID_ARGUMENT, {"out is NULL"});
  // Freeing NULL is a no-op.
  oinfer_model_free(nullptr);
  oinfer_session_free(nullptr);
  oinfer_session_options_free(nullptr);
  oinfer_tensor_free(nullptr);
}

TEST(CApi, OptionErrors) {
  oinfer_session_options* opts = nullptr;
  ASSERT_EQ(oinfer_session_options_create(&opts), OINFER_OK);
  expectError(oinfer_session_options_set_threads(opts, -3), OINFER_INVALID_ARGUMENT, {"threads is -3"});
  expectError(oinfer_session_options_set_optimization_level(opts, 7), OINFER_INVALID_ARGUMENT, {"level is 7"});
  expectError(oinfer_session_options_set_log_level(opts, "loud"), OINFER_INVALID_ARGUMENT, {"'loud'"});
  expectError(oinfer_session_options_set_log_level(opts, nullptr), OINFER_INVALID_ARGUMENT, {"level is NULL"});
  expectError(oinfer_session_options_set_device(opts, static_cast<oinfer_device>(5), 0), OINFER_INVALID_ARGUMENT,
              {"device 5"});
  expectError(oinfer_session_options_set_device(opts, OINFER_DEVICE_CPU, -1), OINFER_INVALID_ARGUMENT,
              {"device_index is -1"});
  oinfer_session_options_free(opts);
}

TEST(CApi, TensorErrors) {
  oinfer_tensor* t = nullptr;
  const int64_t shape[2] = {2, 3};
  float data[6] = {};
  expectError(oinfer_tensor_create_copy(OINFER_DTYPE_FLOAT32, shape, 2, data, 20, &t), OINFER_INVALID_ARGUMENT,
              {"oinfer_tensor_create_copy", "byte_size is 20", "float32 [2,3] takes 24 bytes"});
  expectError(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, shape, 2, nullptr, 24, &t), OINFER_INVALID_ARGUMENT,
              {"oinfer_tensor_create_wrap", "data is NULL"});
  const int64_t negative[2] = {2, -1};
  expectError(oinfer_tensor_create(OINFER_DTYPE_FLOAT32, negative, 2, &t), OINFER_INVALID_ARGUMENT,
              {"dimension 1 is -1"});
  expectError(oinfer_tensor_create(OINFER_DTYPE_FLOAT32, nullptr, 2, &t), OINFER_INVALID_ARGUMENT,
              {"shape is NULL with rank 2"});
  expectError(oinfer_tensor_create(static_cast<oinfer_dtype>(77), shape, 2, &t), OINFER_INVALID_ARGUMENT,
              {"dtype 77"});
  expectError(oinfer_tensor_create(OINFER_DTYPE_UNDEFINED, shape, 2, &t), OINFER_INVALID_ARGUMENT, {"dtype 0"});
  expectError(oinfer_tensor_create(OINFER_DTYPE_STRING, shape, 2, &t), OINFER_NOT_IMPLEMENTED, {"string"});
  const int64_t huge[3] = {int64_t(1) << 40, int64_t(1) << 40, 16};
  expectError(oinfer_tensor_create(OINFER_DTYPE_FLOAT32, huge, 3, &t), OINFER_INVALID_ARGUMENT, {"overflows"});
  expectError(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, shape, 2, reinterpret_cast<char*>(data) + 1, 24, &t),
              OINFER_INVALID_ARGUMENT, {"not aligned"});
  EXPECT_EQ(t, nullptr);

  // A scalar: rank 0, shape NULL, one element.
  ASSERT_EQ(oinfer_tensor_create(OINFER_DTYPE_INT64, nullptr, 0, &t), OINFER_OK);
  int64_t count = 0;
  ASSERT_EQ(oinfer_tensor_element_count(t, &count), OINFER_OK);
  EXPECT_EQ(count, 1);
  const char* str = nullptr;
  size_t len = 0;
  expectError(oinfer_tensor_string(t, 0, &str, &len), OINFER_INVALID_ARGUMENT, {"int64, not string"});
  oinfer_tensor_free(t);
}

// create_copy owns a copy; create_wrap reads and writes the caller's memory.
TEST(CApi, TensorWrapVersusCopy) {
  const int64_t shape[2] = {2, 2};
  float buf[4] = {1, 2, 3, 4};
  oinfer_tensor* copied = nullptr;
  oinfer_tensor* wrapped = nullptr;
  ASSERT_EQ(oinfer_tensor_create_copy(OINFER_DTYPE_FLOAT32, shape, 2, buf, sizeof buf, &copied), OINFER_OK);
  ASSERT_EQ(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, shape, 2, buf, sizeof buf, &wrapped), OINFER_OK);
  void* cp = nullptr;
  void* wp = nullptr;
  ASSERT_EQ(oinfer_tensor_data(copied, &cp), OINFER_OK);
  ASSERT_EQ(oinfer_tensor_data(wrapped, &wp), OINFER_OK);
  EXPECT_NE(cp, static_cast<void*>(buf));
  EXPECT_EQ(wp, static_cast<void*>(buf));
  buf[0] = 42;
  EXPECT_EQ(static_cast<float*>(cp)[0], 1.0f);   // the copy kept the old value
  EXPECT_EQ(static_cast<float*>(wp)[0], 42.0f);  // the wrap sees the change
  static_cast<float*>(wp)[3] = -1;
  EXPECT_EQ(buf[3], -1.0f);
  oinfer_tensor_free(wrapped);  // the caller's memory is untouched by free
  EXPECT_EQ(buf[3], -1.0f);
  oinfer_tensor_free(copied);

  // A wrapped input is read at run time: changing the caller's buffer
  // between runs changes the result.
  Digits d;
  std::vector<float> pixels = sevenPixels();
  const int64_t inShape[2] = {1, 64};
  oinfer_tensor* in = nullptr;
  ASSERT_EQ(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, inShape, 2, pixels.data(), 64 * sizeof(float), &in),
            OINFER_OK);
  // A wrapped output: the result lands in the caller's array.
  float probs[10] = {};
  const int64_t outShape[2] = {1, 10};
  oinfer_tensor* out = nullptr;
  ASSERT_EQ(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, outShape, 2, probs, sizeof probs, &out), OINFER_OK);
  oinfer_tensor* const preallocated = out;
  const char* inName = "pixels";
  ASSERT_EQ(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &out), OINFER_OK)
      << oinfer_last_error_message();
  EXPECT_EQ(out, preallocated);  // the caller's handle, not a new one
  EXPECT_EQ(argmax(probs, 10), 7);
  const float seven = probs[7];
  for (float& p : pixels) p = 0;
  ASSERT_EQ(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &out), OINFER_OK);
  EXPECT_NE(probs[7], seven);

  // A preallocated output of the wrong shape or dtype is refused, naming both.
  float small[5] = {};
  const int64_t smallShape[2] = {1, 5};
  oinfer_tensor* wrongShape = nullptr;
  ASSERT_EQ(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, smallShape, 2, small, sizeof small, &wrongShape),
            OINFER_OK);
  expectError(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &wrongShape), OINFER_SHAPE_MISMATCH,
              {"output 'probabilities'", "[1,10]", "[1,5]"});
  oinfer_tensor* wrongType = nullptr;
  ASSERT_EQ(oinfer_tensor_create(OINFER_DTYPE_FLOAT64, outShape, 2, &wrongType), OINFER_OK);
  expectError(oinfer_session_run(d.session, &inName, &in, 1, nullptr, 1, &wrongType), OINFER_TYPE_MISMATCH,
              {"output 'probabilities'", "float32", "float64"});
  oinfer_tensor_free(wrongType);
  oinfer_tensor_free(wrongShape);
  oinfer_tensor_free(out);
  oinfer_tensor_free(in);
}

// oinfer_session_run is safe concurrently on one session, and each thread's
// last error is its own.
TEST(CApi, ConcurrentRunsOnOneSession) {
  Digits d;
  std::vector<float> pixels = sevenPixels();
  oinfer_tensor* shared = pixelsTensor(pixels);  // one input tensor read by every thread
  std::atomic<int> good{0}, badOk{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 6; ++w) {
    threads.emplace_back([&, w] {
      const char* inName = "pixels";
      const char* wrongName = w % 2 ? "nope_odd" : "nope_even";
      for (int i = 0; i < 40; ++i) {
        oinfer_tensor* out = nullptr;
        if (oinfer_session_run(d.session, &inName, &shared, 1, nullptr, 1, &out) != OINFER_OK) return;
        void* data = nullptr;
        if (oinfer_tensor_data(out, &data) == OINFER_OK && argmax(static_cast<const float*>(data), 10) == 7) ++good;
        oinfer_tensor_free(out);
        if (oinfer_session_run(d.session, &wrongName, &shared, 1, nullptr, 1, &out) == OINFER_INVALID_ARGUMENT &&
            std::string(oinfer_last_error_message()).find(wrongName) != std::string::npos)
          ++badOk;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(good.load(), 6 * 40);
  EXPECT_EQ(badOk.load(), 6 * 40);
  oinfer_tensor_free(shared);
}

TEST(CApi, LastErrorIsPerThreadAndKeptOnSuccess) {
  oinfer_model* model = nullptr;
  ASSERT_EQ(oinfer_model_load("/no/such/main-thread.onnx", &model), OINFER_IO);
  std::string other;
  std::thread([&] {
    other = oinfer_last_error_message();  // nothing failed on this thread yet
    oinfer_model* m = nullptr;
    oinfer_model_load("/no/such/other-thread.onnx", &m);
  }).join();
  EXPECT_EQ(other, "");
  std::string msg = oinfer_last_error_message();
  EXPECT_NE(msg.find("main-thread.onnx"), std::string::npos) << msg;
  size_t n = 0;
  oinfer_model* ok = nullptr;
  ASSERT_EQ(oinfer_model_load(kDigits.c_str(), &ok), OINFER_OK);
  ASSERT_EQ(oinfer_model_input_count(ok, &n), OINFER_OK);
  msg = oinfer_last_error_message();
  EXPECT_NE(msg.find("main-thread.onnx"), std::string::npos) << msg;  // successes leave it alone
  oinfer_model_free(ok);
}
