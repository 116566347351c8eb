// oinfer-run's command line: the options, a hand-written parser and the usage text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace oinfer::cli {

struct Options {
  std::string model;
  std::vector<std::pair<std::string, std::string>> inputs;  // --input NAME=FILE, in order
  std::map<std::string, std::vector<int64_t>> shapes;       // --shape NAME=1x3x224x224
  std::string outputDir;
  std::string testDataDir;
  double rtol = 1e-3;
  double atol = 1e-7;
  int bench = 0;    // timed runs; 0 = no benchmark
  int warmup = -1;  // -1: default (1 when benchmarking)
  double benchSeconds = 0;  // --bench-seconds: time budget of the timed runs; 0 = none
  bool progress = false;    // --progress: progress lines on stderr even when it is not a terminal
  std::vector<std::string> fetch;  // --fetch NAME, in order
  int optLevel = 2;                // --opt-level: SessionOptions::optimizationLevel
  std::string dotFile;             // --dot FILE
  bool listOps = false;            // --list-ops
  std::string extractTo;           // --extract FILE: write a sub-model there, no run
  std::vector<std::string> extractInputs;   // --extract-inputs A,B (empty: the model's inputs)
  std::vector<std::string> extractOutputs;  // --extract-outputs C,D
  bool compare = false;            // --compare: every intermediate value against a reference
  bool profile = false;
  bool printPlan = false;
  int threads = 0;
  uint64_t memoryLimit = UINT64_MAX;  // --memory-limit; UINT64_MAX: not given (the library default), 0: none
  double timeout = 0;       // --timeout: SessionOptions::runTimeoutSeconds; 0 = none
  std::string device = "cpu";
  std::vector<std::string> customOps;  // --custom-ops LIB, in order: SessionOptions::customOpLibraries
  bool fp16 = false;        // SessionOptions::fp16
  bool cudaGraphs = true;   // SessionOptions::cudaGraphs
  bool mapExternalData = true;        // --no-mmap: LoadOptions::mapExternalData
  bool allowExternalSymlinks = false;  // --allow-external-symlinks: LoadOptions::allowExternalDataSymlinks
  std::string logLevel;  // empty: the library default
  bool json = false;
  int topK = 0;
  bool help = false;
  bool version = false;
};

// Parses argv; throws UsageError with a one-line message on bad options.
Options parseArgs(int argc, char** argv);

struct UsageError {
  std::string message;
};

// "1x3x224x224" -> {1,3,224,224}; "" or "scalar" -> {} (a 0-d tensor).
std::vector<int64_t> parseShapeSpec(const std::string& spec);

const char* usageText();

}  // namespace oinfer::cli
