#include "cli/mpi_world.h"

#include <cstdlib>

#include "cli/commands.h"
#include "cli/detail/mpi_plugin.h"
#include "common/detail/plugin_loader.h"

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
  const auto& mpi = blocks::internal::Plugin<internal::MpiPlugin>("mpi");
  mpi.init(&rank_, &size_);
  mpi_ = &mpi;
#else
  if (launched > 1) {
    throw UsageError("started by mpirun with " + std::to_string(launched) +
                     " processes, but this twinblocks was built without MPI "
                     "(configure with -DTWINBLOCKS_MPI=ON and an MPI installed)");
  }
#endif
}

MpiWorld::~MpiWorld() {
  if (mpi_ != nullptr) mpi_->finalize();
}

bool MpiWorld::AllOk(bool ok) const {
  return mpi_ != nullptr ? mpi_->all_min(ok ? 1 : 0) == 1 : ok;
}

std::vector<std::string> MpiWorld::GatherToRoot(const std::string& bytes) const {
  if (mpi_ != nullptr) return mpi_->gather_to_root(bytes);
  return {bytes};
}

int MpiWorld::BroadcastFromRoot(int value) const {
  return mpi_ != nullptr ? mpi_->broadcast_from_root(value) : value;
}

}  // namespace twinblocks::cli
