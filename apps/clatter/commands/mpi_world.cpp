#include "commands/mpi_world.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <thread>

#ifdef CLATTER_HAVE_MPI
// the C interface only; its handle macros (MPI_COMM_WORLD, MPI_INT) are C casts
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#pragma GCC diagnostic ignored "-Wold-style-cast"
#endif

namespace clatter::cli {

bool MpiWorld::available() {
#ifdef CLATTER_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool MpiWorld::launched() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

int MpiWorld::launched_size() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* s = std::getenv(v)) return std::max(1, std::atoi(s));
  return 1;
}

MpiWorld::MpiWorld() {
#ifdef CLATTER_HAVE_MPI
  if (!launched()) return;
  int done = 0;
  MPI_Initialized(&done);
  if (done == 0) {
    // every rank on this one machine (OpenMPI's launcher says so): its shared-memory transport
    // (pml ob1) unless the user chose one; the default selection probes UCX first, which costs
    // ~0.2 s of each rank's start here (docs/performance.md)
    const char* world = std::getenv("OMPI_COMM_WORLD_SIZE");
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (world != nullptr && local != nullptr && std::string_view(world) == local)
      ::setenv("OMPI_MCA_pml", "ob1", 0);
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    initialised_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#endif
}

MpiWorld::~MpiWorld() {
#ifdef CLATTER_HAVE_MPI
  if (!initialised_) return;
  if (working_ && std::uncaught_exceptions() > 0 && size_ > 1) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
#endif
}

std::vector<std::string> MpiWorld::gather(const std::string& mine) const {
  if (size_ == 1) return {mine};
#ifdef CLATTER_HAVE_MPI
  // sizes first (as long long: a rank's share may exceed 2 GB only in chunks, refused here)
  if (mine.size() > static_cast<std::size_t>(2147483647))
    throw std::runtime_error("a rank's records exceed 2 GB: use more ranks or --hdf5 only");
  const int n = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<std::size_t>(size_), 0);
  MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
  long long total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[static_cast<std::size_t>(r)] = static_cast<int>(total);
    total += sizes[static_cast<std::size_t>(r)];
  }
  if (rank_ == 0 && total > 2147483647LL)
    throw std::runtime_error("the gathered records exceed 2 GB");
  std::string all(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR, 0,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  if (rank_ != 0) return out;
  for (int r = 0; r < size_; ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                             static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)])));
  return out;
#else
  return {mine};
#endif
}

long long MpiWorld::sum(long long value) const {
  if (size_ == 1) return value;
#ifdef CLATTER_HAVE_MPI
  long long r = 0;
  MPI_Allreduce(&value, &r, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return r;
#else
  return value;
#endif
}

bool MpiWorld::all(bool value) const {
  if (size_ == 1) return value;
#ifdef CLATTER_HAVE_MPI
  // a rank done early waits here for the others: polled with sleeps, because OpenMPI's blocking
  // collectives spin and would take the CPU from the ranks still working on a shared machine
  int v = value ? 1 : 0, r = 0;
  MPI_Request request{};
  MPI_Iallreduce(&v, &r, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done != 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return r == 1;
#else
  return value;
#endif
}

}  // namespace clatter::cli
