/* Runs the example plugin's DynamicTRTResize through the C API:
 *   run_custom_ops_c PLUGIN.so MODELS_DIR
 * A 2x2 image resized to 4x4 (bilinear, PyTorch's half-pixel rule) must give
 * the numbers worked out by hand below; then a 3x5 size must give that
 * shape and equal the built-in Resize. Prints "custom ops C example: OK". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <oinfer/oinfer_c.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    oinfer_status st_ = (call);                                                              \
    if (st_ != OINFER_OK) {                                                                  \
      fprintf(stderr, "%s: %s\n", oinfer_status_name(st_), oinfer_last_error_message());     \
      return 1;                                                                              \
    }                                                                                        \
  } while (0)

static int run(oinfer_session* session, int64_t h, int64_t w, oinfer_tensor* outputs[4]) {
  const int64_t image_shape[4] = {1, 3, 2, 2};
  const int64_t size_shape[1] = {2};
  const float pixels[12] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  const int64_t size[2] = {h, w};
  oinfer_tensor* inputs[2] = {NULL, NULL};
  const char* names[2] = {"image", "size"};
  oinfer_status st;
  CHECK(oinfer_tensor_create_copy(OINFER_DTYPE_FLOAT32, image_shape, 4, pixels, sizeof pixels, &inputs[0]));
  CHECK(oinfer_tensor_create_copy(OINFER_DTYPE_INT64, size_shape, 1, size, sizeof size, &inputs[1]));
  st = oinfer_session_run(session, names, inputs, 2, NULL, 4, outputs);
  oinfer_tensor_free(inputs[0]);
  oinfer_tensor_free(inputs[1]);
  CHECK(st);
  return 0;
}

int main(int argc, char** argv) {
  char path[4096];
  oinfer_model* model = NULL;
  oinfer_session_options* options = NULL;
  oinfer_session* session = NULL;
  oinfer_tensor* out[4] = {NULL, NULL, NULL, NULL};
  static const float expected[16] = {0, 0.25f, 0.75f, 1, 0.5f, 0.75f, 1.25f, 1.5f,
                                     1.5f, 1.75f, 2.25f, 2.5f, 2, 2.25f, 2.75f, 3};
  const int64_t* dims = NULL;
  size_t rank = 0, i;
  void* data = NULL;
  void* ref = NULL;
  int64_t count = 0;
  if (argc != 3) {
    fprintf(stderr, "usage: run_custom_ops_c PLUGIN.so MODELS_DIR\n");
    return 2;
  }
  snprintf(path, sizeof path, "%s/dynamic_resize.onnx", argv[2]);
  CHECK(oinfer_model_load(path, &model));
  CHECK(oinfer_session_options_create(&options));
  CHECK(oinfer_session_options_add_custom_op_library(options, argv[1]));
  CHECK(oinfer_session_create(model, options, &session));

  if (run(session, 4, 4, out)) return 1;
  CHECK(oinfer_tensor_shape(out[0], &dims, &rank));
  if (rank != 4 || dims[2] != 4 || dims[3] != 4) {
    fprintf(stderr, "4x4: wrong output shape\n");
    return 1;
  }
  CHECK(oinfer_tensor_data(out[0], &data));
  for (i = 0; i < 16; ++i)
    if (fabsf(((float*)data)[i] - expected[i]) > 1e-6f) {
      fprintf(stderr, "4x4: element %u is %g, expected %g\n", (unsigned)i, ((float*)data)[i], expected[i]);
      return 1;
    }
  for (i = 0; i < 4; ++i) oinfer_tensor_free(out[i]), out[i] = NULL;

  if (run(session, 3, 5, out)) return 1;
  CHECK(oinfer_tensor_shape(out[0], &dims, &rank));
  CHECK(oinfer_tensor_element_count(out[0], &count));
  CHECK(oinfer_tensor_data(out[0], &data));
  CHECK(oinfer_tensor_data(out[2], &ref));
  if (rank != 4 || dims[2] != 3 || dims[3] != 5 || count != 45) {
    fprintf(stderr, "3x5: wrong output shape\n");
    return 1;
  }
  for (i = 0; i < (size_t)count; ++i)
    if (fabsf(((float*)data)[i] - ((float*)ref)[i]) > 1e-5f) {
      fprintf(stderr, "3x5: element %u is %g, Resize gives %g\n", (unsigned)i, ((float*)data)[i], ((float*)ref)[i]);
      return 1;
    }
  for (i = 0; i < 4; ++i) oinfer_tensor_free(out[i]);

  /* A missing library is an error naming it, and leaves the options as they were. */
  if (oinfer_session_options_add_custom_op_library(options, "/nonexistent/libnothing.so") != OINFER_IO ||
      strstr(oinfer_last_error_message(), "/nonexistent/libnothing.so") == NULL) {
    fprintf(stderr, "a missing library was not reported: %s\n", oinfer_last_error_message());
    return 1;
  }
  oinfer_session_free(session);
  oinfer_session_options_free(options);
  oinfer_model_free(model);
  printf("custom ops C example: OK\n");
  return 0;
}
