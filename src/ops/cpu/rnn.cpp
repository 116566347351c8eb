// Placeholder: the rnn family is being written.
#include "ops/registry.h"

namespace oinfer {

void register_rnn(Registry& r) {}

}  // namespace oinfer
