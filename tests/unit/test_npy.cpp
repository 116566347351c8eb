#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include "oinfer/tensor_io.h"

using namespace oinfer;

namespace {

std::string tempPath(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("oinfer_test_npy_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// An .npy file of the given version with `header` (padded like numpy does) and raw data.
std::string makeNpy(int major, std::string header, const std::string& data) {
  size_t prefix = major == 1 ? 10 : 12;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  size_t n = header.size();
  out += static_cast<char>(n & 0xff);
  out += static_cast<char>((n >> 8) & 0xff);
  if (major != 1) {
    out += static_cast<char>((n >> 16) & 0xff);
    out += static_cast<char>((n >> 24) & 0xff);
  }
  return out + header + data;
}

template <class T>
void roundTrip(const std::vector<int64_t>& shape, const std::vector<T>& values) {
  Tensor t = Tensor::fromVector<T>(shape, values);
  std::string p = tempPath(std::string("rt_") + dataTypeName(t.dtype()) + ".npy");
  saveNpy(p, t);
  Tensor u = loadNpy(p);
  EXPECT_EQ(u.dtype(), t.dtype()) << dataTypeName(t.dtype());
  EXPECT_EQ(u.shape(), t.shape()) << dataTypeName(t.dtype());
  ASSERT_EQ(u.nbytes(), t.nbytes());
  EXPECT_EQ(0, std::memcmp(u.data(), t.data(), t.nbytes())) << dataTypeName(t.dtype());
  // The data starts on a 64-byte boundary, as numpy writes it.
  EXPECT_EQ((readAll(p).size() - t.nbytes()) % 64, 0u);
}

void expectLoadError(const std::string& name, const std::string& bytes, const std::string& fragment) {
  std::string p = tempPath(name);
  writeAll(p, bytes);
  try {
    loadNpy(p);
    ADD_FAILURE() << name << ": expected an error containing '" << fragment << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIO) << name;
    std::string msg = e.what();
    EXPECT_NE(msg.find(p), std::string::npos) << "message does not name the file: " << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << "message: " << msg;
  }
}

const std::string kF4Header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
const std::string kTwoFloats("\x00\x00\x80\x3f\x00\x00\x00\x40", 8);  // 1.0f, 2.0f

}  // namespace

TEST(Npy, RoundTripEveryDtype) {
  roundTrip<float>({2, 3}, {1.5f, -2.f, 0.f, 3.25f, NAN, INFINITY});
  roundTrip<double>({3}, {1e300, -0.5, 7.0});
  roundTrip<Float16>({2}, {Float16(1.5f), Float16(-3.f)});
  roundTrip<int8_t>({4}, {-128, -1, 0, 127});
  roundTrip<int16_t>({2, 1}, {-32768, 32767});
  roundTrip<int32_t>({1, 2}, {-2147483647 - 1, 7});
  roundTrip<int64_t>({2}, {INT64_MIN, INT64_MAX});
  roundTrip<uint8_t>({3}, {0, 128, 255});
  roundTrip<uint16_t>({2}, {0, 65535});
  roundTrip<uint32_t>({2}, {0u, 4294967295u});
  roundTrip<uint64_t>({2}, {0ull, 18446744073709551615ull});
  roundTrip<bool>({2, 2}, {true, false, false, true});
}

TEST(Npy, ZeroDimAndEmpty) {
  roundTrip<double>({}, {2.5});
  roundTrip<float>({0, 3}, {});
  roundTrip<int64_t>({4, 0, 2}, {});
  Tensor s = loadNpy([] {
    std::string p = tempPath("scalar.npy");
    saveNpy(p, Tensor::scalar<int32_t>(-9));
    return p;
  }());
  EXPECT_EQ(s.rank(), 0u);
  EXPECT_EQ(s.data<int32_t>()[0], -9);
}

// Bytes numpy 2.4 writes for np.save(f, np.arange(6, dtype='<f4').reshape(2, 3)).
TEST(Npy, WritesExactlyWhatNumpyWrites) {
  std::string p = tempPath("numpy_exact.npy");
  saveNpy(p, Tensor::fromVector<float>({2, 3}, {0, 1, 2, 3, 4, 5}));
  std::string bytes = readAll(p);
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  header.append(118 - 1 - header.size(), ' ');
  header += '\n';
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) + header;
  ASSERT_EQ(bytes.substr(0, 128), expected);
  EXPECT_EQ(bytes.size(), 128u + 24u);

  std::string p1 = tempPath("numpy_1d.npy");
  saveNpy(p1, Tensor::fromVector<bool>({2}, {true, false}));
  EXPECT_NE(readAll(p1).find("'descr': '|b1', 'fortran_order': False, 'shape': (2,), }"), std::string::npos);
}

TEST(Npy, ReadsVersions2And3) {
  for (int major : {1, 2, 3}) {
    std::string p = tempPath("v" + std::to_string(major) + ".npy");
    writeAll(p, makeNpy(major, kF4Header, kTwoFloats));
    Tensor t = loadNpy(p);
    EXPECT_EQ(t.dtype(), DataType::kFloat);
    EXPECT_EQ(t.shape(), (std::vector<int64_t>{2}));
    EXPECT_EQ(t.toVector<float>(), (std::vector<float>{1.f, 2.f}));
  }
}

