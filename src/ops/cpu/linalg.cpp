// Placeholder: the linalg family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_linalg(Registry& r) {}

}  // namespace oinfer
