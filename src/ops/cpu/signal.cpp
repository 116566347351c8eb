// Placeholder: the signal family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_signal(Registry& r) {}

}  // namespace oinfer
