// A shared library that is no plugin: it lacks oinfer_register_custom_ops.
extern "C" __attribute__((visibility("default"))) int some_other_function(void) { return 42; }
