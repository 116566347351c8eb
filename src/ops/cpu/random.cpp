// RandomUniform/Normal(Like), Bernoulli, Multinomial (placeholder; the family's kernels land here)
#include "ops/registry.h"

namespace oinfer {

void register_random(Registry&) {}

}  // namespace oinfer
