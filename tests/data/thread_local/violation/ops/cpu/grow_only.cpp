// Fixture (tests/CMakeLists.txt, ThreadLocal.*): a grow-only per-thread
// buffer, which the check must name.
#include <vector>
static thread_local std::vector<float> tlsBuffer;
