#pragma once
// The MPI processes of a `clatter sweep` started with `mpirun -np N clatter sweep ...`: MPI is
// initialised only when the process was launched by an MPI launcher (its environment says so)
// and clatter was built with MPI (CLATTER_HAVE_MPI; optional at configure time). Otherwise the
// world is this one process. Rank 0 gathers the ranks' records and writes the output.

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

  /// Rank 0 receives every rank's string (in rank order); the others receive nothing.
  [[nodiscard]] std::vector<std::string> gather(const std::string& mine) const;
  /// From here on, an exception on one rank aborts every rank.
  void start_work() { working_ = true; }
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
};

}  // namespace clatter::cli
