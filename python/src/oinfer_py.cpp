// oinfer._oinfer: the C++ side of the Python package (nanobind).
//
// Deliberately thin: the onnxruntime-shaped API (InferenceSession, NodeArg,
// providers, lazy keep_values) is Python in python/oinfer/. This module
// loads graphs, makes sessions and runs them with the GIL released.
//
// Tensors cross the boundary as (ONNX dtype code, shape, bytes):
//  - in: a 1-d uint8 view of a C-contiguous numpy array (the Python side
//    makes it; numpy's own view, so no copy), wrapped by Tensor::wrap: the
//    array is read in place. String tensors come as a list of str (copied).
//  - out: a 1-d uint8 numpy array over the Tensor's own storage (a capsule
//    keeps the storage alive; no copy), which Python views as the dtype and
//    reshapes. Strings go out as a list of str.
// Values (sequences, optionals) are ("tensor", t) / ("sequence", [t...]) /
// ("none", None) on the way in and out.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "oinfer/oinfer.h"

namespace nb = nanobind;

namespace {

// const: read-only arrays (np.frombuffer, onnx.numpy_helper) are inputs too;
// the engine never writes its inputs.
using Bytes = nb::ndarray<const uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

PyObject* gErrorType = nullptr;  // oinfer.Error (set by the Python package)

// ---- tensors in ---------------------------------------------------------------

oinfer::DataType checkedType(int code, const std::string& what) {
  if (!oinfer::isValidDataType(code) || code == 0)
    throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument,
                        what + ": data type code " + std::to_string(code) + " is not an ONNX tensor type");
  return static_cast<oinfer::DataType>(code);
}

// (code, shape, payload): payload is a Bytes view (read in place) or, for
// strings, a list of str.
oinfer::Tensor tensorIn(const nb::handle& spec, const std::string& what) {
  nb::tuple t = nb::cast<nb::tuple>(spec);
  if (t.size() != 3) throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument, what + ": malformed tensor");
  const oinfer::DataType dt = checkedType(nb::cast<int>(t[0]), what);
  std::vector<int64_t> shape = nb::cast<std::vector<int64_t>>(t[1]);
  for (int64_t d : shape)
    if (d < 0) throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument, what + ": negative dimension");
  const int64_t n = oinfer::numElements(shape);
  if (dt == oinfer::DataType::kString) {
    std::vector<std::string> values = nb::cast<std::vector<std::string>>(t[2]);
    if (static_cast<int64_t>(values.size()) != n)
      throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument, what + ": " + std::to_string(values.size()) +
                                                                   " strings for shape " + oinfer::shapeToString(shape));
    oinfer::Tensor out(dt, shape);
    std::string* p = out.data<std::string>();
    for (int64_t i = 0; i < n; ++i) p[i] = std::move(values[size_t(i)]);
    return out;
  }
  // No implicit conversion: a converted temporary would die with this frame.
  Bytes b;
  if (!nb::try_cast<Bytes>(t[2], b, /*convert=*/false))
    throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument,
                        what + ": the data is not a contiguous uint8 array on the CPU");
  const size_t want = static_cast<size_t>(n) * oinfer::dataTypeSize(dt);
  if (b.shape(0) != want)
    throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument,
                        what + ": " + std::to_string(b.shape(0)) + " bytes for " + oinfer::dataTypeName(dt) + " " +
                            oinfer::shapeToString(shape) + " (" + std::to_string(want) + " expected)");
  // Zero-copy: the caller's array, kept alive by the Python side for the run.
  static char empty[64];
  return oinfer::Tensor::wrap(dt, std::move(shape), want ? static_cast<void*>(const_cast<uint8_t*>(b.data())) : static_cast<void*>(empty));
}

oinfer::Value valueIn(const nb::handle& spec, const std::string& what) {
  nb::tuple t = nb::cast<nb::tuple>(spec);
  const std::string kind = nb::cast<std::string>(t[0]);
  if (kind == "tensor") return oinfer::Value::fromTensor(tensorIn(t[1], what));
  if (kind == "none") return oinfer::Value::none();
  if (kind == "sequence") {
    std::vector<oinfer::Tensor> seq;
    size_t i = 0;
    for (nb::handle item : nb::cast<nb::list>(t[1]))
      seq.push_back(tensorIn(item, what + " element " + std::to_string(i++)));
    return oinfer::Value::fromSequence(std::move(seq));
  }
  throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument, what + ": unknown value kind '" + kind + "'");
}

// ---- tensors out ----------------------------------------------------------------