TEST(Npy, AcceptsHeaderVariants) {
  // Keys in another order, double quotes, no trailing comma, '=' byte order.
  std::string p = tempPath("variant.npy");
  writeAll(p, makeNpy(1, "{\"shape\": (1, 2), \"fortran_order\": False, \"descr\": \"=f4\"}", kTwoFloats));
  Tensor t = loadNpy(p);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{1, 2}));
  // Bool bytes other than 0/1 read as true.
  writeAll(p, makeNpy(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", std::string("\x00\x07", 2)));
  Tensor b = loadNpy(p);
  EXPECT_EQ(b.data<uint8_t>()[0], 0);
  EXPECT_EQ(b.data<uint8_t>()[1], 1);
}

TEST(Npy, MalformedHeadersNameTheProblem) {
  expectLoadError("empty.npy", "", "too short");
  expectLoadError("magic.npy", "PK\x03\x04 this is a zip file, not npy", "bad magic");
  expectLoadError("version.npy", std::string("\x93NUMPY\x04\x00\x10\x00", 10) + "{}", "format version 4.0");
  expectLoadError("trunc_header.npy", makeNpy(1, kF4Header, kTwoFloats).substr(0, 40), "truncated");
  expectLoadError("trunc_data.npy", makeNpy(1, kF4Header, kTwoFloats.substr(0, 6)), "data is truncated");
  expectLoadError("fortran.npy",
                  makeNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }", kTwoFloats),
                  "'fortran_order': True is not supported");
  expectLoadError("bigendian.npy", makeNpy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", kTwoFloats),
                  "unsupported dtype '>f4'");
  expectLoadError("unicode.npy", makeNpy(1, "{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", kTwoFloats),
                  "unsupported dtype '<U3'");
  expectLoadError("structured.npy",
                  makeNpy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", kTwoFloats),
                  "structured arrays");
  expectLoadError("negative.npy", makeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", kTwoFloats),
                  "non-negative integers");
  expectLoadError("hugedim.npy",
                  makeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", ""),
                  "too large");
  expectLoadError("overflow.npy",
                  makeNpy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""),
                  "too many elements");
  expectLoadError("bigdata.npy",
                  makeNpy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }", kTwoFloats),
                  "data is truncated");
  expectLoadError("nokey.npy", makeNpy(1, "{'descr': '<f4', 'shape': (2,), }", kTwoFloats), "lacks 'fortran_order'");
  expectLoadError("extrakey.npy",
                  makeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", kTwoFloats),
                  "unexpected key 'x'");
  expectLoadError("badbool.npy", makeNpy(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", kTwoFloats),
                  "not True or False");
  expectLoadError("unterminated.npy", makeNpy(1, "{'descr': '<f4", kTwoFloats), "truncated");
  expectLoadError("nobrace.npy", makeNpy(1, "'descr': '<f4'", kTwoFloats), "expected '{'");
  expectLoadError("trailing.npy",
                  makeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } junk", kTwoFloats),
                  "trailing characters");
  expectLoadError("nul.npy", makeNpy(1, std::string("{'descr': '<f4'\0", 16), kTwoFloats), "NUL");
}

TEST(Npy, MissingFileAndUnsupportedSave) {
  try {
    loadNpy("/nonexistent/oinfer/x.npy");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIO);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/oinfer/x.npy"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos);
  }
  Tensor bf(DataType::kBFloat16, {2});
  try {
    saveNpy(tempPath("bf16.npy"), bf);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bfloat16 has no .npy equivalent"), std::string::npos) << e.what();
  }
  try {
    saveNpy("/nonexistent/oinfer/out.npy", Tensor::scalar<float>(1.f));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIO);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/oinfer/out.npy"), std::string::npos);
  }
}

// saveNpy writes a new file and renames it into place: a symlink at the path
// is replaced (its target untouched), and a failed write leaves the previous
// file as it was, with no temporary file left behind.
TEST(Npy, SaveReplacesASymlinkInsteadOfFollowingIt) {
  const std::string victim = tempPath("victim.txt");
  const std::string link = tempPath("linked.npy");
  writeAll(victim, "precious");
  std::filesystem::remove(link);
  std::filesystem::create_symlink(victim, link);
  saveNpy(link, Tensor::fromVector<float>({2}, {1.f, 2.f}));
  EXPECT_EQ(readAll(victim), "precious");
  EXPECT_FALSE(std::filesystem::is_symlink(link));
  EXPECT_EQ(loadNpy(link).toVector<float>(), (std::vector<float>{1.f, 2.f}));
}

TEST(Npy, FailedSaveKeepsThePreviousFile) {
  const std::string path = tempPath("kept.npy");
  saveNpy(path, Tensor::fromVector<float>({3}, {1.f, 2.f, 3.f}));
  const std::string before = readAll(path);
  // A file size limit stands in for a full disk: the write fails part-way.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string msg;
  try {
    saveNpy(path, Tensor(DataType::kFloat, {1 << 20}));
  } catch (const Error& e) {
    msg = e.what();
    EXPECT_EQ(e.code(), ErrorCode::kIO);
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  EXPECT_NE(msg.find("npy file '" + path + "': write failed (the previous file, if any, is unchanged)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(readAll(path), before);
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".kept.npy.tmp"), std::string::npos) << e.path();
}
