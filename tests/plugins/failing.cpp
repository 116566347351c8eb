// A plugin whose registration fails: the message must reach the caller.
#include <oinfer/custom_op.h>

#include <stdexcept>

namespace {
void registerOps(oinfer::CustomOpSet&) { throw std::runtime_error("the plugin needs a licence file"); }
}  // namespace

OINFER_CUSTOM_OPS_PLUGIN(registerOps)
