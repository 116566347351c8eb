// External tensor data (TensorProto.data_location == EXTERNAL).
//
// The location is untrusted: it must be a relative path that, after resolving
// `..` and symlinks, stays inside the model's folder (symlinks that leave it
// only with LoadOptions::allowExternalDataSymlinks). Files are memory-mapped
// once each and aligned tensors view the mapping (LoadOptions::
// mapExternalData). Offset and length are
// checked against the file size and the tensor's byte size before anything is
// allocated or read. The optional SHA1 checksum is not verified.
#include <fcntl.h>
#include <sys/mman.h>
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

namespace {

// An external-data reference, validated and opened: the descriptor of a
// regular file that holds [offset, offset + byteCount).
struct OpenedExternal {
  int fd = -1;
  std::string location;  // as the model names it
  fs::path full;         // resolved
  uint64_t offset = 0;
  struct stat st {};
};

OpenedExternal openExternal(const onnx::TensorProto& tp, LoadContext& ctx, const std::string& what,
                            uint64_t byteCount) {
  OpenedExternal x;
  bool hasLength = false;
  uint64_t length = 0;
  for (const auto& kv : tp.external_data()) {
    if (kv.key() == "location") x.location = kv.value();
    else if (kv.key() == "offset") x.offset = parseUnsigned(kv.value(), ctx, what, "offset");
    else if (kv.key() == "length") length = parseUnsigned(kv.value(), ctx, what, "length"), hasLength = true;
  }
  const std::string& location = x.location;
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
  // The location, with `..` resolved but no symlink followed, must name a
  // path inside the folder whatever the options.
  const fs::path lexical = (base / rel).lexically_normal();
  if (!isInside(base, lexical))
    fail(ctx, what + ": external data location '" + location + "' escapes the model folder '" + base.string() + "'");
  // weakly_canonical resolves every symlink that exists, so a link pointing
  // outside the folder is caught by the same prefix check, unless the
  // caller opted in to links (LoadOptions::allowExternalDataSymlinks).
  x.full = fs::weakly_canonical(lexical, ec);
  if (ec) fail(ctx, what + ": external data location '" + location + "' cannot be resolved: " + ec.message(),
               ErrorCode::kIO);
  if (!isInside(base, x.full) && !ctx.options.allowExternalDataSymlinks)
    fail(ctx, what + ": external data location '" + location + "' is a symbolic link to '" + x.full.string() +
                  "', outside the model folder '" + base.string() +
                  "'; links are followed only when allowed (LoadOptions::allowExternalDataSymlinks, "
                  "oinfer-run --allow-external-symlinks)");

  // O_NONBLOCK: opening a FIFO for reading would otherwise wait forever for a
  // writer, before the regular-file check on the descriptor could refuse it.
  // (O_NOCTTY: a terminal device must not become our controlling tty.)
  x.fd = ::open(x.full.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (x.fd < 0)
    fail(ctx, what + ": cannot open external data '" + location + "' (" + x.full.string() + "): " +
                  std::strerror(errno),
         ErrorCode::kIO);
  if (::fstat(x.fd, &x.st) != 0 || !S_ISREG(x.st.st_mode)) {
    ::close(x.fd);
    fail(ctx, what + ": external data '" + location + "' (" + x.full.string() + ") is not a regular file",
         ErrorCode::kIO);
  }
  const uint64_t fileSize = static_cast<uint64_t>(x.st.st_size);
  auto closeAndFail = [&](const std::string& msg) {
    ::close(x.fd);
    fail(ctx, what + ": " + msg);
  };
  if (hasLength && length != byteCount)
    closeAndFail("external data length " + std::to_string(length) + " does not match the tensor's " +
                 std::to_string(byteCount) + " bytes");
  if (x.offset > fileSize || byteCount > fileSize - x.offset)
    closeAndFail("external data offset " + std::to_string(x.offset) + " + length " + std::to_string(byteCount) +
                 " is beyond the end of '" + location + "' (" + std::to_string(fileSize) + " bytes)");
  return x;
}

}  // namespace

void readExternalData(const onnx::TensorProto& tp, LoadContext& ctx, const std::string& what, void* dst,
                      uint64_t byteCount) {
  OpenedExternal x = openExternal(tp, ctx, what, byteCount);
  if (!dst) {
    ::close(x.fd);
    return;
  }
  auto* out = static_cast<uint8_t*>(dst);
  uint64_t done = 0;
  while (done < byteCount) {
    ssize_t r = ::pread(x.fd, out + done, byteCount - done, static_cast<off_t>(x.offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      ::close(x.fd);
      fail(ctx, what + ": reading external data '" + x.location + "' failed", ErrorCode::kIO);
    }
    done += static_cast<uint64_t>(r);
  }
  ::close(x.fd);
}

Tensor mapExternalData(const onnx::TensorProto& tp, LoadContext& ctx, const std::string& what, DataType dtype,
                       std::vector<int64_t> dims, uint64_t byteCount) {
  constexpr uint64_t kAlignment = 64;  // what the heap tensors guarantee the kernels
  if (!ctx.options.mapExternalData || byteCount == 0) return Tensor();
  OpenedExternal x = openExternal(tp, ctx, what, byteCount);
  if (x.offset % kAlignment != 0) {
    ::close(x.fd);
    return Tensor();
  }
  const std::pair<uint64_t, uint64_t> key{static_cast<uint64_t>(x.st.st_dev), static_cast<uint64_t>(x.st.st_ino)};
  auto it = ctx.externalMappings.find(key);
  if (it == ctx.externalMappings.end()) {
    const size_t bytes = static_cast<size_t>(x.st.st_size);
    // Private: a pass that rewrote a weight in place would copy that page,
    // never write the file; nothing else is ever written.
    void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, x.fd, 0);
    if (base == MAP_FAILED) {  // e.g. a file system without mmap: read instead
      ::close(x.fd);
      return Tensor();
    }
    std::shared_ptr<void> holder(base, [bytes](void* p) { ::munmap(p, bytes); });
    it = ctx.externalMappings.emplace(key, std::move(holder)).first;
  }
  ::close(x.fd);  // the mapping stays valid without the descriptor
  auto* data = static_cast<uint8_t*>(it->second.get()) + x.offset;
  return Tensor::share(dtype, std::move(dims), it->second, data);
}

}  // namespace oinfer::parser
