// The end of a complete chatter: a bounce into a free acceleration a_N < 0 whose sequence of
// ever smaller bounces accumulates in finite time (chatter.hpp) is replaced by a plastic impact
// and sustained contact, at the predicted accumulation point or by the seeds' V_tol cut-off.

#include "clatter/hybrid/chatter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "run.hpp"

namespace clatter::hybrid {

// Decides whether the bounce `bounce` (already applied to d_.qd) ends a complete chatter: by the
// V_tol rule, or by the accumulation-point prediction. If so, d_.qd becomes the plastic
// post-impact velocity and the group is closed.
bool Run::chatter_closes(const Group& g, const VecQ& qd_pre, const ContactImpact& bounce,
                         double& t_accumulation) {
  const double v_pre = bounce.v_pre.y();
  const double v_post = bounce.outcome.v_post.y();
  LawChoice plastic = m_.contact(g.c).law;
  plastic.params.e = 0.0;
  if (o_.chatter == ChatterPolicy::kCutoff && !(std::abs(v_pre) < o_.v_tol)) return false;
  // the countdown of bounces that cannot pass the test yet, taken before the plastic trial and
  // the free acceleration the test needs (reset when a bounce grows: a new sequence)
  const auto ci = idx(g.c);
  if (!(v_post < d_.chatter_last_v[ci])) d_.chatter_skip[ci] = 0;
  d_.chatter_last_v[ci] = v_post;
  if (d_.chatter_skip[ci] > 0) {
    --d_.chatter_skip[ci];
    return false;
  }
  if (o_.chatter == ChatterPolicy::kAccumulation && d_.shape.flight != nullptr) {
    // the quick rejection below, before the plastic trial: with the rates' floor Ω₀ (no spin)
    // and 4 M₂ (the flight's curvature bound at the bounce's velocity) for |a|, a bounce this
    // fast cannot start an expansion. An estimate, not a bound: a wrong rejection only defers
    // the test to the next, slower bounce (the fast bounces of a chaotic motion pay no trial)
    const double e = v_post / -v_pre;
    const double Omega0 = m_.rate_bound(VecQ::Zero(d_.qd.size()));
    const double a_max = 4.0 * d_.shape.flight->gap_curvature_bound(g.c, d_.qd);
    if (e < 1.0 && Omega0 * 2.0 * v_post > tol::kChatterExpansionBound * a_max * (1.0 - e))
      return false;
  }
  VecQ qd_c = qd_pre;
  (void)group_impact(g, qd_c, plastic);
  const double a0 = group_free_acceleration(g, d_.t, d_.q, qd_c, d_.modes);
  if (!(a0 < 0.0)) return false;  // the free motion leaves the obstacle: no chatter
  if (o_.chatter == ChatterPolicy::kAccumulation) {
    // quick rejection: the free acceleration varies at the rates of the forcing and the spin,
    // b ≈ α Ω, and the expansion needs ε₁ = |b| Δt₁/α below kChatterExpansionBound (chatter.hpp)
    const double Omega = m_.rate_bound(qd_c);
    const double e = v_post / -v_pre;
    if (e < 1.0 && Omega * 2.0 * v_post / (-a0 * (1.0 - e)) > tol::kChatterExpansionBound)
      return false;
  }
  Modes modes_c = d_.modes;
  set_group_mode(g, qd_c, modes_c);
  if (o_.chatter == ChatterPolicy::kCutoff) {
    t_accumulation = d_.t;
  } else {
    // a′ and a″ of the free acceleration along the sustained-contact motion (central differences
    // along its tangent; the O(δ²) error is far below what the prediction needs)
    constrained_dynamics(m_, d_.t, d_.q, qd_c, d_.aux, modes_c, o_.stabilization, d_.cd);
    const double delta = tol::kChatterDifferenceStep;
    const VecQ dq = delta * qd_c;
    const VecQ dqd = delta * d_.cd.qdd;
    const double a_plus = group_free_acceleration(g, d_.t + delta, d_.q + dq, qd_c + dqd, d_.modes);
    const double a_minus =
        group_free_acceleration(g, d_.t - delta, d_.q - dq, qd_c - dqd, d_.modes);
    const double b = (a_plus - a_minus) / (2.0 * delta);
    const double c2 = (a_plus - 2.0 * a0 + a_minus) / (delta * delta);
    const double e = v_post / -v_pre;
    const ChatterPrediction p = predict_chatter(v_post, e, -a0, b, c2, o_.chatter_tol);
    if (!p.accept && e > 0.0 && e < 1.0 && p.error_estimate > o_.chatter_tol &&
        p.error_estimate < std::numeric_limits<double>::infinity()) {
      // the error estimate falls as e^{3k} after k more bounces: skip the tests before the
      // first that can pass (one bounce early, so that no acceptance is delayed by round-off)
      const double k = std::log(o_.chatter_tol / p.error_estimate) / (3.0 * std::log(e));
      d_.chatter_skip[ci] = static_cast<int>(std::clamp(std::floor(k) - 1.0, 0.0, 1000.0));
    }
    if (!p.accept || (o_.chatter_horizon > 0.0 && p.duration > o_.chatter_horizon)) return false;
    t_accumulation = d_.t + p.duration;
  }
  // replace the bounce by a plastic impact
  d_.qd = qd_pre;
  const ContactImpact r = group_impact(g, d_.qd, plastic);
  d_.modes = modes_c;
  // the cut-off ends the chatter now; a predicted accumulation point is marked when reached
  d_.chatter_end[idx(g.c)] = o_.chatter == ChatterPolicy::kAccumulation ? t_accumulation : kNaN;
  if (g.j >= 0) d_.chatter_end[idx(g.j)] = kNaN;
  ++d_.counters.chatter_sequences;
  d_.chatter_skip[ci] = 0;
  d_.chatter_last_v[ci] = 0.0;
  record_impact(g, r, EventKind::kClosure, t_accumulation);
  return true;
}

}  // namespace clatter::hybrid
