// Placeholder: the activation family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_activation(Registry& r) {}

}  // namespace oinfer
