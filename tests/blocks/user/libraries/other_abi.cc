// A block library built against another version of the block API: its entry function refuses
// this twinblocks' version and answers with its own, as TWINBLOCKS_BLOCK_LIBRARY's does.
namespace twinblocks::user {
class Registry;
}

extern "C" __attribute__((visibility("default"))) int twinblocks_register_blocks(
    int abi_version, twinblocks::user::Registry* registry) {
  constexpr int kOtherVersion = 99;
  return abi_version == kOtherVersion ? 0 : kOtherVersion;
}
