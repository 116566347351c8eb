// NumPy .npy reading and writing (format versions 1.0, 2.0 and 3.0).
//
// Layout: the magic "\x93NUMPY", a major and minor version byte, the header
// length (uint16 little-endian in 1.0, uint32 in 2.0/3.0), then an ASCII
// (UTF-8 in 3.0) Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw C-order data.
//
// The header comes from an untrusted file, so it is parsed by a small
// tokenizer that accepts exactly the literal forms numpy writes (strings,
// True/False, tuples of non-negative integers) and reports anything else as
// an Error naming the file; sizes are checked against the file length before
// anything is allocated.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "oinfer/tensor_io.h"

namespace oinfer {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(ErrorCode::kIO, "npy file '" + path + "': " + what);
}

struct Descr {
  DataType dtype;
  size_t itemSize;
};

// The element type of a descr string like "<f4" or "|u1".
std::optional<Descr> parseDescr(const std::string& d) {
  if (d.size() < 3) return std::nullopt;
  char order = d[0];
  std::string code = d.substr(1);
  struct Entry {
    const char* code;
    DataType dtype;
    size_t size;
  };
  static const Entry kTable[] = {
      {"f2", DataType::kFloat16, 2}, {"f4", DataType::kFloat, 4},   {"f8", DataType::kDouble, 8},
      {"i1", DataType::kInt8, 1},    {"i2", DataType::kInt16, 2},   {"i4", DataType::kInt32, 4},
      {"i8", DataType::kInt64, 8},   {"u1", DataType::kUInt8, 1},   {"u2", DataType::kUInt16, 2},
      {"u4", DataType::kUInt32, 4},  {"u8", DataType::kUInt64, 8},  {"b1", DataType::kBool, 1},
  };
  for (const auto& e : kTable) {
    if (code != e.code) continue;
    // '=' is native order, which is little-endian on every platform oinfer builds for.
    bool ok = order == '<' || order == '=' || (e.size == 1 && order == '|');
    if (!ok) return std::nullopt;
    return Descr{e.dtype, e.size};
  }
  return std::nullopt;
}

const char* descrFor(DataType t) {
  switch (t) {
    case DataType::kFloat16: return "<f2";
    case DataType::kFloat: return "<f4";
    case DataType::kDouble: return "<f8";
    case DataType::kInt8: return "|i1";
    case DataType::kInt16: return "<i2";
    case DataType::kInt32: return "<i4";
    case DataType::kInt64: return "<i8";
    case DataType::kUInt8: return "|u1";
    case DataType::kUInt16: return "<u2";
    case DataType::kUInt32: return "<u4";
    case DataType::kUInt64: return "<u8";
    case DataType::kBool: return "|b1";
    default: return nullptr;
  }
}

