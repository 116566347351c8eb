// Placeholder: the reduce family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_reduce(Registry& r) {}

}  // namespace oinfer
