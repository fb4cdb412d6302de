#pragma once

// The MPI job a command runs in. Under mpirun (and in a build with TWINBLOCKS_MPI) MPI is
// opened (its plugin, cli/detail/mpi_plugin.h) and initialized for the object's lifetime;
// started any other way, the process is rank 0 of 1 and MPI is never loaded, so the plain
// command pays nothing for it.

#include <string>
#include <vector>

namespace twinblocks::cli {

namespace internal {
struct MpiPlugin;
}

class MpiWorld {
 public:
  /// Initializes MPI when the process was started by mpirun.
  /// @throws UsageError when started by mpirun with more than one rank in a build without
  ///   MPI (each process would run the whole job and write the same files).
  MpiWorld();
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

  /// True on every rank when `ok` is true on every rank: after a step each rank checks on its
  /// own, so that no rank waits forever for one that gave up.
  bool AllOk(bool ok) const;

  /// On rank 0, every rank's `bytes` in rank order; on the others, nothing.
  std::vector<std::string> GatherToRoot(const std::string& bytes) const;

  /// Rank 0's `value`, on every rank.
  int BroadcastFromRoot(int value) const;

  /// Whether this build can distribute over MPI ranks.
  static bool Built();

 private:
  const internal::MpiPlugin* mpi_ = nullptr;  ///< set while MPI is initialized
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace twinblocks::cli
