// Placeholder: the normalization family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_normalization(Registry& r) {}

}  // namespace oinfer
