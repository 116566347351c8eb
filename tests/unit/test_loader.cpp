// ONNX loader: model-level checks, robustness on hostile bytes, tensors of
// every data type, external data and the TensorProto/SequenceProto readers.
// Graph-level rules (nodes, attributes, subgraphs, functions) are in
// test_loader_graph.cpp.
#include <onnx/onnx-data_pb.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <future>
#include <random>

#include "loader_test_util.h"
#include "oinfer/tensor_io.h"
#include "ir_util.h"

using namespace loader_test;
using oinfer::DataType;
using oinfer::ErrorCode;
using oinfer::Graph;
namespace ir = oinfer::ir;
using oinfer::Tensor;

// ---- model level ------------------------------------------------------------

TEST(Loader, ModelMetadataAndValueInfo) {
  auto m = reluModel();
  m.set_producer_name("pytorch");
  m.set_producer_version("2.1");
  m.set_domain("org.test");
  m.set_doc_string("doc");
  auto* g = m.mutable_graph();
  vi(g->mutable_value_info(), "tmp", onnx::TensorProto::INT64, {D::unknown(), 4});
  auto* noShape = g->add_value_info();
  noShape->set_name("noshape");
  setTensorType(noShape->mutable_type(), onnx::TensorProto::FLOAT, {}, false);
  ir::Graph out = load(m);
  EXPECT_EQ(out.irVersion, 8);
  EXPECT_EQ(out.producerName, "pytorch");
  EXPECT_EQ(out.producerVersion, "2.1");
  EXPECT_EQ(out.domain, "org.test");
  EXPECT_EQ(out.docString, "doc");
  EXPECT_EQ(out.name, "main");
  EXPECT_EQ(out.opset(""), 17);
  ASSERT_EQ(out.inputs.size(), 1u);
  EXPECT_EQ(out.inputs[0].name, "X");
  EXPECT_EQ(out.inputs[0].dtype, DataType::kFloat);
  ASSERT_TRUE(out.inputs[0].hasShape);
  EXPECT_EQ(out.inputs[0].shape[0], oinfer::Dim::sym("N"));
  EXPECT_EQ(out.inputs[0].shape[1], oinfer::Dim(3));
  ASSERT_EQ(out.outputs.size(), 1u);
  EXPECT_EQ(out.outputs[0].name, "Y");
  const auto& tmp = out.valueInfo.at("tmp");
  EXPECT_EQ(tmp.dtype, DataType::kInt64);
  ASSERT_EQ(tmp.shape.size(), 2u);
  EXPECT_FALSE(tmp.shape[0].isStatic());
  EXPECT_EQ(tmp.shape[0].symbol.rfind("unk__input_", 0), 0u) << tmp.shape[0].symbol;
  EXPECT_EQ(tmp.shape[1], oinfer::Dim(4));
  EXPECT_FALSE(out.valueInfo.at("noshape").hasShape);
  EXPECT_FALSE(out.sorted());
  EXPECT_FALSE(out.shapesInferred());
}

TEST(Loader, FreshSymbolsAreDistinct) {
  auto m = reluModel();
  auto* x = m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  x->clear_dim();
  x->add_dim();
  x->add_dim();
  ir::Graph g = load(m);
  ASSERT_EQ(g.inputs[0].shape.size(), 2u);
  EXPECT_NE(g.inputs[0].shape[0], g.inputs[0].shape[1]);
}

TEST(Loader, SequenceAndOptionalTypes) {
  auto m = reluModel();
  auto* g = m.mutable_graph();
  auto* s = g->add_value_info();
  s->set_name("seq");
  setTensorType(s->mutable_type()->mutable_sequence_type()->mutable_elem_type(), onnx::TensorProto::INT32, {2});
  auto* o = g->add_value_info();
  o->set_name("opt");
  setTensorType(o->mutable_type()->mutable_optional_type()->mutable_elem_type(), onnx::TensorProto::DOUBLE, {});
  ir::Graph out = load(m);
  EXPECT_EQ(out.valueInfo.at("seq").kind, oinfer::ValueKind::kSequence);
  EXPECT_EQ(out.valueInfo.at("seq").dtype, DataType::kInt32);
  EXPECT_EQ(out.valueInfo.at("opt").kind, oinfer::ValueKind::kOptional);
  EXPECT_EQ(out.valueInfo.at("opt").dtype, DataType::kDouble);
}

