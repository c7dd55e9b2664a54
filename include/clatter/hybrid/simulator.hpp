#pragma once
/// @file
/// The event-driven (hybrid) simulator: smooth flows between events, exact event location,
/// impact maps, per-contact modes ([BP] §3, §5; [B] §5.1; spec/001_hybrid_scheme.md §5).
///
/// One step of the loop, in the notation x⁻(t), x⁺(t) for the state before and after an event:
/// @verbatim
///   procedure Step(t, x, modes)
///     if every contact is open and the flight is exact (options.exact_flight):
///       t_e ← earliest root of the gaps g_N,i(τ) of the closed-form flight
///             (guaranteed first root: root_finding.hpp)
///     else if every closed contact sticks and the model knows that motion in closed form
///             (options.exact_contact, model::CarriedMotion: a body riding its obstacle):
///       t_e ← earliest root of λ_N,i and μ_s λ_N,i ∓ λ_T,i (and t∞ − t) along it, by the same
///             guaranteed search          → lift-off, slip onset, end of a predicted chatter
///     else:
///       one DOPRI5 step; t_e ← earliest event on its interpolant (event_locator.hpp) among
///         open contacts:    g_N,i                 → impact
///         closed contacts:  λ_N,i                 → lift-off
///         sliding:          s v_T,i  and k_N,i    → stick or slip reversal; Painlevé
///         sticking:         μλ_N,i − |λ_T,i|      → slip onset
///         chatter:          t∞ − t                → end of a predicted chatter
///     record samples in (t, t_e]; x⁻ ← x(t_e)
///     impact:  x⁺ ← the contact's law (impact_resolution.hpp); contacts touching at the same
///              instant by the TwoContactRule; then the chatter policy: a bounce into a free
///              acceleration a_N < 0 that ends a complete chatter (chatter.hpp) — or, kCutoff,
///              |v_N⁻| < v_tol — is replaced by a plastic impact and sustained contact
///     other:   modes change; forces re-solved until consistent (λ_N ≥ 0, |λ_T| ≤ μλ_N)
/// @endverbatim
/// The run stops at t_end, or earlier with a StopReason (max events, Zeno guard, Painlevé,
/// failed event location, non-finite state) and a message saying why.

#include <array>
#include <initializer_list>
#include <string>

#include "clatter/hybrid/energy_ledger.hpp"
#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulation_options.hpp"

namespace clatter::hybrid {

struct InitialState {
  double t{0.0};
  VecQ q{};    ///< generalized coordinates (size nq of the model)
  VecQ qd{};   ///< generalized velocities
  VecA aux{};  ///< auxiliary states (size num_aux; empty means zeros)
  /// Contacts known to be closed (a run continued from another, hybrid/schedule.hpp): they start
  /// closed and stick or slide as the forces decide; others are found from the state.
  std::array<bool, kMaxContacts> closed{};

  InitialState() = default;
  InitialState(double t0, const VecQ& q0, const VecQ& qd0, const VecA& aux0 = VecA())
      : t(t0), q(q0), qd(qd0), aux(aux0) {}
  /// From lists of numbers: InitialState{0.0, {0.0, 3.0, 0.1}, {0.0, 0.0, 1.0}}.
  InitialState(double t0, std::initializer_list<double> q0, std::initializer_list<double> qd0)
      : t(t0), q(from_list(q0)), qd(from_list(qd0)) {}

 private:
  static VecQ from_list(std::initializer_list<double> v) {
    VecQ out(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double x : v) out(i++) = x;
    return out;
  }
};

enum class StopReason : std::uint8_t {
  kEndTime,        ///< reached t_end
  kMaxEvents,      ///< max_events reached
  kZeno,           ///< zeno_events events within zeno_window
  kPainleve,       ///< a sliding contact with k_N ≤ 0
  kEventLocation,  ///< event location failed (iteration bound)
  kNonFinite,      ///< the state became NaN or infinite
  kWallTime,       ///< SimulationOptions::max_wall_time elapsed
  kCancelled,      ///< the recorder asked to stop (Recorder::keep_going)
};

[[nodiscard]] const char* to_string(StopReason r);

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

/// Runs the simulation of any model::System from `init` to options.t_end. Throws InvalidArgument
/// for bad options or an initial state of the wrong size, non-finite, or penetrating an obstacle;
/// expected stops are in the result. `recorder` (may be null) receives samples and events.
[[nodiscard]] SimulationResult simulate(const model::System& model, const InitialState& init,
                                        const SimulationOptions& options,
                                        Recorder* recorder = nullptr);

}  // namespace clatter::hybrid
