// Fixture for Layers.CheckRejectsForbiddenArrows: shape may not use ops.
#include "ops/registry.h"