TEST(Loader, GarbageBytesAreRejected) {
  const std::string junk = "this is definitely not an onnx model \xff\xfe\x01";
  try {
    Graph::loadFromBuffer(junk.data(), junk.size());
    FAIL() << "expected an error";
  } catch (const oinfer::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidModel);
    EXPECT_HAS(std::string(e.what()), "model buffer");
  }
  try {
    Graph::loadFromBuffer("", 0);
    FAIL() << "expected an error";
  } catch (const oinfer::Error& e) {
    EXPECT_HAS(std::string(e.what()), "empty");
  }
  // Valid protobuf but not a model: no ir_version.
  onnx::ModelProto noIr = reluModel();
  noIr.clear_ir_version();
  EXPECT_HAS(loadError(noIr), "ir_version");
  onnx::ModelProto noGraph = reluModel();
  noGraph.clear_graph();
  EXPECT_HAS(loadError(noGraph), "no graph");
}

TEST(Loader, MissingFileIsIOError) {
  try {
    Graph::loadFromONNX("/nonexistent/dir/model.onnx");
    FAIL() << "expected an error";
  } catch (const oinfer::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIO);
    EXPECT_HAS(std::string(e.what()), "/nonexistent/dir/model.onnx");
  }
}

TEST(Loader, LoadFromFile) {
  TempDir dir("file");
  writeFile(dir.file("m.onnx"), bytesOf(reluModel()));
  ir::Graph g = oinfer::loadIr(dir.file("m.onnx"));
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].opType, "Relu");
}

// A file is parsed in 4 MiB chunks whose pages are dropped from the mapping
// once the parser is past them: a 48 MiB model whose initializers straddle
// chunk and page boundaries (odd sizes, raw and typed) loads bit-exact, and a
// truncated copy of it still fails cleanly.
TEST(Loader, LargeFileParsedInChunksLoadsExactly) {
  auto m = reluModel();
  auto* g = m.mutable_graph();
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<std::vector<float>> values;
  for (int i = 0; i < 12; ++i) {
    const int64_t n = (int64_t{1} << 20) + 12345 * i + 7;  // ~4 MiB each, odd sizes
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    initF(g, "w" + std::to_string(i), {n}, v, /*raw=*/i % 3 != 0);
    values.push_back(std::move(v));
  }
  TempDir dir("chunks");
  const std::string bytes = bytesOf(m);
  ASSERT_GT(bytes.size(), size_t{40} << 20);
  writeFile(dir.file("big.onnx"), bytes);
  ir::Graph loaded = oinfer::loadIr(dir.file("big.onnx"));
  ASSERT_EQ(loaded.initializers.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const Tensor& t = loaded.initializers.at("w" + std::to_string(i));
    ASSERT_EQ(t.numel(), static_cast<int64_t>(values[i].size())) << i;
    EXPECT_EQ(std::memcmp(t.data(), values[i].data(), t.nbytes()), 0) << "initializer w" << i;
  }
  writeFile(dir.file("cut.onnx"), bytes.substr(0, bytes.size() - 1000));
  EXPECT_THROW(Graph::loadFromONNX(dir.file("cut.onnx")), oinfer::Error);
}

namespace {
// Touches most loader paths: typed and raw initializers, Constant, a subgraph
// reading outer names, a model-local function with an attribute reference.
onnx::ModelProto richModel() {
  auto m = reluModel();
  auto* g = m.mutable_graph();
  initF(g, "W", {2, 3}, {1, 2, 3, 4, 5, 6});
  initF(g, "B", {3}, {1, 2, 3}, false);
  node(g, "Add", {"Y", "B"}, {"Z"});
  auto* c = node(g, "Constant", {}, {"C"});
  auto* a = attr(c, "value_ints", onnx::AttributeProto::INTS);
  a->add_ints(1);
  a->add_ints(2);
  vi(g->mutable_output(), "Z");
  vi(g->mutable_input(), "cond", onnx::TensorProto::BOOL, {});
  auto* ifn = node(g, "If", {"cond"}, {"I"}, "if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* sg = attr(ifn, branch, onnx::AttributeProto::GRAPH)->mutable_g();
    node(sg, "Add", {"X", "B"}, {"o"});
    vi(sg->mutable_output(), "o");
  }
  auto* op = m.add_opset_import();
  op->set_domain("local");
  op->set_version(1);
  auto* f = m.add_functions();
  f->set_name("Fn");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  f->add_attribute("alpha");
  auto* body = f->add_node();
  body->set_op_type("LeakyRelu");
  body->add_input("a");
  body->add_output("b");
  auto* ref = attr(body, "alpha", onnx::AttributeProto::FLOAT);
  ref->set_ref_attr_name("alpha");
  auto* callNode = node(g, "Fn", {"I"}, {"F"}, "call");
  callNode->set_domain("local");
  attr(callNode, "alpha", onnx::AttributeProto::FLOAT)->set_f(0.1f);
  vi(g->mutable_output(), "F");
  return m;
}
}  // namespace

