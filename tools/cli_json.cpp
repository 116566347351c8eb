#include "cli_json.h"

#include <cmath>
#include <cstdio>

namespace oinfer::cli {

Json& Json::push(Json v) {
  kind_ = Kind::kArray;
  items_.push_back(std::move(v));
  return items_.back();
}

Json& Json::set(const std::string& key, Json v) {
  kind_ = Kind::kObject;
  for (auto& [k, m] : members_)
    if (k == key) return m = std::move(v);
  members_.emplace_back(key, std::move(v));
  return members_.back().second;
}

std::string jsonEscape(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string Json::dump(int indent) const {
  std::string out;
  write(out, indent, 0);
  return out;
}

void Json::write(std::string& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * d), ' ');
  };
  switch (kind_) {
    case Kind::kNull: out += "null"; break;
    case Kind::kBool: out += b_ ? "true" : "false"; break;
    case Kind::kInt: out += std::to_string(i_); break;
    case Kind::kNumber: {
      if (!std::isfinite(d_)) {
        out += "null";
        break;
      }
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.9g", d_);
      out += buf;
      break;
    }
    case Kind::kString: out += jsonEscape(s_); break;
    case Kind::kArray: {
      out += '[';
      // Arrays of scalars stay on one line (shapes, indices).
      bool flat = true;
      for (const auto& v : items_) flat &= v.kind_ != Kind::kArray && v.kind_ != Kind::kObject;
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i) out += flat ? ", " : ",";
        if (!flat) newline(depth + 1);
        items_[i].write(out, indent, depth + 1);
      }
      if (!flat && !items_.empty()) newline(depth);
      out += ']';
      break;
    }
    case Kind::kObject: {
      out += '{';
      for (size_t i = 0; i < members_.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        out += jsonEscape(members_[i].first);
        out += ": ";
        members_[i].second.write(out, indent, depth + 1);
      }
      if (!members_.empty()) newline(depth);
      out += '}';
      break;
    }
  }
}

}  // namespace oinfer::cli
