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
#include <vector>

#include "parser/onnx_parser.h"

namespace oinfer::parser {

void fail(const LoadContext& ctx, const std::string& msg, ErrorCode code) {
  throw Error(code, ctx.source + ": " + msg);
}

// Nesting in an ONNX model costs three levels per subgraph (Graph -> Node ->
// Attribute -> Graph) plus a few for TypeProto chains. The parser allows
// about 30 subgraph levels more than our own limit (loader.h), so a model
// just past that is refused by buildGraph's check with its message; one
// nested deeper than even this fails to parse, and subgraphNesting() then
// tells the two causes apart. Far from the stack limit either way.
constexpr int kRecursionLimit = 3 * kMaxGraphNesting + 100;

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

int subgraphNesting(const void* data, size_t size) {
  // The messages on the path to subgraphs, and the fields that lead on.
  enum Kind { kModel, kGraph, kFunction, kNode, kAttribute };
  auto child = [](Kind k, uint64_t field, Kind& out) {
    switch (k) {
      case kModel: return field == 7 ? (out = kGraph, true) : field == 25 ? (out = kFunction, true) : false;
      case kGraph: return field == 1 ? (out = kNode, true) : false;
      case kFunction: return field == 7 ? (out = kNode, true) : false;
      case kNode: return field == 5 ? (out = kAttribute, true) : false;
      case kAttribute: return field == 6 || field == 11 ? (out = kGraph, true) : false;
    }
    return false;
  };
  struct Frame {
    Kind kind;
    size_t end;
    int depth;  // nesting of the graph this message is in
  };
  const auto* p = static_cast<const uint8_t*>(data);
  size_t pos = 0;
  auto varint = [&](size_t end, uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) return false;
      const uint8_t b = p[pos++];
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  std::vector<Frame> stack{{kModel, size, 0}};
  int deepest = 0;
  while (!stack.empty()) {
    const Frame f = stack.back();
    if (pos == f.end) {
      stack.pop_back();
      continue;
    }
    uint64_t tag = 0, len = 0;
    if (!varint(f.end, tag)) return -1;
    switch (tag & 7) {
      case 0:
        if (!varint(f.end, len)) return -1;
        break;
      case 1:
        if (f.end - pos < 8) return -1;
        pos += 8;
        break;
      case 5:
        if (f.end - pos < 4) return -1;
        pos += 4;
        break;
      case 2: {
        if (!varint(f.end, len) || len > f.end - pos) return -1;
        Kind k;
        if (child(f.kind, tag >> 3, k)) {
          const int depth = f.kind == kAttribute ? f.depth + 1 : f.depth;
          deepest = std::max(deepest, depth);
          stack.push_back({k, pos + size_t(len), depth});
        } else {
          pos += size_t(len);
        }
        break;
      }
      default:
        return -1;  // groups: not in onnx.proto
    }
  }
  return deepest;
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
