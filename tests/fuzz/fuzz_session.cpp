// libFuzzer target past the parser: load a model, build a Session (graph
// passes, shape inference, constant folding, planning) and run it once on
// small inputs derived from the fuzz data. An oinfer::Error is the expected
// answer to bad input; anything else (a sanitizer report, another exception,
// a hang) is a finding. Built by OINFER_FUZZ=ON; run by scripts/fuzz.sh.
//
// Input layout: [model bytes][input bytes]["OIFZ"][uint32 LE: input byte count].
// Without that trailer the whole buffer is the model and the inputs are
// filled from a fixed pattern, so a plain .onnx file is a valid input too
// (scripts/fuzz.sh adds the trailer to the seed models, with bytes from the
// node test's own input_0.pb where there is one).
//
// Work per input is bounded here, so that a legitimately big model is not
// reported as an out-of-memory or a timeout: at most kMaxNodes nodes (bodies
// included), kMaxWeightBytes of initializers and tensor attributes, no value
// whose inferred static size exceeds kMaxValueBytes, and inputs of at most
// kMaxInputElements elements, their symbolic dims 0..4. Integer inputs are
// kept small (-4..11, and now and then the type's limits) since they often
// end up as shapes, repeats or pads.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "graph/graph_access.h"
#include "graph/ir.h"
#include "oinfer/oinfer.h"

