// Placeholder: the resize family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_resize(Registry& r) {}

}  // namespace oinfer
