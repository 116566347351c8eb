// Reading bytes and protobuf messages safely: memory-mapped files, parsing
// with limits, and fields this build's onnx.proto predates.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "parser/onnx_parser.h"

namespace oinfer::parser {

void fail(const LoadContext& ctx, const std::string& msg, ErrorCode code) {
  throw Error(code, ctx.source + ": " + msg);
}

// Nesting in an ONNX model costs about three levels per subgraph (Graph ->
// Node -> Attribute -> Graph) plus a few for TypeProto chains, so 200 allows
// deeply nested control flow while keeping parser recursion (and ours, which
// follows the message structure) far from the stack limit.
constexpr int kRecursionLimit = 200;

namespace {

// Hands the parser a mapped file in chunks; when it asks for the next chunk
// it is done with everything before it (bytes it backs up are given again by
// the next Next()), so those whole pages are dropped from the mapping: for a
// private read-only file mapping they are re-read from the file if touched.
class PageDroppingStream final : public google::protobuf::io::ZeroCopyInputStream {
 public:
  PageDroppingStream(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool Next(const void** out, int* n) override {
    dropBefore(pos_);
    if (pos_ >= size_) return false;
    const size_t len = std::min(kChunk, size_ - pos_);
    *out = data_ + pos_;
    *n = static_cast<int>(len);
    pos_ += len;
    return true;
  }
  void BackUp(int count) override {
    pos_ -= static_cast<size_t>(count);
  }
  bool Skip(int count) override {
    const size_t want = pos_ + static_cast<size_t>(count);
    pos_ = std::min(want, size_);
    return want <= size_;
  }
  int64_t ByteCount() const override { return static_cast<int64_t>(pos_); }

 private:
  static constexpr size_t kChunk = size_t{4} << 20;
  void dropBefore(size_t end) {
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t base = reinterpret_cast<uintptr_t>(data_);
    const uintptr_t lo = (base + dropped_ + page - 1) / page * page, hi = (base + end) / page * page;
    if (hi > lo + (size_t{16} << 20)) {  // in batches of 16 MiB
      ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
      dropped_ = hi - base;
    }
  }
  const uint8_t* data_;
  size_t size_, pos_ = 0, dropped_ = 0;
};

}  // namespace

bool parseMessage(google::protobuf::Message& msg, const void* data, size_t size, bool dropPages) {
  // protobuf addresses a message with int offsets: a single serialized message
  // cannot exceed 2 GB, which is why large models put weights in external data.
  if (size > static_cast<size_t>(INT_MAX)) return false;
  auto parse = [&](google::protobuf::io::CodedInputStream& in) {
    in.SetTotalBytesLimit(INT_MAX);
    in.SetRecursionLimit(kRecursionLimit);
    return msg.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
  };
  if (dropPages) {
    PageDroppingStream stream(static_cast<const uint8_t*>(data), size);
    google::protobuf::io::CodedInputStream in(&stream);
    return parse(in);
  }
  google::protobuf::io::CodedInputStream in(static_cast<const uint8_t*>(data), static_cast<int>(size));
  return parse(in);
}

MappedFile::MappedFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorCode::kIO, path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(ErrorCode::kIO, path + ": not a regular file");
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      throw Error(ErrorCode::kIO, path + ": cannot map: " + std::strerror(err));
    }
    data_ = p;
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(data_, size_);
}

std::string unknownStringField(const google::protobuf::Message& msg, int field) {
  const auto& fields = msg.GetReflection()->GetUnknownFields(msg);
  std::string out;
  for (int i = 0; i < fields.field_count(); ++i) {
    const auto& f = fields.field(i);
    if (f.number() == field && f.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
      out = f.length_delimited();
  }
  return out;
}

}  // namespace oinfer::parser