nb::object tensorOut(oinfer::Tensor t) {
  const int code = static_cast<int>(t.dtype());
  nb::list shape;
  for (int64_t d : t.shape()) shape.append(d);
  if (t.dtype() == oinfer::DataType::kString) {
    nb::list values;
    const std::string* p = t.data<std::string>();
    for (int64_t i = 0; i < t.numel(); ++i) values.append(nb::bytes(p[i].data(), p[i].size()));
    return nb::make_tuple(code, shape, values);
  }
  const size_t bytes = t.nbytes();
  auto* keep = new oinfer::Tensor(std::move(t));
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<oinfer::Tensor*>(p); });
  static uint8_t empty[1];
  void* data = bytes ? keep->data() : empty;
  size_t dims[1] = {bytes};
  nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>> arr(data, 1, dims, owner);
  return nb::make_tuple(code, shape, nb::cast(arr));
}

nb::object valueOut(oinfer::Value v) {
  switch (v.kind) {
    case oinfer::ValueKind::kTensor: return nb::make_tuple("tensor", tensorOut(std::move(v.tensor)));
    case oinfer::ValueKind::kSequence: {
      nb::list items;
      for (auto& t : v.sequence) items.append(tensorOut(std::move(t)));
      return nb::make_tuple("sequence", items);
    }
    default: return nb::make_tuple("none", nb::none());
  }
}

// ---- graph info ------------------------------------------------------------------

// (name, kind, dtype code, dims or None): dims are ints and symbol strs.
nb::list valueInfos(const std::vector<oinfer::ValueInfo>& infos) {
  nb::list out;
  for (const auto& v : infos) {
    nb::object dims = nb::none();
    if (v.hasShape) {
      nb::list l;
      for (const auto& d : v.shape) {
        if (d.isStatic())
          l.append(d.value);
        else if (!d.symbol.empty())
          l.append(nb::str(d.symbol.c_str()));
        else
          l.append(nb::none());
      }
      dims = l;
    }
    out.append(nb::make_tuple(v.name, static_cast<int>(v.kind), static_cast<int>(v.dtype), dims));
  }
  return out;
}

oinfer::Graph loadGraph(const nb::object& model, const std::string& baseDir) {
  if (nb::isinstance<nb::bytes>(model)) {
    nb::bytes b = nb::cast<nb::bytes>(model);
    const char* data = b.c_str();
    const size_t size = b.size();
    nb::gil_scoped_release nogil;
    return oinfer::Graph::loadFromBuffer(data, size, baseDir);
  }
  const std::string path = nb::cast<std::string>(model);
  nb::gil_scoped_release nogil;
  return oinfer::Graph::loadFromONNX(path);
}

// Custom-op plugins: SessionOptions::customOpLibraries where the library has
// it (the custom-op branch adds it); without it a non-empty list is an
// Error. Decided at compile time, so this file builds either way.
template <class Options>
constexpr bool kHasCustomOpLibraries = requires(Options o) { o.customOpLibraries; };

template <class Options>
void setCustomOpLibraries(Options& o, std::vector<std::string> libraries) {
  if constexpr (kHasCustomOpLibraries<Options>) {
    o.customOpLibraries = std::move(libraries);
  } else if (!libraries.empty()) {
    throw oinfer::Error(oinfer::ErrorCode::kNotImplemented,
                        "custom_op_libraries: this build of oinfer has no custom-op plugin support (" +
                            libraries.front() + ")");
  }
}

// The session and what the Python side asks of it.
class PySession {
 public:
  PySession(const nb::object& model, const std::string& baseDir, int threads, int optimizationLevel,
            const std::string& device, int deviceIndex, std::vector<std::string> keepValues,
            const std::string& logLevel, bool profiling, std::vector<std::string> customOpLibraries) {
    oinfer::SessionOptions o;
    o.threads = threads;
    o.optimizationLevel = optimizationLevel;
    if (device == "cpu")
      o.device = oinfer::Device::kCPU;
    else if (device == "cuda")
      o.device = oinfer::Device::kCUDA;
    else
      throw oinfer::Error(oinfer::ErrorCode::kInvalidArgument,
                          "device '" + device + "': the devices are 'cpu' and 'cuda'");
    o.deviceIndex = deviceIndex;
    o.keepValues = std::move(keepValues);
    o.logLevel = logLevel;
    o.profiling = profiling;
    setCustomOpLibraries(o, std::move(customOpLibraries));
    oinfer::Graph g = loadGraph(model, baseDir);
    nb::gil_scoped_release nogil;
    session_ = std::make_unique<oinfer::Session>(std::move(g), std::move(o));
  }

  nb::list inputs() const { return valueInfos(session_->graph().inputs()); }
  nb::list outputs() const { return valueInfos(session_->graph().outputs()); }

