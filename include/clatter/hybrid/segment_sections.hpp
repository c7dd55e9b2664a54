#pragma once
/// @file
/// Poincaré sections on the last step's segment (Data::segment, step.hpp): a coordinate
/// q_i = c crossed in a direction, and the apex of a free flight. Each is found once on the
/// segment, never by running the engine again.
/// @verbatim
///   closed-form segment (flight, carriage): every crossing of q_i − c by the guaranteed search
///     with the model's bound |q̈_i| ≤ M₂ (crossing_search.hpp): a quadratic crossing twice
///     between samples is found; time to a few ulps or the flight-root tolerance
///   Runge–Kutta segment: the samples of the event search on the interpolant, with the slope
///     q̇_i (a crossing pair below an extremum is found), refined by TOMS 748
/// @endverbatim
/// Upward (+1): from q_i < c to q_i ≥ c; downward (−1): from q_i ≥ c to q_i < c; 0: both.

#include <cmath>
#include <string>

#include "clatter/hybrid/step.hpp"
#include "clatter/hybrid/tolerances.hpp"

namespace clatter::hybrid {

/// Every crossing of q_i = c on the segment (t0, t1], in time order, passed to emit(sample,
/// direction); the sample's state is the flow's at its time (q_i = c to round-off) and its modes
/// the segment's. False if the guaranteed search ran out of evaluations (the crossings found
/// before were passed). @pre 0 ≤ i < nq, c finite, direction ∈ {−1, 0, 1}, samples ≥ 1.
template <class Emit>
bool coordinate_crossings(const model::System& m, const Data& d, int i, double c, int direction,
                          int samples, Emit&& emit) {
  const Segment& s = d.segment;
  const auto sample = [&](double t, const VecQ& q, const VecQ& qd, const VecA& a) {
    Sample smp;
    smp.t = t;
    smp.q = q;
    smp.qd = qd;
    smp.aux = a;
    smp.modes = s.modes;
    smp.energy = m.kinetic_energy(t, q, qd) + m.potential_energy(t, q);
    return smp;
  };
  // along a closed form flow(τ, q, q̇) from t0 with |q̈_i| ≤ M₂
  const auto closed_form = [&](double M2, auto&& flow) {
    VecQ q, qd;
    const auto v = [&](double tau) {
      flow(tau, q, qd);
      return integrate::ValueSlope{q(i) - c, qd(i)};
    };
    const auto found = [&](double tau, int dir) {
      if (direction != 0 && dir != direction) return;
      flow(tau, q, qd);
      emit(sample(s.t0 + tau, q, qd, d.aux), dir);
    };
    // q_i is resolved to round-off of its terms, as a gap of an exact flight
    const double tol = tol::kFlightRootTol * (1.0 + std::abs(c) + std::abs(s.q0(i)));
    return integrate::all_crossings_curvature_bound(v, found, 0.0, s.tau, M2, tol) !=
           integrate::CrossingSearchStatus::kFailed;
  };
  switch (s.kind) {
    case SegmentKind::kNone:
      return true;
    case SegmentKind::kRungeKutta: {
      const auto h = [&](double, const VecQ& q, const VecQ& qd, const VecA&) {
        return integrate::ValueSlope{q(i) - c, qd(i)};
      };
      VecQ q, qd;
      VecA a;
      const auto found = [&](double t, int dir) {
        if (direction != 0 && dir != direction) return;
        interpolate(m, d, t, q, qd, a);
        emit(sample(t, q, qd, a), dir);
      };
      segment_crossings(m, d, samples, h, found);
      return true;
    }
    case SegmentKind::kFlight: {
      const model::ExactFlight& flight = *m.exact_flight();
      return closed_form(
          flight.coordinate_curvature_bound(i, s.q0, s.qd0),
          [&](double tau, VecQ& q, VecQ& qd) { flight.flight(tau, s.q0, s.qd0, q, qd); });
    }
    case SegmentKind::kCarried: {
      const model::CarriedMotion& carried = *m.carried_motion();
      return closed_form(carried.carried_coordinate_curvature_bound(s.stick, s.t0, s.q0, s.qd0, i),
                         [&](double tau, VecQ& q, VecQ& qd) {
                           carried.carry(s.stick, s.t0, s.q0, s.qd0, tau, q, qd);
                         });
    }
  }
  return true;
}

/// The apex of a free-flight segment ([B] Fig 5.7: ẏ = 0 with ÿ < 0), if the flight lasts that
/// long (before t1): its sample in `out`. A closed-form flight gives it by model::ExactFlight::
/// apex_time; a Runge–Kutta step with every contact open (a model without closed-form flight, or
/// exact_flight = false) by the first fall of the velocity of the coordinate named "y" through
/// zero on the step's interpolant (8 samples, refined by TOMS 748). A model without a coordinate
/// "y" has no apex there.
[[nodiscard]] bool flight_apex(const model::System& m, const Data& d, Sample& out);

}  // namespace clatter::hybrid
