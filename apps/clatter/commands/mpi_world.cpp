#include "commands/mpi_world.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <exception>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

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
constexpr int kAsk = 3;      // dealing: a rank asks for a chain (empty)
constexpr int kChain = 4;    // dealing: the answer, a chain or `chains` for none
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
#endif

struct MpiWorld::Dealer {
  std::size_t chains{0};
  int threads{1};
  // the other ranks: the chains to keep asked for ahead, from the interval between takes (an
  // average over the last ≈ 10): as many as cover kAhead of work, at least `threads`
  static constexpr double kAhead = 4e-3;  // [s]: the answers' latency (≤ 1 ms) with margin
  static constexpr std::size_t kMostAhead = 128;
  double interval{0.0};  // [s], 0 before the second take
  std::chrono::steady_clock::time_point last_take{};
  std::size_t ahead() const {
    const auto t = static_cast<std::size_t>(threads);
    if (interval <= 0.0) return 2 * t;
    return std::clamp(t + static_cast<std::size_t>(kAhead / interval), t, kMostAhead);
  }
  void took() {
    const auto now = std::chrono::steady_clock::now();
    if (last_take != std::chrono::steady_clock::time_point{}) {
      const double dt = std::chrono::duration<double>(now - last_take).count();
      interval = interval <= 0.0 ? dt : 0.9 * interval + 0.1 * dt;
    }
    last_take = now;
  }
  // rank 0: the next chain to deal, to its own threads and to the answering thread
  std::mutex next_mutex;
  std::size_t next{0};
  std::size_t take() {
    const std::lock_guard lock(next_mutex);
    return next < chains ? next++ : chains;
  }
  std::thread answering;
  std::atomic<bool> stop{false};
#ifdef CLATTER_HAVE_MPI
  MPI_Comm comm{MPI_COMM_NULL};  // dealing's own: its messages never meet the record stream's
  // the other ranks: the chains asked for and not yet answered (oldest first), and those answered
  struct Ask {
    unsigned long long chain{0};
    MPI_Request request{};
  };
  std::deque<Ask> asks;
  std::deque<std::size_t> ready;
  bool empty{false};  // the dealer has answered none
  // completes the answers that have arrived, in order
  void settle() {
    while (!asks.empty()) {
      int done = 0;
      MPI_Test(&asks.front().request, &done, MPI_STATUS_IGNORE);
      if (done == 0) return;
      const auto c = static_cast<std::size_t>(asks.front().chain);
      asks.pop_front();
      if (c >= chains)
        empty = true;
      else
        ready.push_back(c);
    }
  }
#endif
};

#ifndef CLATTER_HAVE_MPI
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

MpiWorld::MpiWorld()
    : outbox_(std::make_unique<Outbox>()),
      inbox_(std::make_unique<Inbox>()),
      dealer_(std::make_unique<Dealer>()) {
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
  stop_dealer();
#ifdef CLATTER_HAVE_MPI
  if (!initialised_) return;
  if (working_ && std::uncaught_exceptions() > 0 && size_ > 1) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
#endif
}