  // Tensor-only run: feeds [(name, tensor spec)], fetch names ([] = all outputs).
  nb::list run(const nb::list& feeds, const std::vector<std::string>& fetch) {
    oinfer::TensorMap inputs;
    for (nb::handle f : feeds) {
      nb::tuple p = nb::cast<nb::tuple>(f);
      std::string name = nb::cast<std::string>(p[0]);
      inputs.emplace(name, tensorIn(p[1], "input '" + name + "'"));
    }
    std::vector<oinfer::Tensor> outs;
    {
      nb::gil_scoped_release nogil;
      outs = fetch.empty() ? session_->run(inputs) : session_->run(inputs, fetch);
    }
    // The inputs are views of the caller's arrays, which the outputs must not
    // outlive: an output still pointing into one (a value passed through
    // inside a sequence) is copied.
    nb::list result;
    for (auto& t : outs) {
      for (const auto& [name, in] : inputs) {
        const char* lo = static_cast<const char*>(in.data());
        const char* p = static_cast<const char*>(t.data());
        if (p && lo && in.nbytes() && p >= lo && p < lo + in.nbytes()) {
          t = t.clone();
          break;
        }
      }
      result.append(tensorOut(std::move(t)));
    }
    return result;
  }

  // Value run: feeds [(name, value spec)], returns value specs.
  nb::list runValues(const nb::list& feeds, const std::vector<std::string>& fetch) {
    oinfer::ValueMap inputs;
    for (nb::handle f : feeds) {
      nb::tuple p = nb::cast<nb::tuple>(f);
      std::string name = nb::cast<std::string>(p[0]);
      inputs.emplace(name, valueIn(p[1], "input '" + name + "'"));
    }
    std::vector<oinfer::Value> outs;
    {
      nb::gil_scoped_release nogil;
      outs = session_->runValues(inputs, fetch);
    }
    nb::list result;
    for (auto& v : outs) result.append(valueOut(std::move(v)));
    return result;
  }

  nb::list profile() const {
    nb::list out;
    for (const auto& p : session_->profile())
      out.append(nb::make_tuple(p.opType, p.nodeName, p.totalMs, p.calls));
    return out;
  }

  // Each step of the plan for these input shapes: (node, op, algorithm).
  nb::list plan(const std::vector<std::pair<std::string, std::vector<int64_t>>>& shapes) {
    std::map<std::string, std::vector<int64_t>> m(shapes.begin(), shapes.end());
    oinfer::PlanInfo info;
    {
      nb::gil_scoped_release nogil;
      info = session_->plan(m);
    }
    nb::list out;
    for (const auto& s : info.steps) out.append(nb::make_tuple(s.nodeName, s.opType, s.algorithm));
    return out;
  }

 private:
  std::unique_ptr<oinfer::Session> session_;
};

}  // namespace

NB_MODULE(_oinfer, m) {
  m.doc() = "oinfer's C++ core; use the oinfer package (InferenceSession), not this module";
  m.attr("__version__") = oinfer::version();
#ifdef OINFER_PY_HAVE_CUDA
  m.attr("has_cuda") = true;
#else
  m.attr("has_cuda") = false;
#endif
  m.attr("has_custom_op_libraries") = kHasCustomOpLibraries<oinfer::SessionOptions>;

  // oinfer::Error -> the package's oinfer.Error (message, .code = the ErrorCode name).
  m.def("_set_error_type", [](nb::handle type) {
    Py_XINCREF(type.ptr());
    gErrorType = type.ptr();
  });
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const oinfer::Error& e) {
      PyObject* type = gErrorType ? gErrorType : PyExc_RuntimeError;
      PyObject* exc = PyObject_CallFunction(type, "ss", e.what(), oinfer::errorCodeName(e.code()));
      if (exc) {
        PyErr_SetObject(type, exc);
        Py_DECREF(exc);
      }
    }
  });

  m.def("data_type_name", [](int code) { return std::string(oinfer::dataTypeName(static_cast<oinfer::DataType>(code))); });
  m.def("data_type_size", [](int code) { return oinfer::dataTypeSize(checkedType(code, "data_type_size")); });

  nb::class_<PySession>(m, "Session")
      .def(nb::init<const nb::object&, const std::string&, int, int, const std::string&, int, std::vector<std::string>,
                    const std::string&, bool, std::vector<std::string>>(),
           nb::arg("model"), nb::arg("base_dir"), nb::arg("threads"), nb::arg("optimization_level"),
           nb::arg("device"), nb::arg("device_index"), nb::arg("keep_values"), nb::arg("log_level"),
           nb::arg("profiling"), nb::arg("custom_op_libraries"))
      .def("inputs", &PySession::inputs)
      .def("outputs", &PySession::outputs)
      .def("run", &PySession::run)
      .def("run_values", &PySession::runValues)
      .def("profile", &PySession::profile)
      .def("plan", &PySession::plan);
}