TEST(Loader, RichModelLoads) {
  ir::Graph g = load(richModel());
  EXPECT_EQ(g.nodes.size(), 5u);
  EXPECT_EQ(g.initializers.size(), 2u);
  EXPECT_NE(findNode(g, "call/LeakyRelu_0"), nullptr);
}

TEST(Loader, TruncatedFilesNeverCrash) {
  const std::string full = bytesOf(richModel());
  int errors = 0;
  for (size_t cut = 0; cut < full.size(); cut += 3) {
    try {
      Graph::loadFromBuffer(full.data(), cut);
    } catch (const oinfer::Error& e) {
      ++errors;
    }
  }
  EXPECT_GT(errors, static_cast<int>(full.size() / 3) / 2);
}

TEST(Loader, ByteFlipFuzzNeverCrashes) {
  const std::string full = bytesOf(richModel());
  std::mt19937 rng(12345);
  const auto start = std::chrono::steady_clock::now();
  int loaded = 0, failed = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    std::string bytes = full;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
    try {
      ir::Graph g = oinfer::loadIr(Graph::loadFromBuffer(bytes.data(), bytes.size()));
      ++loaded;
    } catch (const oinfer::Error&) {
      ++failed;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(secs, 5.0);
  EXPECT_EQ(loaded + failed, 4000);
  EXPECT_GT(failed, 0);
}

TEST(Loader, OversizedDimsFailBeforeAllocating) {
  auto m = reluModel();
  auto* t = initF(m.mutable_graph(), "W", {1 << 20, 1 << 20, 1 << 10}, {1, 2});
  (void)t;
  EXPECT_HAS(loadError(m), "initializer 'W': raw_data has 8 bytes, shape [1048576,1048576,1024] of float32 needs");
  auto m2 = reluModel();
  initF(m2.mutable_graph(), "W", {int64_t(1) << 40, int64_t(1) << 40}, {});
  EXPECT_HAS(loadError(m2), "overflows");
  auto m3 = reluModel();
  initF(m3.mutable_graph(), "W", {2, -3}, {});
  EXPECT_HAS(loadError(m3), "initializer 'W': negative dimension -3");
}

// ---- tensors ----------------------------------------------------------------

TEST(Loader, RawDataSizeMismatch) {
  auto m = reluModel();
  initF(m.mutable_graph(), "W", {2, 3}, {1, 2, 3});
  EXPECT_HAS(loadError(m), "initializer 'W': raw_data has 12 bytes, shape [2,3] of float32 needs 24");
}

TEST(Loader, TypedFieldCountMismatch) {
  auto m = reluModel();
  initF(m.mutable_graph(), "W", {2, 3}, {1, 2, 3, 4, 5}, false);
  EXPECT_HAS(loadError(m), "initializer 'W': float_data has 5 values, shape [2,3] of float32 needs 6");
  auto m2 = reluModel();
  auto* t = m2.mutable_graph()->add_initializer();
  t->set_name("I");
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(1);
  t->add_float_data(1.f);
  EXPECT_HAS(loadError(m2), "initializer 'I': float_data is set but a int64 tensor uses int64_data");
  auto m3 = reluModel();
  auto* u = m3.mutable_graph()->add_initializer();
  u->set_name("U");
  u->set_data_type(99);
  EXPECT_HAS(loadError(m3), "initializer 'U': unsupported or missing data_type 99");
}

namespace {
// Loads a model whose only initializer is `t` and returns the tensor.
Tensor roundTrip(const onnx::TensorProto& t) {
  auto m = reluModel();
  *m.mutable_graph()->add_initializer() = t;
  ir::Graph g = load(m);
  return g.initializers.at(t.name());
}
onnx::TensorProto typed(int dtype, std::vector<int64_t> dims) {
  onnx::TensorProto t;
  t.set_name("T");
  t.set_data_type(dtype);
  for (auto d : dims) t.add_dims(d);
  return t;
}
}  // namespace

TEST(Loader, TypedFieldsOfEveryType) {
  {
    auto t = typed(onnx::TensorProto::FLOAT16, {2});
    t.add_int32_data(oinfer::floatToHalf(1.5f));
    t.add_int32_data(oinfer::floatToHalf(-2.f));
    Tensor r = roundTrip(t);
    EXPECT_EQ(r.dtype(), DataType::kFloat16);
    EXPECT_EQ(static_cast<float>(r.data<oinfer::Float16>()[0]), 1.5f);
    EXPECT_EQ(static_cast<float>(r.data<oinfer::Float16>()[1]), -2.f);
  }
  {
    auto t = typed(onnx::TensorProto::BFLOAT16, {1});
    t.add_int32_data(oinfer::BFloat16(3.f).bits);
    EXPECT_EQ(static_cast<float>(roundTrip(t).data<oinfer::BFloat16>()[0]), 3.f);
  }
  {
    auto t = typed(onnx::TensorProto::BOOL, {3});
    for (int v : {1, 0, 5}) t.add_int32_data(v);
    EXPECT_EQ(roundTrip(t).toVector<bool>(), (std::vector<bool>{true, false, true}));
  }
  {
    auto t = typed(onnx::TensorProto::INT8, {2});
    t.add_int32_data(-128);
    t.add_int32_data(127);
    EXPECT_EQ(roundTrip(t).toVector<int8_t>(), (std::vector<int8_t>{-128, 127}));
  }
  {
    auto t = typed(onnx::TensorProto::UINT8, {2});
    t.add_int32_data(255);
    t.add_int32_data(7);
    EXPECT_EQ(roundTrip(t).toVector<uint8_t>(), (std::vector<uint8_t>{255, 7}));
  }
  {
    auto t = typed(onnx::TensorProto::INT16, {1});
    t.add_int32_data(-30000);
    EXPECT_EQ(roundTrip(t).toVector<int16_t>(), (std::vector<int16_t>{-30000}));
  }
  {
    auto t = typed(onnx::TensorProto::UINT16, {1});
    t.add_int32_data(65535);
    EXPECT_EQ(roundTrip(t).toVector<uint16_t>(), (std::vector<uint16_t>{65535}));
  }
  {
    auto t = typed(onnx::TensorProto::INT32, {2});
    t.add_int32_data(-5);
    t.add_int32_data(1 << 30);
    EXPECT_EQ(roundTrip(t).toVector<int32_t>(), (std::vector<int32_t>{-5, 1 << 30}));
  }
  {
    auto t = typed(onnx::TensorProto::INT64, {2});
    t.add_int64_data(int64_t(1) << 40);
    t.add_int64_data(-1);
    EXPECT_EQ(roundTrip(t).toVector<int64_t>(), (std::vector<int64_t>{int64_t(1) << 40, -1}));
  }
  {
    auto t = typed(onnx::TensorProto::UINT32, {1});
    t.add_uint64_data(4000000000u);
    EXPECT_EQ(roundTrip(t).toVector<uint32_t>(), (std::vector<uint32_t>{4000000000u}));
  }
  {
    auto t = typed(onnx::TensorProto::UINT64, {1});
    t.add_uint64_data(~uint64_t(0));
    EXPECT_EQ(roundTrip(t).toVector<uint64_t>(), (std::vector<uint64_t>{~uint64_t(0)}));
  }
  {
    auto t = typed(onnx::TensorProto::DOUBLE, {2});
    t.add_double_data(0.1);
    t.add_double_data(-1e300);
    EXPECT_EQ(roundTrip(t).toVector<double>(), (std::vector<double>{0.1, -1e300}));
  }
  {
    auto t = typed(onnx::TensorProto::STRING, {2});
    t.add_string_data("hello");
    t.add_string_data(std::string("a\0b", 3));
    EXPECT_EQ(roundTrip(t).toVector<std::string>(), (std::vector<std::string>{"hello", std::string("a\0b", 3)}));
  }
  {
    auto t = typed(onnx::TensorProto::COMPLEX64, {1});
    t.add_float_data(1.f);
    t.add_float_data(2.f);
    Tensor r = roundTrip(t);
    EXPECT_EQ(r.nbytes(), 8u);
    EXPECT_EQ(r.data<float>()[1], 2.f);
  }
  {
    auto t = typed(onnx::TensorProto::COMPLEX128, {1});
    t.add_double_data(3.0);
    t.add_double_data(4.0);
    EXPECT_EQ(roundTrip(t).data<double>()[1], 4.0);
  }
  {
    auto t = typed(17 /*FLOAT8E4M3FN*/, {2});
    t.add_int32_data(0x38);
    t.add_int32_data(0xB8);
    EXPECT_EQ(roundTrip(t).toVector<uint8_t>(), (std::vector<uint8_t>{0x38, 0xB8}));
  }
  {
    // int4: two per int32_data entry, first element in the low nibble.
    auto t = typed(22 /*INT4*/, {3});
    t.add_int32_data(0x8F);  // -1, -8
    t.add_int32_data(0x07);  // 7
    EXPECT_EQ(roundTrip(t).toVector<int8_t>(), (std::vector<int8_t>{-1, -8, 7}));
  }
  {
    auto t = typed(21 /*UINT4*/, {3});
    t.add_int32_data(0x8F);
    t.add_int32_data(0x07);
    EXPECT_EQ(roundTrip(t).toVector<uint8_t>(), (std::vector<uint8_t>{15, 8, 7}));
    t.add_int32_data(0);
    EXPECT_HAS(loadError([&] { auto m = reluModel(); *m.mutable_graph()->add_initializer() = t; return m; }()),
               "int32_data has 3 values, shape [3] of uint4 needs 2");
  }
}

TEST(Loader, RawDataOfSeveralTypes) {
  {
    auto t = typed(onnx::TensorProto::INT64, {2});
    std::vector<int64_t> v{-7, int64_t(1) << 50};
    t.set_raw_data(std::string(reinterpret_cast<const char*>(v.data()), 16));
    EXPECT_EQ(roundTrip(t).toVector<int64_t>(), v);
  }
  {
    auto t = typed(onnx::TensorProto::BOOL, {3});
    t.set_raw_data(std::string("\x01\x00\x02", 3));
    EXPECT_EQ(roundTrip(t).toVector<bool>(), (std::vector<bool>{true, false, true}));
  }
  {
    // Packed 2-bit: x0 | x1 << 2 | x2 << 4 | x3 << 6; int2 sign-extended.
    auto t = typed(26 /*INT2*/, {5});
    t.set_raw_data(std::string("\xE4\x03", 2));  // 0,1,-2,-1 | -1
    EXPECT_EQ(roundTrip(t).toVector<int8_t>(), (std::vector<int8_t>{0, 1, -2, -1, -1}));
    auto u = typed(25 /*UINT2*/, {5});
    u.set_raw_data(std::string("\xE4\x03", 2));
    EXPECT_EQ(roundTrip(u).toVector<uint8_t>(), (std::vector<uint8_t>{0, 1, 2, 3, 3}));
  }
  {
    auto t = typed(23 /*FLOAT4E2M1*/, {3});
    t.set_raw_data(std::string("\x21\x0F", 2));
    EXPECT_EQ(roundTrip(t).toVector<uint8_t>(), (std::vector<uint8_t>{1, 2, 15}));
  }
  {
    // Large enough that the loader adopts the parsed buffer instead of copying.
    std::vector<float> v(4096);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f;
    auto t = typed(onnx::TensorProto::FLOAT, {64, 64});
    t.set_raw_data(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4));
    Tensor r = roundTrip(t);
    EXPECT_EQ(r.shape(), (std::vector<int64_t>{64, 64}));
    EXPECT_EQ(r.toVector<float>(), v);
  }
  {
    auto t = typed(onnx::TensorProto::STRING, {1});
    t.set_raw_data("abc");
    auto m = reluModel();
    *m.mutable_graph()->add_initializer() = t;
    EXPECT_HAS(loadError(m), "initializer 'T': string tensors must use string_data");
  }
  {
    auto t = typed(onnx::TensorProto::FLOAT, {0, 5});
    Tensor r = roundTrip(t);
    EXPECT_EQ(r.numel(), 0);
  }
}

