#pragma once
// The MPI processes of a `clatter sweep` started with `mpirun -np N clatter sweep ...`: MPI is
// initialised only when the process was launched by an MPI launcher (its environment says so)
// and clatter was built with MPI (CLATTER_HAVE_MPI; optional at configure time). Otherwise the
// world is this one process. The other ranks stream their records to rank 0 while they run
// (send/end_stream), and rank 0, which writes the output, takes them as they come (receive):
// nothing waits for the whole sweep, and no rank holds more than what rank 0 has not yet taken.
// The callbacks that send and receive run on any worker thread, one at a time: MPI is initialised
// with MPI_THREAD_SERIALIZED, and every MPI call of this class holds one lock.
//
// Dealing: rank 0 deals the chains 0, 1, 2, ... to whichever rank asks next (its own threads
// included), so that a faster machine runs more of them and the records reach rank 0 close to
// the order it writes them in. Rank 0 answers the other ranks' asks between its values
// (receive) and, while those are long, from a thread that wakes every millisecond; on a
// communicator of its own (the record stream's order is untouched). Each other rank keeps
// chains asked for ahead, as many as cover ≈ 4 ms of its work (from the interval between its
// takes; at least its threads, at most 128), so that its threads rarely wait and, at the end,
// none holds much more work than the others.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clatter::cli {

class MpiWorld {
 public:
  /// Initialises MPI if launched by mpirun and built with MPI; else a world of one process.
  MpiWorld();
  /// Finalises MPI; while an exception is unwinding after start_work() on several ranks, aborts
  /// them all instead (the other ranks may wait in a collective). Before it (bad input, refused
  /// alike by every rank), MPI is finalised normally.
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  /// True when built with MPI support.
  [[nodiscard]] static bool available();
  /// True if launched by an MPI launcher (whether or not MPI is available).
  [[nodiscard]] static bool launched();
  /// The number of processes the launcher started (its environment; 1 if not launched).
  [[nodiscard]] static int launched_size();

  /// A rank ≠ 0: sends `bytes` to rank 0 without waiting for it to be received (kept until it
  /// is). Calls from several threads must not overlap.
  void send(std::string bytes);
  /// A rank ≠ 0: ends its stream and waits (sleeping) until rank 0 has received everything.
  void end_stream();
  /// Rank 0: passes every message that has arrived to `take`, without waiting; returns whether
  /// every other rank has ended its stream. Calls must not overlap with each other or with send.
  bool receive(const std::function<void(const std::string&)>& take);
  /// Rank 0: receives (sleeping between polls) until every other rank has ended its stream.
  void receive_all(const std::function<void(const std::string&)>& take);
  /// Rank 0: starts dealing the chains [0, chains) (a thread answers the other ranks until the
  /// end of the work, receive_all). Other ranks: their `threads` (≥ 1) workers take the chains.
  void deal(std::size_t chains, int threads);
  /// The next chain for this rank to run, or `chains` when none is left. After deal(); calls
  /// must not overlap (the sweep's workers take chains one at a time).
  std::size_t take_chain();
  /// A rank ≠ 0: waits for the answers to the chains it asked for ahead (all "none" once
  /// take_chain has returned none); before end_stream.
  void end_dealing();
  /// From here on, an exception on one rank aborts every rank.
  void start_work() { working_ = true; }
  /// Every rank's `value`, in rank order, on rank 0 (empty on the others).
  [[nodiscard]] std::vector<long long> gather(long long value) const;
  /// Sum of `value` over the ranks, known to all.
  [[nodiscard]] long long sum(long long value) const;
  /// Logical AND of `value` over the ranks, known to all. Waiting ranks sleep (they do not spin),
  /// so it is the barrier after the work.
  [[nodiscard]] bool all(bool value) const;

 private:
  int rank_{0};
  int size_{1};
  bool initialised_{false};
  bool working_{false};
  struct Outbox;  // the sends not yet received (ranks ≠ 0)
  std::unique_ptr<Outbox> outbox_;
  struct Inbox;  // the receives in flight (rank 0)
  std::unique_ptr<Inbox> inbox_;
  int ended_{0};  // rank 0: ranks whose stream has ended
  struct Dealer;  // rank 0: the next chain and the thread that answers; others: the asks ahead
  std::unique_ptr<Dealer> dealer_;
  std::mutex mpi_;  // held by every MPI call made while the sweep's threads run
  void stop_dealer();
  void answer_asks();  // rank 0, mpi_ held: answers every ask that has arrived
  // calls done() under mpi_ until it returns true, sleeping `period` between calls (OpenMPI's
  // blocking waits spin, and would take the CPU from the ranks still working)
  void poll_until(const std::function<bool()>& done, std::chrono::microseconds period);
};

}  // namespace clatter::cli
