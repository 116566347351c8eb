#include "cli_options.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace oinfer::cli {

const char* usageText() {
  return R"(usage: oinfer-run MODEL.onnx [options]

Loads an ONNX model, prints a summary (producer, ir_version, opsets, inputs and
outputs with dtype and symbolic shape), runs it once and prints each output's
shape and min / max / mean. Inputs not given with --input are deterministic
random values (fixed seed; floats uniform in [-1, 1), integers in [0, 4), bools
random); symbolic dims are 1 unless set with --shape.

inputs and outputs:
  --input NAME=FILE     read input NAME from FILE: .npy, or .pb (a serialized ONNX
                        TensorProto); repeatable
  --shape NAME=DIMS     shape of a random input, e.g. --shape pixels=1x64 (DIMS
                        'scalar' for a 0-d tensor); repeatable
  --output-dir DIR      write each output to DIR/<output name>.npy
  --top-k K             print the K largest entries of each output with their
                        flat indices (e.g. a classifier's best classes)
  --fetch NAME          also report NAME, any value of the model (an
                        intermediate tensor too), like an output: printed,
                        saved by --output-dir, in --json under "fetched". The
                        graph passes keep it as the file computes it (no
                        fusion through it); repeatable

checking against reference data:
  --test-data DIR       read inputs from DIR/input_<k>.pb (graph inputs in order),
                        compare the outputs with DIR/output_<k>.pb; exit 1 on a
                        mismatch. An element matches when
                        |actual - expected| <= atol + rtol * |expected|, NaN
                        matches NaN; dtype and shape must match
  --rtol R              relative tolerance (default 1e-3)
  --atol A              absolute tolerance (default 1e-7)

performance:
  --bench N             time N more runs and print latency min / median / p90 /
                        max in ms, after the load and first-run (plan) times
  --bench-seconds S     stop the timed runs after S seconds (at least one run);
                        with --bench N at N runs or S seconds, whichever comes
                        first; alone, as many runs as S seconds allow
  --progress            a progress line on stderr during --bench and its
                        warmup (the default when stderr is a terminal)
  --warmup K            untimed runs before the timed ones (default 1)
  --profile             per-node table: op type, node, mean ms, share of total,
                        slowest first (over the timed runs with --bench)
  --print-plan          execution order with output shapes (NCHW16c: kept in the
                        blocked layout) and each kernel's [algorithm isa], and
                        the memory plan (activation arena, its lower bound,
                        weights, kernel scratch)

debugging:
  --opt-level 0|1|2     graph passes: 0 none (the graph as the file has it),
                        1 folding only (constants, BatchNormalization into
                        Conv: the same ops, fewer nodes), 2 all of them
                        (default: fusions, blocked layout); a value that
                        differs between 1 and 2 points at a fused kernel
  --list-ops            list the ops the model uses, as the file has them (If /
                        Loop / Scan bodies included): one line per (domain, op
                        type, the opset the model imports for that domain) with
                        its node count and whether this build supports it.
                        Then exit, without a run
  --dot FILE            write the graph as planned in Graphviz form: a box per
                        step (op type, node name), edges with tensor names and
                        shapes; fused nodes orange, with the ops they replaced.
                        FILE.svg is rendered by Graphviz `dot` when it is on
                        PATH, else the text goes to FILE.dot
  --extract FILE        write to FILE the part of the model that computes
                        --extract-outputs from --extract-inputs, like
                        onnx.utils.extract_model: the nodes found walking
                        back from the outputs (stopping at the inputs and at
                        weights; a subgraph's outer-scope names count as its
                        node's inputs), the weights they read, the opset
                        imports, the model functions they call, and typed
                        inputs and outputs. External data stays referenced
                        when FILE is in the model's folder, else it is
                        inlined. Then exit, without a run
  --extract-inputs A,B  the sub-model's inputs, comma-separated (default: the
                        model's inputs that the outputs need)
  --extract-outputs C,D the sub-model's outputs, comma-separated
  --compare             run the model and compare every intermediate value
                        (each node's outputs, kept as --fetch keeps them)
                        with a reference, within --rtol / --atol: ONNX
                        Runtime through ${OINFER_PYTHON:-python3} when it
                        imports onnxruntime, onnx and numpy, else oinfer
                        itself at --opt-level 0 (OINFER_COMPARE_REFERENCE=
                        onnxruntime or oinfer forces one). Prints the first
                        node in execution order whose output diverges (op,
                        output, shape, max abs / rel error), up to 4 more,
                        and the outputs' status; exit 1 on a divergence

execution:
  --threads N           intra-op threads (default: all cores)
  --timeout S           stop any run (the first, each --bench run) that takes
                        more than S seconds: exit 2 with "run cancelled", the
                        node it stopped before named (a Loop or Scan stops
                        between iterations)
  --device cpu|cuda     device to run on (default cpu)
  --fp16                with --device cuda: compute in float16 (float32 in and out)
  --no-cuda-graphs      with --device cuda: launch kernels one by one instead of
                        replaying a captured CUDA Graph
  --memory-limit BYTES  refuse a run that would allocate more than BYTES for
                        activations, outputs, scratch and run-time tensors
                        (suffix K, M or G: KiB, MiB, GiB; 0: no limit); an
                        allocation over it fails naming the node and its byte
                        count (default: 3/4 of physical memory and of ulimit -v)
  --no-mmap             read external data into memory instead of mapping
                        each external-data file and viewing its aligned
                        tensors in place (the default)
  --allow-external-symlinks
                        follow symbolic links in external-data locations
                        that point outside the model's folder (the Hugging
                        Face cache links snapshot files to ../../blobs);
                        refused by default
  --log-level LEVEL     trace, debug, info, warn (default), error or off
  --custom-ops LIB      load custom ops from the shared library LIB, a plugin
                        exporting oinfer_register_custom_ops (see
                        examples/custom_ops); its ops then run, show in
                        --print-plan and count as supported in --list-ops;
                        repeatable

output:
  --json                print one JSON object with everything instead of text
  --help                print this text
  --version             print the version

exit status: 0 success, 1 --test-data mismatch or --compare divergence, 2 any
error (bad options, missing file, invalid model, failed run); errors are one
line on stderr.
)";
}

namespace {

int64_t parseInt(const std::string& opt, const std::string& s, int64_t lo, int64_t hi) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    throw UsageError{opt + ": '" + s + "' is not an integer"};
  if (v < lo || v > hi)
    throw UsageError{opt + ": " + s + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  return v;
}

// "4096", "512K", "64M", "2G" (binary multiples) -> bytes.
uint64_t parseBytes(const std::string& opt, const std::string& s) {
  std::string digits = s;
  uint64_t scale = 1;
  if (!s.empty()) {
    const char c = s.back();
    if (c == 'K' || c == 'k') scale = uint64_t{1} << 10;
    else if (c == 'M' || c == 'm') scale = uint64_t{1} << 20;
    else if (c == 'G' || c == 'g') scale = uint64_t{1} << 30;
    if (scale != 1) digits.pop_back();
  }
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size())
    throw UsageError{opt + ": '" + s + "' is not a byte count (digits, then optionally K, M or G)"};
  if (v > UINT64_MAX / scale) throw UsageError{opt + ": '" + s + "' is too large"};
  return v * scale;
}

double parseNonNegative(const std::string& opt, const std::string& s) {
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno != 0 || !std::isfinite(v) || v < 0)
    throw UsageError{opt + ": '" + s + "' is not a non-negative number"};
  return v;
}