namespace {

using oinfer::DataType;

constexpr size_t kMaxNodes = 512;
constexpr size_t kMaxWeightBytes = size_t{4} << 20;
constexpr uint64_t kMaxValueBytes = uint64_t{16} << 20;
constexpr int64_t kMaxInputElements = 4096;
constexpr char kMagic[4] = {'O', 'I', 'F', 'Z'};
volatile uint64_t g_sink = 0;
// OINFER_FUZZ_DEBUG=1: one line per input on stderr (ran / skipped / the Error), for triage.
const bool g_debug = std::getenv("OINFER_FUZZ_DEBUG") != nullptr;
void debug(const char* what, const std::string& detail = {}) {
  if (g_debug) std::fprintf(stderr, "fuzz_session: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
}

// Reads the input bytes in a cycle (a fixed pattern when there are none).
class ByteSource {
 public:
  ByteSource(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t next() {
    if (n_ == 0) return static_cast<uint8_t>((i_++ * 37 + 11) & 0xff);
    return p_[i_++ % n_];
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t i_ = 0;
};

struct Budget {
  size_t nodes = 0;
  size_t weightBytes = 0;
  bool over() const { return nodes > kMaxNodes || weightBytes > kMaxWeightBytes; }
};

void measure(const oinfer::ir::Graph& g, Budget& b) {
  for (const auto& [name, t] : g.initializers) b.weightBytes += t.nbytes();
  b.nodes += g.nodes.size();
  for (const auto& n : g.nodes) {
    for (const auto& a : n.attributes) {
      b.weightBytes += a.t.nbytes();
      for (const auto& t : a.tensors) b.weightBytes += t.nbytes();
      if (a.g) measure(*a.g, b);
      for (const auto& sub : a.graphs)
        if (sub) measure(*sub, b);
    }
    if (b.over()) return;
  }
}

uint64_t staticBytes(const oinfer::ValueInfo& v) {
  if (v.kind != oinfer::ValueKind::kTensor || !v.hasShape) return 0;
  uint64_t n = 1;
  for (const auto& d : v.shape) {
    if (!d.isStatic()) continue;  // symbolic: bounded by the inputs' dims at run time
    if (d.value != 0 && n > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d.value))
      return std::numeric_limits<uint64_t>::max();
    n *= static_cast<uint64_t>(d.value);
  }
  const size_t es = v.dtype == DataType::kUndefined ? 8 : oinfer::dataTypeSize(v.dtype);
  return n > std::numeric_limits<uint64_t>::max() / (es ? es : 1) ? std::numeric_limits<uint64_t>::max()
                                                                   : n * (es ? es : 1);
}

// Shape inference on a copy: false when a value would be too big to run here.
// A model the inference refuses goes on to the Session, whose passes run
// before its own inference (and which will refuse it with its own message).
bool valuesFit(const oinfer::Graph& model) {
  oinfer::Graph g = model;
  try {
    g.inferShapes();
  } catch (const oinfer::Error&) {
    return true;
  }
  const auto& ir = oinfer::detail::GraphAccess::ir(g);
  for (const auto& [name, v] : ir.valueInfo)
    if (staticBytes(v) > kMaxValueBytes) return false;
  for (const auto& v : ir.outputs)
    if (staticBytes(v) > kMaxValueBytes) return false;
  return true;
}

template <class T> T smallInt(uint8_t b) {
  if (b >= 0xfc) {
    switch (b) {
      case 0xfc: return std::numeric_limits<T>::max();
      case 0xfd: return std::numeric_limits<T>::min();
      case 0xfe: return static_cast<T>(-1);
      default: return static_cast<T>(100);
    }
  }
  return static_cast<T>(static_cast<int>(b % 16) - 4);
}

float smallFloat(uint8_t b) {
  switch (b) {
    case 0xff: return std::numeric_limits<float>::quiet_NaN();
    case 0xfe: return std::numeric_limits<float>::infinity();
    case 0xfd: return -std::numeric_limits<float>::infinity();
    case 0xfc: return 0.0f;
    default: return static_cast<float>(static_cast<int8_t>(b)) / 16.0f;
  }
}

// Fills a tensor of any dtype from the byte source.
void fill(oinfer::Tensor& t, ByteSource& src) {
  const int64_t n = t.numel();
  switch (t.dtype()) {
    case DataType::kFloat:
      for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = smallFloat(src.next());
      break;
    case DataType::kDouble:
      for (int64_t i = 0; i < n; ++i) t.data<double>()[i] = smallFloat(src.next());
      break;
    case DataType::kFloat16:
      for (int64_t i = 0; i < n; ++i) t.data<uint16_t>()[i] = oinfer::floatToHalf(smallFloat(src.next()));
      break;
    case DataType::kBFloat16:
      for (int64_t i = 0; i < n; ++i) t.data<oinfer::BFloat16>()[i] = oinfer::BFloat16(smallFloat(src.next()));
      break;
    case DataType::kInt8: for (int64_t i = 0; i < n; ++i) t.data<int8_t>()[i] = smallInt<int8_t>(src.next()); break;
    case DataType::kUInt8: for (int64_t i = 0; i < n; ++i) t.data<uint8_t>()[i] = src.next(); break;
    case DataType::kInt16: for (int64_t i = 0; i < n; ++i) t.data<int16_t>()[i] = smallInt<int16_t>(src.next()); break;
    case DataType::kUInt16: for (int64_t i = 0; i < n; ++i) t.data<uint16_t>()[i] = smallInt<uint16_t>(src.next()); break;
    case DataType::kInt32: for (int64_t i = 0; i < n; ++i) t.data<int32_t>()[i] = smallInt<int32_t>(src.next()); break;
    case DataType::kUInt32: for (int64_t i = 0; i < n; ++i) t.data<uint32_t>()[i] = smallInt<uint32_t>(src.next()); break;
    case DataType::kInt64: for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = smallInt<int64_t>(src.next()); break;
    case DataType::kUInt64: for (int64_t i = 0; i < n; ++i) t.data<uint64_t>()[i] = smallInt<uint64_t>(src.next()); break;
    case DataType::kBool: for (int64_t i = 0; i < n; ++i) t.data<bool>()[i] = src.next() & 1; break;
    case DataType::kString:
      for (int64_t i = 0; i < n; ++i) t.data<std::string>()[i] = std::string(src.next() % 4, static_cast<char>('a' + src.next() % 3));
      break;
    default: {
      // float8 / 4-bit / 2-bit / complex: raw bytes (one element per byte for the narrow types).
      auto* p = static_cast<uint8_t*>(t.data());
      for (size_t i = 0; i < t.nbytes(); ++i) p[i] = src.next();
    }
  }
}

int runOne(const uint8_t* data, size_t size) {
  // Split off the trailer.
  const uint8_t* inBytes = nullptr;
  size_t inSize = 0;
  size_t modelSize = size;
  if (size >= 8 && std::memcmp(data + size - 8, kMagic, 4) == 0) {
    uint32_t m = 0;
    std::memcpy(&m, data + size - 4, 4);  // little-endian hosts only (x86-64, arm64)
    if (m <= size - 8) {
      modelSize = size - 8 - m;
      inBytes = data + modelSize;
      inSize = m;
    }
  }
  ByteSource src(inBytes, inSize);
  const uint8_t flags = inSize ? inBytes[0] : 0;

  // No base directory: external data is refused, so the fuzzer never reads files.
  oinfer::Graph model = oinfer::Graph::loadFromBuffer(data, modelSize);
  Budget budget;
  measure(oinfer::detail::GraphAccess::ir(model), budget);
  if (budget.over() || !valuesFit(model)) {
    debug("skipped", "over the harness's size limits");
    return -1;
  }

  oinfer::SessionOptions opt;
  opt.threads = 1;
  opt.logLevel = "off";
  opt.optimizationLevel = (flags & 1) ? 0 : 1;
  opt.blockedLayout = !(flags & 2);
  oinfer::Session session(std::move(model), opt);

  // Inputs: symbolic dims 0..4 (one value per symbol), unknown ranks 1..3.
  std::map<std::string, int64_t> symbols;
  oinfer::TensorMap inputs;
  for (const auto& in : session.graph().inputs()) {
    if (in.kind != oinfer::ValueKind::kTensor) continue;  // the run says it is unsupported
    std::vector<int64_t> shape;
    if (in.hasShape) {
      for (const auto& d : in.shape) {
        if (d.isStatic()) {
          shape.push_back(d.value);
          continue;
        }
        auto it = symbols.find(d.symbol);
        if (it == symbols.end()) {
          const uint8_t b = src.next();
          it = symbols.emplace(d.symbol, (b & 7) == 0 ? 0 : 1 + b % 4).first;
        }
        shape.push_back(it->second);
      }
    } else {
      const int rank = 1 + src.next() % 3;
      for (int r = 0; r < rank; ++r) shape.push_back(1 + src.next() % 4);
    }
    int64_t n = 1;
    for (int64_t d : shape) {
      if (d < 0 || (d > 0 && n > kMaxInputElements / d)) {
        debug("skipped", "input '" + in.name + "' over " + std::to_string(kMaxInputElements) + " elements");
        return -1;
      }
      n *= d;
    }
    const DataType dt = in.dtype == DataType::kUndefined ? DataType::kFloat : in.dtype;
    oinfer::Tensor t(dt, shape);
    fill(t, src);
    inputs.emplace(in.name, std::move(t));
  }
  std::vector<oinfer::Tensor> outs = session.run(inputs);
  // Touch every output byte, so a result pointing at freed or unwritten memory shows.
  uint64_t h = 0;
  for (const auto& o : outs)
    if (o.defined() && o.dtype() != DataType::kString && o.data())
      for (size_t i = 0; i < o.nbytes(); ++i) h += static_cast<const uint8_t*>(o.data())[i];
  g_sink = h;
  debug("ran", std::to_string(outs.size()) + " outputs");
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    return runOne(data, size);
  } catch (const oinfer::Error& e) {
    debug("error", e.what());
    return 0;  // refused with a message: the expected answer to bad input
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_session: escaped exception (not an oinfer::Error): %s\n", e.what());
    std::abort();
  }
}
