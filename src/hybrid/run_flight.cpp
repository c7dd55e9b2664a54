// Exact free flight (model::ExactFlight): the earliest root of all gaps of the closed-form motion
// by a guaranteed first-root search (integrate/root_finding.hpp). The flight up to the root is the
// step's segment (samples and sections are found on it by the caller: segment.hpp).

#include "run.hpp"

namespace clatter::hybrid {

bool Run::can_fly() const {
  bool fly = o_.exact_flight && d_.shape.flight != nullptr && d_.shape.num_aux == 0 && all_open();
  for (int c = 0; c < d_.shape.num_contacts && fly; ++c) fly = !d_.released[idx(c)];
  return fly;
}

bool Run::flight_phase(double until) {
  using integrate::ValueSlope;
  begin_segment(SegmentKind::kNone);
  const double t0 = d_.t;
  const VecQ& q0 = d_.segment.q0;
  const VecQ& qd0 = d_.segment.qd0;
  const double horizon = until - t0;
  // the earliest root of all gaps, evaluated together (one pose per evaluation)
  // (entries [0, n) are set below: core/scratch.hpp)
  Scratch<double, kMaxContacts> M2;
  Scratch<double, kMaxContacts> tol;
  Scratch<double, kMaxContacts> M3;
  // a gap is resolved to round-off of its terms, and no better than its rate times the resolution
  // of t (at t = 2000 s a double resolves 2.3e-13 s): below that, a step past the root looks like
  // a violated curvature bound and costs a bracketing refinement
  const double t_resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::abs(t0);
  const double v_scale = t_resolution > 0.0 ? m_.velocity_scale(t0, q0, qd0) : 0.0;
  // the distinct gaps: a contact whose gap coincides with an earlier one's (a levelled rod's two
  // ends) is not searched twice; the earlier one's root is its root, and the earlier contact is
  // the one that would have been reported anyway (ties go to the lowest index)
  Scratch<int, kMaxContacts> searched;
  int n = 0;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    bool duplicate = false;
    for (int k = 0; k < n && !duplicate; ++k)
      duplicate = d_.shape.flight->gaps_coincide(searched[idx(k)], c, q0, qd0);
    if (duplicate) continue;
    searched[idx(n)] = c;
    M2[idx(n)] = d_.shape.flight->gap_curvature_bound(c, qd0);
    M3[idx(n)] = d_.shape.flight->gap_jerk_bound(c, qd0);
    tol[idx(n)] = tol::kFlightRootTol * (1.0 + m_.gap_scale(c, t0, q0)) + t_resolution * v_scale;
    ++n;
  }
  const auto f = [&](double tau, model::GapValues& out) {
    d_.shape.flight->flight_gaps(t0, q0, qd0, tau, out);
    // the distinct ones in place: searched[k] ≥ k, so out[searched[k]] is still unread at step k
    if (n < d_.shape.num_contacts)
      for (int k = 0; k < n; ++k) out[idx(k)] = out[idx(searched[idx(k)])];
  };
  // a far step found at τ₀ proves the gap positive up to τ₀ + s: from any later τ before that end
  // the step to it is safe too, and the model is not asked again (for the built-in models'
  // parabolas, the same step in exact arithmetic)
  Scratch<double, kMaxContacts> far_end;
  far_end.fill(0.0, static_cast<std::size_t>(n));
  const auto far = [&](int k, double tau) {
    double& end = far_end[idx(k)];
    if (tau < end) return end - tau;
    const double s = d_.shape.flight->far_step(searched[idx(k)], q0, qd0, tau);
    end = tau + s;
    return s;
  };
  const integrate::FirstRootOf found = integrate::first_root_curvature_bound_all<kMaxContacts>(
      f, far, n, 0.0, horizon, M2, tol, 800, &M3);
  d_.counters.gap_evaluations += found.root.evaluations;
  if (found.root.kind == integrate::RootKind::kFailed) {
    stop(StopReason::kEventLocation,
         "event location did not converge in the flight from t = " + format_number(t0));
    return false;
  }
  const int best = found.function < 0 ? -1 : searched[idx(found.function)];
  const integrate::FirstRoot best_root = found.root;
  const double tau = best < 0 ? horizon : best_root.t;
  d_.segment.kind = SegmentKind::kFlight;
  d_.segment.t1 = t0 + tau;
  d_.segment.tau = tau;
  d_.shape.flight->flight(tau, q0, qd0, d_.q, d_.qd);
  d_.t = best < 0 ? until : t0 + tau;
  if (best < 0) return false;
  if (best_root.kind == integrate::RootKind::kGraze)
    handle_graze(best);
  else
    handle_impact(best);
  return true;
}

}  // namespace clatter::hybrid
