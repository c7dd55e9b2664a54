#pragma once
/// @file
/// How the runs of a sweep are ordered into chains, and how the chains are shared among threads
/// and MPI ranks, so that every record is computed the same way at any thread or rank count.
///
/// A run index r ∈ [0, R) names one start of every grid point: R = (initial conditions) ×
/// (directions), r = k·n_dir + d with k the initial condition and d the direction (0: up, 1: down
/// for CarryOver::kBoth; the one direction otherwise).
///  - CarryOver::kNone: every (point, run) is a chain of its own, started from initial condition k.
///  - kUp / kDown / kBoth: along axis 0 (the first parameter), each value starts from the final
///    state of the previous one in the chain, as the seeds' sweeps do ([BP] §4.3); one chain per
///    (axis-1 index, run), the first value from initial condition k.
/// Chains are independent: chain c belongs to rank c mod ranks (static dealing; or a dealer
/// hands them out, SweepControl::next_chain), and the threads of a rank take its chains in
/// increasing c. The result of a chain depends only on c, never on who ran it.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "clatter/analysis/sweep_grid.hpp"

namespace clatter::analysis {

enum class CarryOver : std::uint8_t {
  kNone,  ///< independent runs, each from its initial condition
  kUp,    ///< along axis 0 in increasing order, each from the previous final state
  kDown,  ///< in decreasing order
  kBoth,  ///< both (two runs per initial condition: hysteresis, coexisting attractors)
};

[[nodiscard]] const char* to_string(CarryOver c);

/// One run: grid point and run index.
struct SweepTask {
  std::size_t point{0};
  int run{0};
};

class SweepPlan {
 public:
  /// @pre initials ≥ 1.
  SweepPlan(const SweepGrid& grid, CarryOver carry, int initials);

  [[nodiscard]] int runs() const { return initials_ * directions(); }
  [[nodiscard]] int directions() const { return carry_ == CarryOver::kBoth ? 2 : 1; }
  [[nodiscard]] int initial_of(int run) const { return run / directions(); }
  /// True if run r goes along axis 0 in decreasing order.
  [[nodiscard]] bool descending(int run) const;
  /// Number of (point, run) records, n₀·n₁·R.
  [[nodiscard]] std::size_t records() const {
    return grid_.size() * static_cast<std::size_t>(runs());
  }
  /// The slot of a record in a full result: point·R + run.
  [[nodiscard]] std::size_t slot(std::size_t point, int run) const {
    return point * static_cast<std::size_t>(runs()) + static_cast<std::size_t>(run);
  }
  [[nodiscard]] std::size_t chains() const;
  /// The chain that runs (point, run).
  [[nodiscard]] std::size_t chain_of(std::size_t point, int run) const;
  /// The tasks of chain c in the order they run (out is cleared first).
  void chain(std::size_t c, std::vector<SweepTask>& out) const;
  /// Whether chain c belongs to `rank` of `ranks`.
  [[nodiscard]] static bool owns(std::size_t c, int rank, int ranks) {
    return c % static_cast<std::size_t>(ranks) == static_cast<std::size_t>(rank);
  }
  [[nodiscard]] CarryOver carry() const { return carry_; }
  [[nodiscard]] const SweepGrid& grid() const { return grid_; }

 private:
  SweepGrid grid_;
  CarryOver carry_;
  int initials_;
};

}  // namespace clatter::analysis
