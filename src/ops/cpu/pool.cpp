// Placeholder: the pool family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_pool(Registry& r) {}

}  // namespace oinfer