// ---- external data ---------------------------------------------------------

namespace {
void setExternal(onnx::TensorProto* t, const std::string& location, int64_t offset = -1, int64_t length = -1) {
  t->clear_raw_data();
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const std::string& k, const std::string& v) {
    auto* e = t->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  if (offset >= 0) add("offset", std::to_string(offset));
  if (length >= 0) add("length", std::to_string(length));
}

onnx::ModelProto externalModel(const std::string& location, int64_t offset = -1, int64_t length = -1) {
  auto m = reluModel();
  auto* t = initF(m.mutable_graph(), "W", {2, 2}, {});
  setExternal(t, location, offset, length);
  return m;
}

std::string floatBytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}
}  // namespace

TEST(LoaderExternal, ReadsRelativeToModelFolder) {
  TempDir dir("ext_ok");
  std::filesystem::create_directories(dir.path / "weights");
  writeFile(dir.file("weights/w.bin"), std::string(8, '\0') + floatBytes({1, 2, 3, 4}) + "tail");
  writeFile(dir.file("m.onnx"), bytesOf(externalModel("weights/w.bin", 8, 16)));
  ir::Graph g = oinfer::loadIr(dir.file("m.onnx"));
  EXPECT_EQ(g.initializers.at("W").toVector<float>(), (std::vector<float>{1, 2, 3, 4}));

  // No length: the tensor's size from the offset; buffers use baseDir.
  writeFile(dir.file("w2.bin"), floatBytes({5, 6, 7, 8}));
  ir::Graph g2 = load(externalModel("w2.bin"), dir.path.string());
  EXPECT_EQ(g2.initializers.at("W").toVector<float>(), (std::vector<float>{5, 6, 7, 8}));
}