void MpiWorld::deal(std::size_t chains, int threads) {
  dealer_->chains = chains;
  dealer_->threads = std::max(1, threads);
  if (size_ == 1) return;
#ifdef CLATTER_HAVE_MPI
  MPI_Comm_dup(MPI_COMM_WORLD, &dealer_->comm);  // collective: every rank calls deal()
  if (rank_ != 0) return;
  // rank 0's workers answer between values (receive); this thread answers while they are in a
  // long value, waking every millisecond (a wake-up takes CPU from the workers)
  dealer_->answering = std::thread([this] {
    while (!dealer_->stop.load()) {
      {
        const std::lock_guard lock(mpi_);
        answer_asks();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
#endif
}

void MpiWorld::answer_asks() {
#ifdef CLATTER_HAVE_MPI
  Dealer& d = *dealer_;
  if (d.comm == MPI_COMM_NULL) return;
  for (;;) {
    int flag = 0;
    MPI_Status status{};
    MPI_Iprobe(MPI_ANY_SOURCE, kAsk, d.comm, &flag, &status);
    if (flag == 0) return;
    MPI_Recv(nullptr, 0, MPI_CHAR, status.MPI_SOURCE, kAsk, d.comm, MPI_STATUS_IGNORE);
    const auto c = static_cast<unsigned long long>(d.take());
    // 8 bytes to a posted receive (the asker posts it first): returns at once
    MPI_Send(&c, 1, MPI_UNSIGNED_LONG_LONG, status.MPI_SOURCE, kChain, d.comm);
  }
#endif
}

std::size_t MpiWorld::take_chain() {
  Dealer& d = *dealer_;
  if (rank_ == 0 || size_ == 1) return d.take();
#ifdef CLATTER_HAVE_MPI
  d.took();
  for (;;) {
    {
      const std::lock_guard lock(mpi_);
      d.settle();
      // keep ahead() chains asked for or answered
      while (!d.empty && d.asks.size() + d.ready.size() < d.ahead()) {
        Dealer::Ask& a = d.asks.emplace_back();  // a deque: earlier asks' buffers stay put
        MPI_Irecv(&a.chain, 1, MPI_UNSIGNED_LONG_LONG, 0, kChain, d.comm, &a.request);
        MPI_Send(nullptr, 0, MPI_CHAR, 0, kAsk, d.comm);
      }
      if (!d.ready.empty()) {
        const std::size_t c = d.ready.front();
        d.ready.pop_front();
        return c;
      }
      if (d.empty) return d.chains;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
#else
  return d.chains;
#endif
}

void MpiWorld::end_dealing() {
  if (rank_ == 0 || size_ == 1) return;
#ifdef CLATTER_HAVE_MPI
  Dealer& d = *dealer_;
  poll_until(
      [&] {
        d.settle();
        return d.asks.empty();
      },
      std::chrono::microseconds(200));
#endif
}

void MpiWorld::poll_until(const std::function<bool()>& done, std::chrono::microseconds period) {
  for (;;) {
    {
      const std::lock_guard lock(mpi_);
      if (done()) return;
    }
    std::this_thread::sleep_for(period);
  }
}

void MpiWorld::stop_dealer() {
  dealer_->stop = true;
  if (dealer_->answering.joinable()) dealer_->answering.join();
}

void MpiWorld::send(std::string bytes) {
  if (size_ == 1) return;
#ifdef CLATTER_HAVE_MPI
  const std::lock_guard lock(mpi_);
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
  {
    const std::lock_guard lock(mpi_);
    Outbox::Message& m = outbox_->pending.emplace_back();
    MPI_Isend(nullptr, 0, MPI_CHAR, 0, kEnd, MPI_COMM_WORLD, &m.request);
  }
  poll_until(
      [&] {
        outbox_->settle();
        return outbox_->pending.empty();
      },
      std::chrono::milliseconds(1));
#endif
}

bool MpiWorld::receive(const std::function<void(const std::string&)>& take) {
  if (size_ == 1) return true;
#ifdef CLATTER_HAVE_MPI
  std::vector<std::string> arrived;  // taken after the lock is released (take writes files)
  bool all_ended = false;
  {
    const std::lock_guard lock(mpi_);
    answer_asks();
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
      Inbox::Message m = std::move(pending.front());
      pending.pop_front();
      if (m.tag == kEnd)
        ++ended_;
      else
        arrived.push_back(std::move(m.bytes));
    }
    all_ended = ended_ == size_ - 1 && pending.empty();
  }
  for (const std::string& bytes : arrived) take(bytes);
  return all_ended;
#else
  (void)take;
  return true;
#endif
}

void MpiWorld::receive_all(const std::function<void(const std::string&)>& take) {
  while (!receive(take)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // every other rank has ended its stream, after its last ask was answered
  stop_dealer();
}

std::vector<long long> MpiWorld::gather(long long value) const {
  if (size_ == 1) return {value};
#ifdef CLATTER_HAVE_MPI
  std::vector<long long> out(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  MPI_Gather(&value, 1, MPI_LONG_LONG, out.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  return out;
#else
  return {value};
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
