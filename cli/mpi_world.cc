#include "cli/mpi_world.h"

#include <climits>
#include <cstdlib>
#include <stdexcept>

#include "cli/commands.h"

#ifdef TWINBLOCKS_MPI
#include <mpi.h>
#endif

namespace twinblocks::cli {

namespace {

// The number of processes mpirun (OpenMPI, or a PMI launcher such as MPICH's or Slurm's)
// started, from the environment it gives them; 0 when not started by one.
int LauncherSize() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

}  // namespace

bool MpiWorld::Built() {
#ifdef TWINBLOCKS_MPI
  return true;
#else
  return false;
#endif
}

MpiWorld::MpiWorld() {
  const int launched = LauncherSize();
  if (launched == 0) return;
#ifdef TWINBLOCKS_MPI
  MPI_Init(nullptr, nullptr);
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  if (launched > 1) {
    throw UsageError("started by mpirun with " + std::to_string(launched) +
                     " processes, but this twinblocks was built without MPI "
                     "(configure with -DTWINBLOCKS_MPI=ON and an MPI installed)");
  }
#endif
}

MpiWorld::~MpiWorld() {
#ifdef TWINBLOCKS_MPI
  if (initialized_) MPI_Finalize();
#endif
}

bool MpiWorld::AllOk(bool ok) const {
#ifdef TWINBLOCKS_MPI
  if (initialized_) {
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
  }
#endif
  return ok;
}

std::vector<std::string> MpiWorld::GatherToRoot(const std::string& bytes) const {
#ifdef TWINBLOCKS_MPI
  if (initialized_) {
    // Sizes first, then the bytes in one Gatherv; MPI counts are ints, so one rank's share
    // must stay under 2 GiB (plot series of long runs are the bulk: plot fewer signals).
    if (bytes.size() > static_cast<size_t>(INT_MAX)) {
      throw std::runtime_error("MPI: rank " + std::to_string(rank_) + " has " +
                               std::to_string(bytes.size()) +
                               " bytes of results to send, over MPI's 2 GiB limit");
    }
    int count = static_cast<int>(bytes.size());
    std::vector<int> counts(rank_ == 0 ? size_ : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> displs(counts.size());
    long long total = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      displs[r] = static_cast<int>(total);
      total += counts[r];
    }
    if (total > INT_MAX) throw std::runtime_error("MPI: the ranks' results exceed 2 GiB");
    std::string all(rank_ == 0 ? static_cast<size_t>(total) : 0, '\0');
    MPI_Gatherv(bytes.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    for (size_t r = 0; r < counts.size(); ++r) out.push_back(all.substr(displs[r], counts[r]));
    return out;
  }
#endif
  return {bytes};
}

int MpiWorld::BroadcastFromRoot(int value) const {
#ifdef TWINBLOCKS_MPI
  if (initialized_) MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  return value;
}

}  // namespace twinblocks::cli
