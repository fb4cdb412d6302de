// libtwinblocks_mpi.so: the MPI calls of cli/mpi_world.cc, through the MPI the program was
// built with (Debian's OpenMPI), opened by it under mpirun only.
#include "cli/detail/mpi_plugin.h"

#include <mpi.h>

#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

namespace twinblocks::cli::internal {
namespace {

void Init(int* rank, int* size) {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
}

void Finalize() { MPI_Finalize(); }

int AllMin(int value) {
  int least = 0;
  MPI_Allreduce(&value, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return least;
}

std::vector<std::string> GatherToRoot(const std::string& bytes) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Sizes first, then the bytes in one Gatherv; MPI counts are ints, so one rank's share
  // must stay under 2 GiB (plot series of long runs are the bulk: plot fewer signals).
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    throw std::runtime_error("MPI: rank " + std::to_string(rank) + " has " +
                             std::to_string(bytes.size()) +
                             " bytes of results to send, over MPI's 2 GiB limit");
  }
  int count = static_cast<int>(bytes.size());
  std::vector<int> counts(rank == 0 ? size : 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displs(counts.size());
  long long total = 0;
  for (size_t r = 0; r < counts.size(); ++r) {
    displs[r] = static_cast<int>(total);
    total += counts[r];
  }
  if (total > INT_MAX) throw std::runtime_error("MPI: the ranks' results exceed 2 GiB");
  std::string all(rank == 0 ? static_cast<size_t>(total) : 0, '\0');
  MPI_Gatherv(bytes.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (size_t r = 0; r < counts.size(); ++r) out.push_back(all.substr(displs[r], counts[r]));
  return out;
}

int BroadcastFromRoot(int value) {
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

constexpr MpiPlugin kTable{&Init, &Finalize, &AllMin, &GatherToRoot, &BroadcastFromRoot};

}  // namespace
}  // namespace twinblocks::cli::internal

extern "C" const void* twinblocks_mpi_plugin(int abi_version) {
  using twinblocks::cli::internal::MpiPlugin;
  return abi_version == MpiPlugin::kAbiVersion ? &twinblocks::cli::internal::kTable : nullptr;
}
