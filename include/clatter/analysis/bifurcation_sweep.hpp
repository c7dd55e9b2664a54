#pragma once
/// @file
/// Brute-force bifurcation diagrams ([BP] §4.3, Fig. 8; [B] §5.3, Fig 5.7): for each value of the
/// surface frequency ω, simulate, discard a transient, and record the height of the centre of mass
/// at the apex section (ẏ = 0 in free flight, hybrid::Section::kApex). A run that ends in
/// sustained contact records nothing (the seeds plot 0 there).
///
/// The values are run independently (in parallel over `threads`), or, with `continuation`, each
/// from the final state of the previous one, as the seeds do (their start: the symmetric drop
/// q = (0, 7.145273725460764, 0), t = 0.705258553846737). Every run is bounded by the simulation
/// options (t_end, max_events, Zeno guard) and its stop reason is kept.

#include <vector>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/system.hpp"

namespace clatter::analysis {

struct SweepOptions {
  double omega_from{3.0};
  double omega_to{5.0};
  int n{201};                        ///< number of ω values, ≥ 1
  double transient_periods{1000.0};  ///< discarded, in forcing periods 2π/ω
  double record_periods{200.0};      ///< recorded after the transient
  bool continuation{false};          ///< start each ω from the previous final state
  int threads{2};                    ///< parallel runs (ignored with continuation)
};

struct SweepPoint {
  double omega{0.0};
  std::vector<double> apex_heights;  ///< y of the centre of mass at the apex section
  hybrid::StopReason reason{hybrid::StopReason::kEndTime};
  /// number of distinct apex heights (to 1e-6 relative; −1 if more than 64): the period of a
  /// periodic motion in impacts, a large count for chaos, 0 for sustained contact
  int distinct{0};
};

/// Throws InvalidArgument naming the field for n < 1, a non-positive or non-finite ω, negative
/// durations or threads < 1.
void validate(const SweepOptions& o);

/// Runs the sweep. `options` supplies the tolerances and guards; its t_end and section are set
/// per value. @pre the model and options are valid.
/// Any model with a forcing frequency "surface.omega" (the planar bodies) and an exact flight
/// offering the apex section.
[[nodiscard]] std::vector<SweepPoint> sweep_omega(const model::System& model,
                                                  const hybrid::InitialState& initial,
                                                  const hybrid::SimulationOptions& options,
                                                  const SweepOptions& sweep);

/// Distinct values of a sample (relative tolerance tol), −1 if more than `cap`.
[[nodiscard]] int count_distinct(std::vector<double> values, double tol = 1e-6, int cap = 64);

}  // namespace clatter::analysis
