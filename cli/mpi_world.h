#pragma once

// The MPI job a command runs in. Under mpirun (and in a build with TWINBLOCKS_MPI) MPI is
// initialized for the object's lifetime; started any other way, the process is rank 0 of 1
// and MPI is never touched, so the plain command pays nothing for it.

#include <string>
#include <vector>

namespace twinblocks::cli {

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
  bool initialized_ = false;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace twinblocks::cli
