// "Did you mean" hints: the closest of a set of names to one that is not
// there, by edit distance, within a third of its length (two edits at
// least). One implementation for every error message that offers one
// (Session's fetch names, Graph::closestValueName).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

namespace oinfer {

// Levenshtein distance (insertions, deletions, substitutions).
size_t editDistance(const std::string& a, const std::string& b);

// The closest of `names` (any range of std::string) to `name` within the
// limit, or "" when none is that close.
template <class Names>
std::string closestName(const std::string& name, const Names& names) {
  const size_t limit = std::max<size_t>(2, name.size() / 3);
  size_t best = limit + 1;
  std::string pick;
  for (const std::string& n : names) {
    const size_t gap = n.size() > name.size() ? n.size() - name.size() : name.size() - n.size();
    if (gap > limit) continue;
    const size_t d = editDistance(name, n);
    if (d < best) best = d, pick = n;
  }
  return pick;
}

}  // namespace oinfer