// Tokenizer over the header dict literal.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  void parse(std::string& descr, bool& fortran, std::vector<int64_t>& shape) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    expect('{');
    skipSpace();
    while (peek() != '}') {
      std::string key = parseString();
      expect(':');
      skipSpace();
      if (key == "descr") {
        if (peek() != '\'' && peek() != '"')
          fail(path_, "header 'descr' is not a simple type string (structured arrays are not supported)");
        descr = parseString();
        haveDescr = true;
      } else if (key == "fortran_order") {
        fortran = parseBool();
        haveFortran = true;
      } else if (key == "shape") {
        shape = parseShape();
        haveShape = true;
      } else {
        fail(path_, "header has an unexpected key '" + key + "'");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        skipSpace();
      } else if (peek() != '}') {
        fail(path_, "header is malformed: expected ',' or '}' at offset " + std::to_string(pos_));
      }
    }
    ++pos_;
    if (!haveDescr) fail(path_, "header lacks 'descr'");
    if (!haveFortran) fail(path_, "header lacks 'fortran_order'");
    if (!haveShape) fail(path_, "header lacks 'shape'");
    skipSpace();
    if (pos_ != s_.size()) fail(path_, "header has trailing characters after the dict");
  }

 private:
  char peek() const {
    if (pos_ >= s_.size()) fail(path_, "header is truncated");
    return s_[pos_];
  }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r'))
      ++pos_;
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c)
      fail(path_, std::string("header is malformed: expected '") + c + "' at offset " + std::to_string(pos_));
    ++pos_;
  }
  std::string parseString() {
    skipSpace();
    char q = peek();
    if (q != '\'' && q != '"') fail(path_, "header is malformed: expected a string at offset " + std::to_string(pos_));
    ++pos_;
    std::string out;
    while (peek() != q) {
      if (s_[pos_] == '\\') fail(path_, "header string has an escape sequence");
      out += s_[pos_++];
    }
    ++pos_;
    return out;
  }
  bool parseBool() {
    if (s_.compare(pos_, 4, "True") == 0) {
      pos_ += 4;
      return true;
    }
    if (s_.compare(pos_, 5, "False") == 0) {
      pos_ += 5;
      return false;
    }
    fail(path_, "header 'fortran_order' is not True or False");
  }
  std::vector<int64_t> parseShape() {
    std::vector<int64_t> dims;
    expect('(');
    skipSpace();
    while (peek() != ')') {
      if (peek() < '0' || peek() > '9') fail(path_, "header 'shape' is not a tuple of non-negative integers");
      int64_t v = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        int digit = s_[pos_++] - '0';
        if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) fail(path_, "header 'shape' has a dimension too large");
        v = v * 10 + digit;
      }
      if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;  // Python 2 long suffix
      dims.push_back(v);
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        skipSpace();
      } else if (peek() != ')') {
        fail(path_, "header 'shape' is malformed at offset " + std::to_string(pos_));
      }
    }
    ++pos_;
    return dims;
  }

  const std::string& s_;
  const std::string& path_;
  size_t pos_ = 0;
};

uint32_t readLE(const unsigned char* p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Writes `head` then `size` bytes at `data` to a new file beside `path`
// (O_EXCL: never an existing file or a symlink's target), flushes it to disk, then
// renames it over `path`: a reader sees the old file or the whole new one,
// never a truncated one (a full disk fails the write and leaves the old file),
// and a symlink at `path` is replaced, not followed.
void writeFileAtomically(const std::string& path, const std::string& head, const void* data, size_t size) {
  // O_EXCL: a new file (never an existing one, nor through a symlink), with
  // the permissions a plain create gets (0666 less the umask).
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path target(path);
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    tmp = (target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                                   std::to_string(counter.fetch_add(1))))
              .string();
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) fail(path, std::string("cannot create a file beside it: ") + std::strerror(errno));
  auto writeAll = [&](const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    while (n > 0) {
      const ssize_t w = ::write(fd, c, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      c += w;
      n -= size_t(w);
    }
    return true;
  };
  bool ok = writeAll(head.data(), head.size()) && (size == 0 || writeAll(data, size));
  int err = ok ? 0 : errno;
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    err = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    fail(path, std::string("write failed (the previous file, if any, is unchanged): ") +
                   std::strerror(err ? err : EIO));
  }
}

}  // namespace

