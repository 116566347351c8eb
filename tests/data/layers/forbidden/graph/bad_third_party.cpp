// Fixture for Layers.CheckRejectsForbiddenArrows: Eigen is confined to cpu.
#include <Eigen/Core>
#include "graph/ir.h"