TEST(LoaderExternal, RefusedWithoutBaseDir) {
  EXPECT_HAS(loadError(externalModel("w.bin")), "without a base directory");
}

TEST(LoaderExternal, AbsolutePathRefused) {
  TempDir dir("ext_abs");
  writeFile(dir.file("w.bin"), floatBytes({1, 2, 3, 4}));
  EXPECT_HAS(loadError(externalModel(dir.file("w.bin")), dir.path.string()), "is an absolute path");
}

TEST(LoaderExternal, DotDotEscapeRefused) {
  TempDir dir("ext_dotdot");
  std::filesystem::create_directories(dir.path / "model");
  writeFile(dir.file("secret.bin"), floatBytes({1, 2, 3, 4}));
  EXPECT_HAS(loadError(externalModel("../secret.bin"), (dir.path / "model").string()), "escapes the model folder");
  // `..` that stays inside is fine.
  std::filesystem::create_directories(dir.path / "model/sub");
  writeFile(dir.file("model/w.bin"), floatBytes({1, 2, 3, 4}));
  ir::Graph g = load(externalModel("sub/../w.bin"), (dir.path / "model").string());
  EXPECT_EQ(g.initializers.at("W").numel(), 4);
}

TEST(LoaderExternal, SymlinkEscapeRefused) {
  TempDir dir("ext_link");
  std::filesystem::create_directories(dir.path / "model");
  writeFile(dir.file("outside.bin"), floatBytes({1, 2, 3, 4}));
  std::filesystem::create_symlink(dir.path / "outside.bin", dir.path / "model/link.bin");
  const std::string msg = loadError(externalModel("link.bin"), (dir.path / "model").string());
  EXPECT_HAS(msg, "initializer 'W': external data location 'link.bin' is a symbolic link to '");
  EXPECT_HAS(msg, "outside.bin', outside the model folder '");
  EXPECT_HAS(msg, "LoadOptions::allowExternalDataSymlinks, oinfer-run --allow-external-symlinks");
  std::filesystem::create_directory_symlink(dir.path, dir.path / "model/up");
  EXPECT_HAS(loadError(externalModel("up/outside.bin"), (dir.path / "model").string()),
             "is a symbolic link to '");
}

