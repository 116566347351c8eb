// The strings family: StringNormalizer, StringSplit, StringConcat,
// RegexFullMatch. Case handling is ASCII-only, which is what the onnx
// reference does for the "en_US" locale on ASCII text.
#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_set>
#include <vector>

#include <re2/re2.h>

#include "ops/cpu/broadcast.h"
#include "ops/registry.h"
#include "shape/strings.h"

namespace oinfer {

void register_strings_misc(Registry& r);

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::unique_ptr<Kernel> makeStringNormalizer(const KernelInit& init) {
  const std::string action = init.node.attrString("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    init.fail("case_change_action must be NONE, LOWER or UPPER, got '" + action + "'");
  const bool caseSensitive = init.node.attrInt("is_case_sensitive", 0) != 0;
  std::unordered_set<std::string> stop;
  for (const auto& w : init.node.attrStrings("stopwords")) stop.insert(caseSensitive ? w : lower(w));
  return makeKernel([action, caseSensitive, stop](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.rank() != 1 && !(x.rank() == 2 && x.dim(0) == 1))
      ctx.fail("input 0 must be [C] or [1, C], got " + shapeToString(x.shape()));
    const std::string* in = x.data<std::string>();
    std::vector<std::string> kept;
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (!stop.empty() && stop.count(caseSensitive ? in[i] : lower(in[i]))) continue;
      kept.push_back(action == "LOWER" ? lower(in[i]) : action == "UPPER" ? upper(in[i]) : in[i]);
    }
    // Everything filtered out still yields one empty string, as the spec says.
    if (kept.empty() && x.numel() > 0) kept.emplace_back();
    std::vector<int64_t> shape = x.shape();
    shape.back() = static_cast<int64_t>(kept.size());
    Tensor& y = ctx.allocateOutput(0, shape, DataType::kString);
    std::copy(kept.begin(), kept.end(), y.data<std::string>());
  });
}

// Python's str.split(sep, maxsplit): sep empty means runs of whitespace.
std::vector<std::string> splitOne(const std::string& s, const std::string& sep, int64_t maxsplit) {
  std::vector<std::string> parts;
  if (sep.empty()) {
    size_t i = 0;
    const size_t n = s.size();
    auto ws = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (i < n) {
      while (i < n && ws(s[i])) ++i;
      if (i >= n) break;
      if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
        size_t e = n;
        while (e > i && ws(s[e - 1])) --e;
        parts.push_back(s.substr(i, e - i));
        break;
      }
      size_t j = i;
      while (j < n && !ws(s[j])) ++j;
      parts.push_back(s.substr(i, j - i));
      i = j;
    }
    return parts;
  }
  size_t pos = 0;
  while (true) {
    if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) break;
    const size_t f = s.find(sep, pos);
    if (f == std::string::npos) break;
    parts.push_back(s.substr(pos, f - pos));
    pos = f + sep.size();
  }
  parts.push_back(s.substr(pos));
  return parts;
}

std::unique_ptr<Kernel> makeStringSplit(const KernelInit& init) {
  const std::string sep = init.node.attrString("delimiter", "");
  const int64_t maxsplit = init.node.hasAttr("maxsplit") ? init.node.attrInt("maxsplit", -1) : -1;
  return makeKernel([sep, maxsplit](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const std::string* in = x.data<std::string>();
    std::vector<std::vector<std::string>> all(static_cast<size_t>(x.numel()));
    size_t width = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      all[i] = splitOne(in[i], sep, maxsplit);
      width = std::max(width, all[i].size());
    }
    std::vector<int64_t> shape = x.shape();
    shape.push_back(static_cast<int64_t>(width));
    Tensor& y = ctx.allocateOutput(0, shape, DataType::kString);
    std::string* out = y.data<std::string>();
    for (size_t i = 0; i < all.size(); ++i)
      for (size_t j = 0; j < width; ++j) out[i * width + j] = j < all[i].size() ? all[i][j] : std::string();
    if (ctx.hasOutput(1)) {
      int64_t* z = ctx.output(1).data<int64_t>();
      for (size_t i = 0; i < all.size(); ++i) z[i] = static_cast<int64_t>(all[i].size());
    }
  });
}

std::unique_ptr<Kernel> makeStringConcat(const KernelInit&) {
  return makeKernel([](KernelContext& ctx) {
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    Tensor& y = ctx.output(0);
    cpu::Broadcaster<2> bc;
    if (!bc.init({&a.shape(), &b.shape()}, y.shape()))
      ctx.fail("input 0 " + shapeToString(a.shape()) + " and input 1 " + shapeToString(b.shape()) +
               " do not broadcast to " + shapeToString(y.shape()));
    const std::string *pa = a.data<std::string>(), *pb = b.data<std::string>();
    std::string* py = y.data<std::string>();
    const auto& sa = a.shape();
    const auto& sb = b.shape();
    const auto& so = y.shape();
    // Plain index arithmetic: string tensors are small and this keeps the
    // kernel independent of the row-walker's callback shape.
    const size_t r = so.size();
    std::vector<int64_t> idx(r, 0);
    for (int64_t i = 0; i < y.numel(); ++i) {
      int64_t ia = 0, ib = 0;
      for (size_t k = 0; k < r; ++k) {
        if (k + sa.size() >= r) { const size_t d = k + sa.size() - r; ia = ia * sa[d] + (sa[d] == 1 ? 0 : idx[k]); }
        if (k + sb.size() >= r) { const size_t d = k + sb.size() - r; ib = ib * sb[d] + (sb[d] == 1 ? 0 : idx[k]); }
      }
      py[i] = pa[ia] + pb[ib];
      for (size_t k = r; k-- > 0;) {
        if (++idx[k] < so[k]) break;
        idx[k] = 0;
      }
    }
  });
}

// RE2 (the syntax the ONNX spec names): matching is linear in the input and
// never recurses per character, so a 100 kB string or a pattern such as
// (a*)*b costs microseconds, not minutes or the stack. The compiled program's
// memory is capped (a pattern that needs more is an error naming it), and one
// compiled RE2 is shared by every run (its matching is thread-safe).
std::unique_ptr<Kernel> makeRegexFullMatch(const KernelInit& init) {
  const std::string pattern = init.node.attrString("pattern", "");
  RE2::Options opts;
  opts.set_log_errors(false);
  opts.set_max_mem(int64_t(64) << 20);
  auto re = std::make_shared<const RE2>(pattern, opts);
  if (!re->ok()) {
    std::string shown = pattern.size() > 200 ? pattern.substr(0, 200) + "..." : pattern;
    init.fail("invalid regex pattern '" + shown + "' (RE2 syntax): " + re->error());
  }
  return makeKernel([re](KernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const std::string* in = x.data<std::string>();
    bool* out = ctx.output(0).data<bool>();
    for (int64_t i = 0; i < x.numel(); ++i) out[i] = RE2::FullMatch(in[i], *re);
  });
}

}  // namespace

void register_strings(Registry& r) {
  const std::vector<DataType> str{DataType::kString};
  addVersions(r, "StringNormalizer", {10}, shape::inferStringNormalizer, makeStringNormalizer, str);
  addVersions(r, "StringSplit", {20}, shape::inferStringSplit, makeStringSplit, str);
  addVersions(r, "StringConcat", {20}, shape::inferStringConcat, makeStringConcat, str);
  addVersions(r, "RegexFullMatch", {20}, shape::inferRegexFullMatch, makeRegexFullMatch, str);
  register_strings_misc(r);
}

}  // namespace oinfer
