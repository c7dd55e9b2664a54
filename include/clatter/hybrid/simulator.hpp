#pragma once
/// @file
/// The event-driven (hybrid) simulator: smooth flows between events, exact event location,
/// impact maps, per-contact modes ([BP] §3, §5; [B] §5.1; spec/001_hybrid_scheme.md §5).
///
/// simulate() runs a model from an initial state to t_end: a loop over hybrid::step (step.hpp,
/// which states the pipeline of one step) that passes to a Recorder, step by step and in time
/// order, the samples at t₀ + kΔt and the sections found on the step's segment (the apex of a
/// free flight, a coordinate crossing), then the step's events. The run stops at t_end, or
/// earlier with a StopReason (max events, Zeno guard, Painlevé, failed event location,
/// non-finite state, wall clock, a recorder's cancellation) and a message saying why.

#include <string>

#include "clatter/hybrid/data.hpp"

namespace clatter::hybrid {

struct SimulationResult {
  StopReason reason{StopReason::kEndTime};
  std::string message;  ///< why the run stopped, in words
  double t{0.0};
  VecQ q{};
  VecQ qd{};
  VecA aux{};
  Modes modes{};
  long events{0};
  long impacts{0};
  long rk_steps{0};
  long dop853_steps{0};  ///< of rk_steps, those taken by DOP853 (the rest by DOPRI5)
  long rhs_evaluations{0};
  long gap_evaluations{0};  ///< evaluations of the closed-form gaps in exact flights
  long carried_phases{0};   ///< phases of sustained contact in closed form (no Runge–Kutta step)
  long force_evaluations{0};  ///< evaluations of the closed-form contact forces in those phases
  int chatter_sequences{0};
  int multipoint_fallbacks{0};  ///< kMultipoint collisions the solver could not resolve (status
                                ///< other than ok/energy gain): resolved sequentially instead
  EnergyLedger energy{};
  double max_gap_drift{0.0};       ///< max |g_N| of closed contacts at step ends [m]
  double max_velocity_drift{0.0};  ///< max |v_N| of closed contacts at step ends [m/s]
};

/// The Runge–Kutta methods a run used, from its counts: "none" (no Runge–Kutta step: closed forms
/// only), "dopri5", "dop853", or "dop853+dopri5" (Integrator::kAuto switched between phases).
[[nodiscard]] const char* integrators_used(const SimulationResult& r);

/// Runs the simulation of any model::System from `init` to options.t_end. Throws InvalidArgument
/// for bad options or an initial state of the wrong size, non-finite, or penetrating an obstacle;
/// expected stops are in the result. `recorder` (may be null) receives samples and events.
[[nodiscard]] SimulationResult simulate(const model::System& model, const InitialState& init,
                                        const SimulationOptions& options,
                                        Recorder* recorder = nullptr);

/// The result of a run stepped to `t_end` (what simulate() returns): the stop reason (kEndTime,
/// "reached t_end", if data is not stopped), the state, the counters and the closed ledger.
[[nodiscard]] SimulationResult result_of(const model::System& model, const Data& data,
                                         double t_end);

}  // namespace clatter::hybrid