// Issue 22: the Hugging Face cache's layout (snapshots/<rev>/w.bin a link
// to ../../blobs/<sha>) loads when the caller allows links; a location that
// itself leaves the folder (`..`, an absolute path) stays refused, and a
// link to something that is not a regular file too.
TEST(LoaderExternal, SymlinksFollowedWhenAllowed) {
  TempDir dir("ext_hf");
  std::filesystem::create_directories(dir.path / "blobs");
  std::filesystem::create_directories(dir.path / "snapshots/rev");
  writeFile(dir.file("blobs/abc123"), floatBytes({1, 2, 3, 4}));
  std::filesystem::create_symlink("../../blobs/abc123", dir.path / "snapshots/rev/w.bin");
  oinfer::LoadOptions allow;
  allow.allowExternalDataSymlinks = true;
  const std::string model = (dir.path / "snapshots/rev").string();
  for (bool map : {true, false}) {
    allow.mapExternalData = map;
    ir::Graph g = load(externalModel("w.bin"), model, allow);
    EXPECT_EQ(g.initializers.at("W").toVector<float>(), (std::vector<float>{1, 2, 3, 4}));
  }
  EXPECT_HAS(loadError(externalModel("../../blobs/abc123"), model, ErrorCode::kInvalidModel, allow),
             "escapes the model folder");
  EXPECT_HAS(loadError(externalModel(dir.file("blobs/abc123")), model, ErrorCode::kInvalidModel, allow),
             "is an absolute path");
  ASSERT_EQ(::mkfifo(dir.file("blobs/fifo").c_str(), 0600), 0) << std::strerror(errno);
  std::filesystem::create_symlink("../../blobs/fifo", dir.path / "snapshots/rev/f.bin");
  EXPECT_HAS(loadError(externalModel("f.bin"), model, ErrorCode::kIO, allow), "is not a regular file");
}

namespace {
// Whether /proc/self/maps lists a mapping of `path`.
bool isMapped(const std::filesystem::path& path) {
  std::ifstream maps("/proc/self/maps");
  const std::string want = std::filesystem::canonical(path).string();
  std::string line;
  while (std::getline(maps, line))
    if (line.size() >= want.size() && line.compare(line.size() - want.size(), want.size(), want) == 0) return true;
  return false;
}

// Two float tensors W [2,2] and B [4] in one file: W at `offsetW`, B at 128.
onnx::ModelProto twoExternal(int64_t offsetW) {
  auto m = externalModel("w.bin", offsetW);
  auto* b = initF(m.mutable_graph(), "B", {4}, {});
  setExternal(b, "w.bin", 128);
  return m;
}
}  // namespace

