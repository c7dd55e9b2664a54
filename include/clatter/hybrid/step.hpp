#pragma once
/// @file
/// The stepping API of the event-driven engine: advance a Data (data.hpp) to its next event or to
/// a target time, whichever comes first, and look inside the interval the step covered.
///
/// One step, in the notation x⁻(t), x⁺(t) for the state before and after an event:
/// @verbatim
///   procedure step(model, data, options, until)          @pre data.t < until, not stopped
///     first call: the start — an approaching contact's impact, or the modes; returns at t₀
///     if every contact is open and the flight is exact (options.exact_flight):
///       t_e ← earliest root of the gaps g_N,i(τ) of the closed-form flight, on (t, until]
///             (guaranteed first root: root_finding.hpp)              segment: kFlight
///     else if every closed contact sticks and the model knows that motion in closed form
///             (options.exact_contact, model::CarriedMotion: a body riding its obstacle):
///       t_e ← earliest root of λ_N,i and μ_s λ_N,i ∓ λ_T,i (and t∞ − t) along it, by the same
///             guaranteed search          → lift-off, slip onset, end of a predicted chatter
///                                                                   segment: kCarried
///     else (a Runge–Kutta phase, begun here or going on from the last step):
///       one accepted DOPRI5 step; t_e ← earliest event on its interpolant (event_locator.hpp):
///         open contacts:    g_N,i                 → impact
///         closed contacts:  λ_N,i                 → lift-off
///         sliding:          s v_T,i  and k_N,i    → stick or slip reversal; Painlevé
///         sticking:         μλ_N,i − |λ_T,i|      → slip onset
///         chatter:          t∞ − t                → end of a predicted chatter
///                                                                   segment: kRungeKutta
///     segment ← the motion on [t, min(t_e, until)]; x⁻ ← x(t_e)
///     impact:  x⁺ ← the contact's law (impact_resolution.hpp); contacts touching at the same
///              instant by the TwoContactRule; then the chatter policy (chatter.hpp)
///     other:   modes change; forces re-solved until consistent (λ_N ≥ 0, |λ_T| ≤ μλ_N)
///     data.events ← the records made (options.record_events / Data::keep_events)
///     guards: max events, Zeno, wall clock, a non-finite state → data.stopped, data.reason
/// @endverbatim
/// simulate() (simulator.hpp) is a loop over step() to t_end that passes the samples and sections
/// found on each segment, and the events, to a Recorder. A Runge–Kutta phase continues over
/// steps from its own stepper; a target time `until` inside it ends the phase there (the next
/// step begins a new phase: equal to the uninterrupted run to the integration tolerance, not bit
/// for bit). A run stepped with until = t_end is simulate() bit for bit.

#include "clatter/hybrid/data.hpp"
#include "clatter/integrate/crossing_search.hpp"

namespace clatter::hybrid {

/// What a step did.
enum class StepKind : std::uint8_t {
  kEvent,    ///< it ended at an event at data.t (its records in data.events)
  kStart,    ///< the first step found no impact at the start: modes decided, data.t unchanged
  kFlow,     ///< a Runge–Kutta step inside a phase, or a phase ended without event (all
             ///< contacts cleared: the next step flies)
  kReached,  ///< it reached `until`
  kStopped,  ///< the run stopped (data.reason, data.message); data.segment is still valid
};

[[nodiscard]] const char* to_string(StepKind k);

/// Advances `data` by one step (see the file comment). Throws InvalidArgument if data is stopped,
/// or `until` is not after data.t (or is NaN).
StepKind step(const model::System& model, Data& data, const SimulationOptions& options,
              double until);

/// The state at t in the last step's segment, t ∈ [segment.t0, segment.t1]: the closed-form
/// flight or carriage, or the Runge–Kutta interpolant (4th order, DOPRI5's continuous extension).
/// A segment of kind kNone gives the state at its start.
void interpolate(const model::System& model, const Data& data, double t, VecQ& q, VecQ& qd,
                 VecA& aux);

/// Ends a run between steps (a recorder asked to stop: StopReason::kCancelled, or any reason):
/// a Runge–Kutta phase in progress ends at data.t, where the last step left it.
void stop(Data& data, StopReason reason, std::string message);

/// Every crossing of a user's section function h(t, q, q̇, a) through zero in the last step's
/// segment (t0, t1], in time order: emit(t, direction) with direction +1 (h from < 0 to ≥ 0) or
/// −1. h returns integrate::ValueSlope{h, dh/dt} (slope NaN where unknown; with the slope, a pair
/// of crossings between two samples is found below an extremum). The segment is sampled at
/// `samples` + 1 points and each sign change refined by TOMS 748 (crossing_search.hpp).
template <class H, class Emit>
void segment_crossings(const model::System& model, const Data& data, int samples, H&& h,
                       Emit&& emit);

/// The state passed to samples and sections: the modes along the segment and T + V.
[[nodiscard]] Sample sample_in_segment(const model::System& model, const Data& data, double t);

template <class H, class Emit>
void segment_crossings(const model::System& model, const Data& data, int samples, H&& h,
                       Emit&& emit) {
  const Segment& s = data.segment;
  if (s.kind == SegmentKind::kNone || !(s.t1 > s.t0)) return;
  VecQ q, qd;
  VecA a;
  const auto v = [&](double t) {
    interpolate(model, data, t, q, qd, a);
    return h(t, q, qd, a);
  };
  integrate::all_crossings_on_samples(v, emit, s.t0, s.t1, samples);
}

}  // namespace clatter::hybrid