Tensor loadNpy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  in.seekg(0, std::ios::end);
  std::streamoff fileSize = in.tellg();
  in.seekg(0, std::ios::beg);
  if (fileSize < 0) fail(path, "cannot read the file");

  unsigned char pre[12];
  if (fileSize < 10) fail(path, "file is too short (" + std::to_string(fileSize) + " bytes) to be an .npy file");
  in.read(reinterpret_cast<char*>(pre), 10);
  if (!in || std::memcmp(pre, kMagic, kMagicLen) != 0) fail(path, "not an .npy file (bad magic)");
  int major = pre[6], minor = pre[7];
  size_t headerLen = 0, prefix = 0;
  if (major == 1) {
    headerLen = readLE(pre + 8, 2);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (fileSize < 12) fail(path, "file is truncated inside the preamble");
    in.read(reinterpret_cast<char*>(pre + 10), 2);
    headerLen = readLE(pre + 8, 4);
    prefix = 12;
  } else {
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  }
  if (static_cast<uint64_t>(fileSize) - prefix < headerLen)
    fail(path, "file is truncated: header of " + std::to_string(headerLen) + " bytes, file has " +
                   std::to_string(fileSize) + " bytes");
  std::string header(headerLen, '\0');
  in.read(header.data(), static_cast<std::streamsize>(headerLen));
  if (!in) fail(path, "cannot read the header");
  for (unsigned char c : header)
    if (c == 0) fail(path, "header contains a NUL byte");

  std::string descr;
  bool fortran = false;
  std::vector<int64_t> shape;
  HeaderParser(header, path).parse(descr, fortran, shape);

  auto d = parseDescr(descr);
  if (!d) fail(path, "unsupported dtype '" + descr + "' (supported: little-endian f2 f4 f8 i1-i8 u1-u8 b1)");
  int64_t numel;
  try {
    numel = numElements(shape);
  } catch (const Error&) {
    fail(path, "shape " + shapeToString(shape) + " has too many elements");
  }
  if (fortran)
    fail(path, "'fortran_order': True is not supported; save the array in C order (np.ascontiguousarray)");
  uint64_t remaining = static_cast<uint64_t>(fileSize) - prefix - headerLen;
  if (static_cast<uint64_t>(numel) > remaining / d->itemSize)
    fail(path, "data is truncated: shape " + shapeToString(shape) + " of " + descr + " needs " +
                   std::to_string(static_cast<uint64_t>(numel) * d->itemSize) + " bytes, file holds " +
                   std::to_string(remaining));

  Tensor t(d->dtype, shape);
  if (t.nbytes() > 0) {
    in.read(static_cast<char*>(t.data()), static_cast<std::streamsize>(t.nbytes()));
    if (!in) fail(path, "cannot read the data");
  }
  if (d->dtype == DataType::kBool) {
    // Normalise: any nonzero byte is true.
    auto* p = t.data<uint8_t>();
    for (int64_t i = 0; i < numel; ++i) p[i] = p[i] != 0;
  }
  return t;
}

void saveNpy(const std::string& path, const Tensor& tensor) {
  if (!tensor.defined()) throw Error(ErrorCode::kInvalidArgument, "saveNpy '" + path + "': the tensor is undefined");
  const char* descr = descrFor(tensor.dtype());
  if (!descr)
    throw Error(ErrorCode::kInvalidArgument, "saveNpy '" + path + "': data type " +
                                                 std::string(dataTypeName(tensor.dtype())) +
                                                 " has no .npy equivalent");
  std::string shape = "(";
  for (size_t i = 0; i < tensor.rank(); ++i) {
    shape += std::to_string(tensor.dim(i));
    if (tensor.rank() == 1 || i + 1 < tensor.rank()) shape += ",";
    if (i + 1 < tensor.rank()) shape += " ";
  }
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // numpy pads so the data starts on a 64-byte boundary; the header ends in '\n'.
  size_t total = 10 + header.size() + 1;
  size_t pad = (64 - total % 64) % 64;
  header.append(pad, ' ');
  header += '\n';
  if (header.size() > 0xffff)
    throw Error(ErrorCode::kInvalidArgument, "saveNpy '" + path + "': rank too large for an .npy v1.0 header");

  unsigned char pre[10];
  std::memcpy(pre, kMagic, kMagicLen);
  pre[6] = 1;
  pre[7] = 0;
  pre[8] = static_cast<unsigned char>(header.size() & 0xff);
  pre[9] = static_cast<unsigned char>(header.size() >> 8);
  std::string head(reinterpret_cast<const char*>(pre), 10);
  head += header;
  writeFileAtomically(path, head, tensor.data(), tensor.nbytes());
}

}  // namespace oinfer
