/* Compiled as C99 with -pedantic -Werror (tests/CMakeLists.txt): proves
 * oinfer_c.h is valid C and that its symbols link unmangled from C. Run with
 * the digits model: a run on blank pixels, and one error path.
 *   c_api_smoke MODELS_DIR/digits.onnx */
#include <oinfer/oinfer_c.h>

#include <stdio.h>
#include <string.h>

static int check(oinfer_status status, oinfer_status expected, const char* what) {
  if (status != expected) {
    fprintf(stderr, "%s: %s (expected %s): %s\n", what, oinfer_status_name(status), oinfer_status_name(expected),
            oinfer_last_error_message());
    return 0;
  }
  return 1;
}

int main(int argc, char** argv) {
  oinfer_model* model = NULL;
  oinfer_session* session = NULL;
  oinfer_tensor* input = NULL;
  oinfer_tensor* output = NULL;
  const char* input_name = "pixels";
  const char* bad_name = "no_such_input";
  const int64_t shape[2] = {1, 64};
  int64_t count = 0;
  int ok = 1;
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_smoke MODEL.onnx\n");
    return 2;
  }
  printf("oinfer %s, C API %d\n", oinfer_version(), oinfer_c_api_version());
  ok = ok && check(oinfer_model_load(argv[1], &model), OINFER_OK, "load");
  ok = ok && check(oinfer_session_create(model, NULL, &session), OINFER_OK, "session");
  ok = ok && check(oinfer_tensor_create(OINFER_DTYPE_FLOAT32, shape, 2, &input), OINFER_OK, "tensor");
  ok = ok && check(oinfer_session_run(session, &input_name, &input, 1, NULL, 1, &output),
                   OINFER_OK, "run");
  ok = ok && check(oinfer_tensor_element_count(output, &count), OINFER_OK, "count");
  if (ok && count != 10) {
    fprintf(stderr, "expected 10 probabilities, got %lld\n", (long long)count);
    ok = 0;
  }
  ok = ok && check(oinfer_session_run(session, &bad_name, &input, 1, NULL, 1, &output),
                   OINFER_INVALID_ARGUMENT, "run with an unknown input");
  if (ok && strstr(oinfer_last_error_message(), "no_such_input") == NULL) {
    fprintf(stderr, "the message does not name the input: %s\n", oinfer_last_error_message());
    ok = 0;
  }
  ok = ok && check(oinfer_model_load(NULL, &model), OINFER_INVALID_ARGUMENT, "load NULL");
  oinfer_tensor_free(output);
  oinfer_tensor_free(input);
  oinfer_session_free(session);
  oinfer_model_free(model);
  if (ok) printf("c_api_smoke: OK\n");
  return ok ? 0 : 1;
}
