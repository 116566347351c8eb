// External tensor data (TensorProto.data_location == EXTERNAL).
//
// The location is untrusted: it must be a relative path that, after resolving
// `..` and symlinks, stays inside the model's folder. Offset and length are
// checked against the file size and the tensor's byte size before anything is
// allocated or read. The optional SHA1 checksum is not verified.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "parser/onnx_parser.h"

namespace oinfer::parser {
namespace {

namespace fs = std::filesystem;

uint64_t parseUnsigned(const std::string& s, LoadContext& ctx, const std::string& what, const char* key) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size())
    fail(ctx, what + ": external data " + key + " '" + s + "' is not a non-negative integer");
  return v;
}

bool isInside(const fs::path& base, const fs::path& p) {
  auto b = base.begin(), e = base.end();
  auto q = p.begin();
  for (; b != e; ++b, ++q) {
    if (b->empty()) continue;  // trailing separator of the base
    if (q == p.end() || *q != *b) return false;
  }
  return true;
}

}  // namespace

void readExternalData(const onnx::TensorProto& tp, LoadContext& ctx, const std::string& what, void* dst,
                      uint64_t byteCount) {
  std::string location;
  uint64_t offset = 0;
  bool hasLength = false;
  uint64_t length = 0;
  for (const auto& kv : tp.external_data()) {
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset") offset = parseUnsigned(kv.value(), ctx, what, "offset");
    else if (kv.key() == "length") length = parseUnsigned(kv.value(), ctx, what, "length"), hasLength = true;
  }
  if (location.empty()) fail(ctx, what + ": external data has no location");
  if (ctx.baseDir.empty())
    fail(ctx, what + ": external data '" + location +
                  "' cannot be resolved: the model was loaded from a buffer without a base directory");
  if (location.find('\0') != std::string::npos) fail(ctx, what + ": external data location contains a NUL byte");
  fs::path rel(location);
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    fail(ctx, what + ": external data location '" + location + "' is an absolute path");

  std::error_code ec;
  fs::path base = fs::canonical(fs::path(ctx.baseDir), ec);
  if (ec) fail(ctx, "model folder '" + ctx.baseDir + "' cannot be resolved: " + ec.message(), ErrorCode::kIO);
  // weakly_canonical resolves `..` and every symlink that exists, so a link
  // pointing outside the folder is caught by the same prefix check.
  fs::path full = fs::weakly_canonical(base / rel, ec);
  if (ec || !isInside(base, full))
    fail(ctx, what + ": external data location '" + location + "' escapes the model folder '" + base.string() + "'");

  // O_NONBLOCK: opening a FIFO for reading would otherwise wait forever for a
  // writer, before the regular-file check on the descriptor could refuse it.
  // (O_NOCTTY: a terminal device must not become our controlling tty.)
  int fd = ::open(full.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    fail(ctx, what + ": cannot open external data '" + location + "' (" + full.string() + "): " +
                  std::strerror(errno),
         ErrorCode::kIO);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(ctx, what + ": external data '" + location + "' (" + full.string() + ") is not a regular file",
         ErrorCode::kIO);
  }
  const uint64_t fileSize = static_cast<uint64_t>(st.st_size);
  auto closeAndFail = [&](const std::string& msg) {
    ::close(fd);
    fail(ctx, what + ": " + msg);
  };
  if (hasLength && length != byteCount)
    closeAndFail("external data length " + std::to_string(length) + " does not match the tensor's " +
                 std::to_string(byteCount) + " bytes");
  if (offset > fileSize || byteCount > fileSize - offset)
    closeAndFail("external data offset " + std::to_string(offset) + " + length " + std::to_string(byteCount) +
                 " is beyond the end of '" + location + "' (" + std::to_string(fileSize) + " bytes)");
  if (!dst) {
    ::close(fd);
    return;
  }
  auto* out = static_cast<uint8_t*>(dst);
  uint64_t done = 0;
  while (done < byteCount) {
    ssize_t r = ::pread(fd, out + done, byteCount - done, static_cast<off_t>(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      ::close(fd);
      fail(ctx, what + ": reading external data '" + location + "' failed", ErrorCode::kIO);
    }
    done += static_cast<uint64_t>(r);
  }
  ::close(fd);
}

}  // namespace oinfer::parser
