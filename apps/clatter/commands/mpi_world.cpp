#include "commands/mpi_world.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
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

#ifdef CLATTER_HAVE_MPI
namespace {
constexpr int kRecords = 1;  // tag of a part of a rank's stream
constexpr int kEnd = 2;      // tag of its end (empty)
}  // namespace

struct MpiWorld::Outbox {
  struct Message {
    std::string bytes;
    MPI_Request request{};
  };
  std::deque<Message> pending;
  // drops the messages rank 0 has received (in order: the oldest first)
  void settle() {
    while (!pending.empty()) {
      int done = 0;
      MPI_Test(&pending.front().request, &done, MPI_STATUS_IGNORE);
      if (done == 0) return;
      pending.pop_front();
    }
  }
};

// rank 0's receives in flight, in the order their messages were matched: taken in that order (a
// rank's records, then its end), each once complete. Matched and received without blocking
// (MPI_Improbe, MPI_Imrecv): a large message completes only as its sender calls MPI again (its
// next record), and a blocking receive would spin until then.
struct MpiWorld::Inbox {
  struct Message {
    std::string bytes;
    int tag{0};
    MPI_Request request{};
  };
  std::deque<Message> pending;
};
#else
struct MpiWorld::Outbox {};
struct MpiWorld::Inbox {};
#endif

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

MpiWorld::MpiWorld() : outbox_(std::make_unique<Outbox>()), inbox_(std::make_unique<Inbox>()) {
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
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    initialised_ = true;
    if (provided < MPI_THREAD_SERIALIZED) {
      MPI_Finalize();
      initialised_ = false;
      throw std::runtime_error(
          "this MPI library does not support MPI_THREAD_SERIALIZED (the sweep's threads send "
          "records one at a time)");
    }
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

void MpiWorld::send(std::string bytes) {
  if (size_ == 1) return;
#ifdef CLATTER_HAVE_MPI
  if (bytes.size() > static_cast<std::size_t>(2147483647))
    throw std::runtime_error("a message between ranks exceeds 2 GB");
  outbox_->settle();
  Outbox::Message& m = outbox_->pending.emplace_back();
  m.bytes = std::move(bytes);
  MPI_Isend(m.bytes.data(), static_cast<int>(m.bytes.size()), MPI_CHAR, 0, kRecords, MPI_COMM_WORLD,
            &m.request);
#else
  (void)bytes;
#endif
}

void MpiWorld::end_stream() {
  if (size_ == 1) return;
#ifdef CLATTER_HAVE_MPI
  Outbox::Message& m = outbox_->pending.emplace_back();
  MPI_Isend(nullptr, 0, MPI_CHAR, 0, kEnd, MPI_COMM_WORLD, &m.request);
  // polled with sleeps, as all(): OpenMPI's blocking waits spin
  for (outbox_->settle(); !outbox_->pending.empty(); outbox_->settle())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
#endif
}

bool MpiWorld::receive(const std::function<void(const std::string&)>& take) {
  if (size_ == 1) return true;
#ifdef CLATTER_HAVE_MPI
  std::deque<Inbox::Message>& pending = inbox_->pending;
  for (;;) {
    int flag = 0;
    MPI_Message message{};
    MPI_Status status{};
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &message, &status);
    if (flag == 0) break;
    int n = 0;
    MPI_Get_count(&status, MPI_CHAR, &n);
    Inbox::Message& m = pending.emplace_back();
    m.bytes.resize(static_cast<std::size_t>(n));
    m.tag = status.MPI_TAG;
    MPI_Imrecv(m.bytes.data(), n, MPI_CHAR, &message, &m.request);
  }
  while (!pending.empty()) {
    int done = 0;
    MPI_Test(&pending.front().request, &done, MPI_STATUS_IGNORE);
    if (done == 0) break;
    const Inbox::Message m = std::move(pending.front());
    pending.pop_front();
    if (m.tag == kEnd)
      ++ended_;
    else
      take(m.bytes);
  }
  return ended_ == size_ - 1 && pending.empty();
#else
  (void)take;
  return true;
#endif
}

void MpiWorld::receive_all(const std::function<void(const std::string&)>& take) {
  while (!receive(take)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
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
