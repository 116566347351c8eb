// A plugin built for another custom-op ABI version: it reports its version
// and, as the contract says, leaves the set alone.
#include <oinfer/custom_op.h>

extern "C" __attribute__((visibility("default"))) int oinfer_register_custom_ops(oinfer_custom_ops_call* call) {
  call->plugin_abi = OINFER_CUSTOM_OPS_ABI_VERSION + 100;
  return 1;
}