// Issue 22: external data is memory-mapped, once per file, and a tensor at a
// 64-byte-aligned offset views the mapping (the file stays mapped while the
// graph holds the tensor, and is unmapped with it); a tensor at another
// offset is read into the heap; LoadOptions::mapExternalData = false reads
// every tensor. Values are the same every way.
TEST(LoaderExternal, AlignedTensorsViewTheFileMapping) {
  TempDir dir("ext_map");
  std::string bytes(256, '\0');
  bytes.replace(64, 16, floatBytes({1, 2, 3, 4}));
  bytes.replace(128, 16, floatBytes({5, 6, 7, 8}));
  bytes.replace(136, 16, floatBytes({9, 8, 7, 6}));  // unaligned W at 136
  // (B at 128 overlaps the unaligned W's bytes from 136: B is 5,6 then W's 9,8.)
  writeFile(dir.file("w.bin"), bytes);
  const std::vector<float> b = {5, 6, 9, 8};
  {
    ir::Graph g = load(twoExternal(64), dir.path.string());
    EXPECT_TRUE(isMapped(dir.path / "w.bin"));
    EXPECT_EQ(g.initializers.at("W").toVector<float>(), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(g.initializers.at("B").toVector<float>(), b);
    // One mapping for both: W's and B's data are 64 bytes apart in it.
    EXPECT_EQ(static_cast<const char*>(g.initializers.at("B").data()) -
                  static_cast<const char*>(g.initializers.at("W").data()),
              64);
  }
  EXPECT_FALSE(isMapped(dir.path / "w.bin")) << "the mapping outlived the graph";
  {
    ir::Graph g = load(twoExternal(136), dir.path.string());
    EXPECT_EQ(g.initializers.at("W").toVector<float>(), (std::vector<float>{9, 8, 7, 6}));
    EXPECT_EQ(g.initializers.at("B").toVector<float>(), b);
    const auto* w = static_cast<const char*>(g.initializers.at("W").data());
    const auto* bp = static_cast<const char*>(g.initializers.at("B").data());
    EXPECT_NE(w - bp, 8) << "the unaligned tensor should be a heap copy, not a view";
    EXPECT_EQ(reinterpret_cast<uintptr_t>(w) % 64, 0u);
  }
  {
    oinfer::LoadOptions read;
    read.mapExternalData = false;
    ir::Graph g = load(twoExternal(64), dir.path.string(), read);
    EXPECT_FALSE(isMapped(dir.path / "w.bin"));
    EXPECT_EQ(g.initializers.at("W").toVector<float>(), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(g.initializers.at("B").toVector<float>(), b);
  }
}

// A mapped weight runs like a read one through a Session built from the
// file, and the file is left as it was.
TEST(LoaderExternal, MappedWeightsRunAndTheFileIsNeverWritten) {
  TempDir dir("ext_run");
  auto m = reluModel();
  auto* g = m.mutable_graph();
  g->mutable_node()->Clear();
  node(g, "Add", {"X", "W"}, {"Y"}, "add");
  auto* w = initF(g, "W", {3}, {});
  setExternal(w, "w.bin", 64);
  std::string bytes(64, '\x7f');
  bytes += floatBytes({1, -2, 3});
  writeFile(dir.file("w.bin"), bytes);
  writeFile(dir.file("m.onnx"), bytesOf(m));
  oinfer::Session s(oinfer::Graph::loadFromONNX(dir.file("m.onnx")));
  Tensor x = Tensor::fromVector<float>({1, 3}, {10, 20, 30});
  auto out = s.run({{"X", x}});
  EXPECT_EQ(out.at(0).toVector<float>(), (std::vector<float>{11, 18, 33}));
  std::ifstream in(dir.file("w.bin"), std::ios::binary);
  std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(after, bytes);
}

TEST(LoaderExternal, OffsetAndLengthChecked) {
  TempDir dir("ext_off");
  writeFile(dir.file("w.bin"), floatBytes({1, 2, 3, 4}));
  EXPECT_HAS(loadError(externalModel("w.bin", 100), dir.path.string()),
             "initializer 'W': external data offset 100 + length 16 is beyond the end of 'w.bin' (16 bytes)");
  EXPECT_HAS(loadError(externalModel("w.bin", 4), dir.path.string()), "is beyond the end");
  EXPECT_HAS(loadError(externalModel("w.bin", 0, 12), dir.path.string()),
             "external data length 12 does not match the tensor's 16 bytes");
  auto m = externalModel("w.bin");
  m.mutable_graph()->mutable_initializer(0)->mutable_external_data(0)->set_value("w.bin");
  auto* off = m.mutable_graph()->mutable_initializer(0)->add_external_data();
  off->set_key("offset");
  off->set_value("-4");
  EXPECT_HAS(loadError(m, dir.path.string()), "offset '-4' is not a non-negative integer");
  EXPECT_HAS(loadError(externalModel("missing.bin"), dir.path.string(), ErrorCode::kIO),
             "cannot open external data 'missing.bin'");
}

// Issue 23: a location naming a FIFO blocked the loader forever in open()
// (waiting for a writer) before the regular-file check ran. It must be
// refused at once, naming the tensor and the path.
TEST(LoaderExternal, FifoRefusedWithoutBlocking) {
  TempDir dir("ext_fifo");
  ASSERT_EQ(::mkfifo(dir.file("w.bin").c_str(), 0600), 0) << std::strerror(errno);
  auto pending = std::async(std::launch::async, [&] { return loadError(externalModel("w.bin"), dir.path.string(), ErrorCode::kIO); });
  const bool finished = pending.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (!finished) {
    // Unblock the reader (a writer opening and closing) so the test can end.
    int w = ::open(dir.file("w.bin").c_str(), O_WRONLY | O_NONBLOCK);
    if (w >= 0) ::close(w);
  }
  const std::string msg = pending.get();
  EXPECT_TRUE(finished) << "loading external data from a FIFO blocked";
  EXPECT_HAS(msg, "initializer 'W': external data 'w.bin' (");
  EXPECT_HAS(msg, "ext_fifo");
  EXPECT_HAS(msg, "is not a regular file");
  // A directory is refused the same way.
  std::filesystem::create_directories(dir.path / "d");
  EXPECT_HAS(loadError(externalModel("d"), dir.path.string(), ErrorCode::kIO),
             "initializer 'W': external data 'd' (");
  EXPECT_HAS(loadError(externalModel("d"), dir.path.string(), ErrorCode::kIO), "is not a regular file");
}

// ---- TensorProto / SequenceProto files ---------------------------------------

TEST(TensorProtoIO, LoadAndParse) {
  TempDir dir("tpio");
  onnx::TensorProto t;
  fillFloatTensor(&t, "x", {2, 2}, {1, 2, 3, 4});
  std::string bytes = t.SerializeAsString();
  writeFile(dir.file("input_0.pb"), bytes);
  Tensor a = oinfer::loadTensorProto(dir.file("input_0.pb"));
  EXPECT_EQ(a.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(a.toVector<float>(), (std::vector<float>{1, 2, 3, 4}));
  Tensor b = oinfer::parseTensorProto(bytes.data(), bytes.size());
  EXPECT_EQ(b.toVector<float>(), a.toVector<float>());

  onnx::TensorProto bad;
  fillFloatTensor(&bad, "y", {3}, {1, 2});
  std::string badBytes = bad.SerializeAsString();
  try {
    oinfer::parseTensorProto(badBytes.data(), badBytes.size());
    FAIL() << "expected an error";
  } catch (const oinfer::Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidModel);
    EXPECT_HAS(std::string(e.what()), "tensor 'y': raw_data has 8 bytes, shape [3] of float32 needs 12");
  }
  const std::string junk = "\xff\xff\xff\xff";
  EXPECT_THROW(oinfer::parseTensorProto(junk.data(), junk.size()), oinfer::Error);
  EXPECT_THROW(oinfer::loadTensorProto(dir.file("absent.pb")), oinfer::Error);
}

TEST(TensorProtoIO, LoadSequence) {
  TempDir dir("seqio");
  onnx::SequenceProto s;
  s.set_elem_type(onnx::SequenceProto::TENSOR);
  fillFloatTensor(s.add_tensor_values(), "a", {1}, {7});
  fillFloatTensor(s.add_tensor_values(), "b", {2}, {8, 9});
  writeFile(dir.file("seq.pb"), s.SerializeAsString());
  auto items = oinfer::loadSequenceProto(dir.file("seq.pb"));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].toVector<float>(), (std::vector<float>{7}));
  EXPECT_EQ(items[1].toVector<float>(), (std::vector<float>{8, 9}));

  onnx::SequenceProto nested;
  nested.set_elem_type(onnx::SequenceProto::SEQUENCE);
  nested.add_sequence_values();
  writeFile(dir.file("nested.pb"), nested.SerializeAsString());
  try {
    oinfer::loadSequenceProto(dir.file("nested.pb"));
    FAIL() << "expected an error";
  } catch (const oinfer::Error& e) {
    EXPECT_HAS(std::string(e.what()), "only tensors");
  }
}
