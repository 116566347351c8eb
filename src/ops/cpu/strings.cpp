// Placeholder: the strings family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_strings(Registry& r) {}

}  // namespace oinfer
