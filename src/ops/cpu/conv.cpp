// Placeholder: the conv family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_conv(Registry& r) {}

}  // namespace oinfer
