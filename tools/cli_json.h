// A minimal JSON value for oinfer-run --json: built in memory, printed once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace oinfer::cli {

class Json {
 public:
  enum class Kind { kNull, kBool, kInt, kNumber, kString, kArray, kObject };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::kBool), b_(b) {}
  Json(int v) : kind_(Kind::kInt), i_(v) {}
  Json(int64_t v) : kind_(Kind::kInt), i_(v) {}
  Json(uint64_t v) : kind_(Kind::kInt), i_(static_cast<int64_t>(v)) {}
  Json(double v) : kind_(Kind::kNumber), d_(v) {}
  Json(const char* s) : kind_(Kind::kString), s_(s) {}
  Json(std::string s) : kind_(Kind::kString), s_(std::move(s)) {}

  static Json array() {
    Json j;
    j.kind_ = Kind::kArray;
    return j;
  }
  static Json object() {
    Json j;
    j.kind_ = Kind::kObject;
    return j;
  }

  // Appends to an array.
  Json& push(Json v);
  // Sets a key of an object (insertion order is kept; a repeated key is replaced).
  Json& set(const std::string& key, Json v);
  bool empty() const { return items_.empty() && members_.empty(); }

  // Indented JSON (indent 0: one line); non-finite numbers become null.
  std::string dump(int indent = 2) const;

 private:
  void write(std::string& out, int indent, int depth) const;

  Kind kind_ = Kind::kNull;
  bool b_ = false;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

std::string jsonEscape(const std::string& s);

}  // namespace oinfer::cli