std::pair<std::string, std::string> splitNameValue(const std::string& opt, const std::string& s) {
  // Split at the last '=' so that names containing '=' still work for shapes;
  // for files, a name rarely has '=' while a path might, so split at the first.
  size_t eq = opt == "--shape" ? s.rfind('=') : s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError{opt + ": expected NAME=" + (opt == "--shape" ? "DIMS" : "FILE") + ", got '" + s + "'"};
  return {s.substr(0, eq), s.substr(eq + 1)};
}

// "a,b,c" -> {a, b, c}: no empty name, none twice.
std::vector<std::string> parseNameList(const std::string& opt, const std::string& s) {
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    std::string name = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) throw UsageError{opt + ": empty name in '" + s + "' (names are separated by commas)"};
    for (const auto& n : names)
      if (n == name) throw UsageError{opt + ": '" + name + "' given twice"};
    names.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

}  // namespace

std::vector<int64_t> parseShapeSpec(const std::string& spec) {
  std::vector<int64_t> dims;
  if (spec.empty() || spec == "scalar") return dims;
  size_t start = 0;
  while (true) {
    size_t x = spec.find_first_of("x,", start);
    std::string part = spec.substr(start, x == std::string::npos ? std::string::npos : x - start);
    dims.push_back(parseInt("--shape", part, 0, int64_t(1) << 40));
    if (x == std::string::npos) break;
    start = x + 1;
  }
  return dims;
}

