/* Classifies one 8x8 handwritten digit with the demo model, through the C API:
 *   c_classify models/digits.onnx models/digits_samples/digit_7.npy
 * The pixels come from a .npy file (float32, little-endian, C order), read by
 * the small reader below. */
#include <oinfer/oinfer_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a float32 little-endian C-order .npy file of at most max_rank dims.
 * Returns a malloc'd buffer (the caller frees it), or NULL with a message. */
static float* read_npy_f32(const char* path, int64_t* shape, size_t max_rank, size_t* rank, size_t* count) {
  unsigned char preamble[10];
  char* header = NULL;
  float* data = NULL;
  size_t header_len, n = 1, i;
  const char* p;
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "%s: cannot open\n", path);
    return NULL;
  }
  if (fread(preamble, 1, 10, f) != 10 || memcmp(preamble, "\x93NUMPY", 6) != 0) {
    fprintf(stderr, "%s: not a .npy file\n", path);
    goto fail;
  }
  if (preamble[6] == 1) {
    header_len = (size_t)preamble[8] | ((size_t)preamble[9] << 8);
  } else { /* versions 2 and 3: a 4-byte length; its last two bytes follow */
    unsigned char more[2];
    if (fread(more, 1, 2, f) != 2) goto truncated;
    header_len = (size_t)preamble[8] | ((size_t)preamble[9] << 8) | ((size_t)more[0] << 16) | ((size_t)more[1] << 24);
  }
  header = (char*)malloc(header_len + 1);
  if (header == NULL || fread(header, 1, header_len, f) != header_len) goto truncated;
  header[header_len] = '\0';
  if (strstr(header, "'descr': '<f4'") == NULL || strstr(header, "'fortran_order': False") == NULL) {
    fprintf(stderr, "%s: expected little-endian float32 in C order, header %s\n", path, header);
    goto fail;
  }
  p = strstr(header, "'shape': (");
  if (p == NULL) {
    fprintf(stderr, "%s: no shape in the header\n", path);
    goto fail;
  }
  p += strlen("'shape': (");
  *rank = 0;
  while (*p != ')' && *p != '\0') {
    char* end;
    long long d = strtoll(p, &end, 10);
    if (end == p || d < 0 || *rank == max_rank) {
      fprintf(stderr, "%s: cannot read the shape\n", path);
      goto fail;
    }
    shape[(*rank)++] = (int64_t)d;
    n *= (size_t)d;
    p = end;
    while (*p == ',' || *p == ' ') ++p;
  }
  data = (float*)malloc(n * sizeof(float) + 1);
  if (data == NULL || fread(data, sizeof(float), n, f) != n) goto truncated;
  { /* the data is little-endian: swap the bytes on a big-endian host */
    const unsigned int one = 1;
    if (*(const unsigned char*)&one == 0) {
      for (i = 0; i < n; ++i) {
        unsigned char* b = (unsigned char*)&data[i];
        unsigned char t = b[0];
        b[0] = b[3];
        b[3] = t;
        t = b[1];
        b[1] = b[2];
        b[2] = t;
      }
    }
  }
  *count = n;
  free(header);
  fclose(f);
  return data;
truncated:
  fprintf(stderr, "%s: truncated file\n", path);
fail:
  free(header);
  free(data);
  fclose(f);
  return NULL;
}

/* Prints the failing call's status and message; returns 1 on failure. */
static int failed(oinfer_status status, const char* what) {
  if (status == OINFER_OK) return 0;
  fprintf(stderr, "c_classify: %s: %s: %s\n", what, oinfer_status_name(status), oinfer_last_error_message());
  return 1;
}

int main(int argc, char** argv) {
  oinfer_model* model = NULL;
  oinfer_session* session = NULL;
  oinfer_tensor* pixels = NULL;
  oinfer_tensor* probabilities = NULL;
  const char* input_name = "pixels";
  int64_t shape[8];
  size_t rank = 0, count = 0;
  float* data;
  void* out = NULL;
  int digit, best = 0, rc = 1;

  if (argc != 3) {
    fprintf(stderr, "usage: c_classify MODEL.onnx PIXELS.npy\n");
    return 2;
  }
  /* float32 [1, 64]: an 8x8 image, pixel values scaled to 0..1. */
  data = read_npy_f32(argv[2], shape, 8, &rank, &count);
  if (data == NULL) return 1;

  if (failed(oinfer_model_load(argv[1], &model), "load")) goto done;
  if (failed(oinfer_session_create(model, NULL, &session), "session")) goto done;
  /* The session keeps what it needs: the model can go now. */
  oinfer_model_free(model);
  model = NULL;
  /* Wrap the pixels, no copy: `data` must outlive the tensor. */
  if (failed(oinfer_tensor_create_wrap(OINFER_DTYPE_FLOAT32, shape, rank, data, count * sizeof(float), &pixels),
             "input"))
    goto done;
  /* output_names NULL: every graph output (one here), a new tensor we own. */
  if (failed(oinfer_session_run(session, &input_name, &pixels, 1, NULL, 1, &probabilities), "run")) goto done;
  if (failed(oinfer_tensor_data(probabilities, &out), "output")) goto done;
  { /* float32 [1, 10] */
    const float* p = (const float*)out;
    for (digit = 1; digit < 10; ++digit)
      if (p[digit] > p[best]) best = digit;
    printf("predicted digit: %d (probability %.4f)\n", best, p[best]);
  }
  rc = 0;
done:
  oinfer_tensor_free(probabilities);
  oinfer_tensor_free(pixels);
  oinfer_session_free(session);
  oinfer_model_free(model);
  free(data);
  return rc;
}
