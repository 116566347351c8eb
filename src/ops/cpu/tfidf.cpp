// TfIdfVectorizer (placeholder; the family's kernels land here)
#include "ops/registry.h"

namespace oinfer {

void register_tfidf(Registry&) {}

}  // namespace oinfer
