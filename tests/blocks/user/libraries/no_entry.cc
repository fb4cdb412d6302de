// A shared library that is no block library: it does not export twinblocks_register_blocks.
extern "C" __attribute__((visibility("default"))) int twinblocks_something_else() { return 1; }
