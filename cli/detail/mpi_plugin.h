#pragma once

// The MPI plugin's table (cli/plugins/mpi_plugin.cc, libtwinblocks_mpi.so): the few MPI calls
// `twinblocks sweep` makes across ranks, for cli/mpi_world.cc. Opened only by a process that
// mpirun started, so that no other start loads OpenMPI (common/detail/plugin_loader.h). Built
// with the program, by the same compiler: C++ types and exceptions cross the boundary;
// kAbiVersion guards against a stale plugin.

#include <string>
#include <vector>

namespace twinblocks::cli::internal {

struct MpiPlugin {
  /// Raised whenever a function's signature or meaning changes.
  static constexpr int kAbiVersion = 1;
  /// MPI_Init; then this process's rank and the number of ranks in MPI_COMM_WORLD.
  void (*init)(int* rank, int* size);
  /// MPI_Finalize.
  void (*finalize)();
  /// The least of every rank's `value`, on every rank.
  int (*all_min)(int value);
  /// On rank 0, every rank's `bytes` in rank order; on the others, nothing.
  /// @throws std::runtime_error (one line) past MPI's 2 GiB counts.
  std::vector<std::string> (*gather_to_root)(const std::string& bytes);
  /// Rank 0's `value`, on every rank.
  int (*broadcast_from_root)(int value);
};

}  // namespace twinblocks::cli::internal

/// The table for `abi_version`, or null for any other version.
extern "C" const void* twinblocks_mpi_plugin(int abi_version);