Options parseArgs(int argc, char** argv) {
  Options o;
  bool endOfOptions = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (endOfOptions || arg.size() < 2 || arg[0] != '-' || arg == "-") {
      if (!o.model.empty())
        throw UsageError{"more than one model given ('" + o.model + "' and '" + arg + "')"};
      o.model = arg;
      continue;
    }
    if (arg == "--") {
      endOfOptions = true;
      continue;
    }
    std::string opt = arg, inlineValue;
    bool hasInline = false;
    if (size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      opt = arg.substr(0, eq);
      inlineValue = arg.substr(eq + 1);
      hasInline = true;
    }
    auto value = [&]() -> std::string {
      if (hasInline) return inlineValue;
      if (i + 1 >= argc) throw UsageError{opt + " needs a value"};
      return argv[++i];
    };
    auto flag = [&]() {
      if (hasInline) throw UsageError{opt + " takes no value"};
    };
    if (opt == "--help" || opt == "-h") {
      flag();
      o.help = true;
    } else if (opt == "--version" || opt == "-V") {
      flag();
      o.version = true;
    } else if (opt == "--input" || opt == "-i") {
      o.inputs.push_back(splitNameValue("--input", value()));
      if (o.inputs.back().second.empty()) throw UsageError{"--input " + o.inputs.back().first + "=: no file given"};
    } else if (opt == "--shape") {
      auto [name, spec] = splitNameValue("--shape", value());
      o.shapes[name] = parseShapeSpec(spec);
    } else if (opt == "--output-dir" || opt == "-o") {
      o.outputDir = value();
      if (o.outputDir.empty()) throw UsageError{"--output-dir: empty directory name"};
    } else if (opt == "--test-data") {
      o.testDataDir = value();
      if (o.testDataDir.empty()) throw UsageError{"--test-data: empty directory name"};
    } else if (opt == "--rtol") {
      o.rtol = parseNonNegative(opt, value());
    } else if (opt == "--atol") {
      o.atol = parseNonNegative(opt, value());
    } else if (opt == "--bench") {
      o.bench = static_cast<int>(parseInt(opt, value(), 1, 1000000));
    } else if (opt == "--bench-seconds") {
      o.benchSeconds = parseNonNegative(opt, value());
      if (o.benchSeconds <= 0) throw UsageError{"--bench-seconds: must be more than 0"};
    } else if (opt == "--progress") {
      flag();
      o.progress = true;
    } else if (opt == "--fetch") {
      std::string name = value();
      if (name.empty()) throw UsageError{"--fetch: empty tensor name"};
      for (const auto& f : o.fetch)
        if (f == name) throw UsageError{"--fetch " + name + " given twice"};
      o.fetch.push_back(name);
    } else if (opt == "--no-mmap") {
      flag();
      o.mapExternalData = false;
    } else if (opt == "--allow-external-symlinks") {
      flag();
      o.allowExternalSymlinks = true;
    } else if (opt == "--opt-level") {
      const std::string v = value();
      if (v != "0" && v != "1" && v != "2")
        throw UsageError{"--opt-level: '" + v + "' is not a level (0: no graph passes, 1: folding, 2: all of them)"};
      o.optLevel = v[0] - '0';
    } else if (opt == "--dot") {
      o.dotFile = value();
      if (o.dotFile.empty()) throw UsageError{"--dot: empty file name"};
    } else if (opt == "--list-ops") {
      flag();
      o.listOps = true;
    } else if (opt == "--extract") {
      o.extractTo = value();
      if (o.extractTo.empty()) throw UsageError{"--extract: empty file name"};
    } else if (opt == "--extract-inputs") {
      o.extractInputs = parseNameList(opt, value());
    } else if (opt == "--extract-outputs") {
      o.extractOutputs = parseNameList(opt, value());
    } else if (opt == "--compare") {
      flag();
      o.compare = true;
    } else if (opt == "--warmup") {
      o.warmup = static_cast<int>(parseInt(opt, value(), 0, 1000000));
    } else if (opt == "--profile") {
      flag();
      o.profile = true;
    } else if (opt == "--print-plan") {
      flag();
      o.printPlan = true;
    } else if (opt == "--timeout") {
      o.timeout = parseNonNegative(opt, value());
      if (o.timeout <= 0) throw UsageError{"--timeout: must be more than 0"};
    } else if (opt == "--threads") {
      o.threads = static_cast<int>(parseInt(opt, value(), 0, 4096));
    } else if (opt == "--device") {
      o.device = value();
      if (o.device != "cpu" && o.device != "cuda")
        throw UsageError{"--device: '" + o.device + "' is not a device (cpu or cuda)"};
    } else if (opt == "--fp16") {
      flag();
      o.fp16 = true;
    } else if (opt == "--no-cuda-graphs") {
      flag();
      o.cudaGraphs = false;
    } else if (opt == "--memory-limit") {
      o.memoryLimit = parseBytes(opt, value());
    } else if (opt == "--log-level") {
      o.logLevel = value();
      static const char* kLevels[] = {"trace", "debug", "info", "warn", "error", "off"};
      bool ok = false;
      for (const char* l : kLevels) ok |= o.logLevel == l;
      if (!ok) throw UsageError{"--log-level: '" + o.logLevel + "' is not one of trace debug info warn error off"};
    } else if (opt == "--custom-ops") {
      std::string lib = value();
      if (lib.empty()) throw UsageError{"--custom-ops: empty library path"};
      for (const auto& l : o.customOps)
        if (l == lib) throw UsageError{"--custom-ops " + lib + " given twice"};
      o.customOps.push_back(lib);
    } else if (opt == "--json") {
      flag();
      o.json = true;
    } else if (opt == "--top-k") {
      o.topK = static_cast<int>(parseInt(opt, value(), 1, 1000000));
    } else {
      throw UsageError{"unknown option '" + opt + "' (see --help)"};
    }
  }
  if (o.extractTo.empty() && (!o.extractInputs.empty() || !o.extractOutputs.empty()))
    throw UsageError{std::string(o.extractInputs.empty() ? "--extract-outputs" : "--extract-inputs") +
                     " needs --extract FILE"};
  if (!o.extractTo.empty() && o.extractOutputs.empty())
    throw UsageError{"--extract needs --extract-outputs NAMES (the values the sub-model computes)"};
  if (!o.extractTo.empty() && o.compare) throw UsageError{"--extract and --compare cannot be combined"};
  if (!o.help && !o.version && o.model.empty()) throw UsageError{"no model given (usage: oinfer-run MODEL.onnx [options]; see --help)"};
  return o;
}

}  // namespace oinfer::cli
