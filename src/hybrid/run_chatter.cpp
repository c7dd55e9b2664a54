// The end of a complete chatter: a bounce into a free acceleration a_N < 0 whose sequence of
// ever smaller bounces accumulates in finite time (chatter.hpp) is replaced by a plastic impact
// and sustained contact, at the predicted accumulation point or by the seeds' V_tol cut-off.

#include "clatter/hybrid/chatter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "run.hpp"

namespace clatter::hybrid {

// Decides whether the bounce `bounce` (already applied to qd_) ends a complete chatter: by the
// V_tol rule, or by the accumulation-point prediction. If so, qd_ becomes the plastic
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
  if (!(v_post < chatter_last_v_[ci])) chatter_skip_[ci] = 0;
  chatter_last_v_[ci] = v_post;
  if (chatter_skip_[ci] > 0) {
    --chatter_skip_[ci];
    return false;
  }
  if (o_.chatter == ChatterPolicy::kAccumulation && flight_ != nullptr) {
    // the quick rejection below, before the plastic trial: with the rates' floor Ω₀ (no spin)
    // and 4 M₂ (the flight's curvature bound at the bounce's velocity) for |a|, a bounce this
    // fast cannot start an expansion. An estimate, not a bound: a wrong rejection only defers
    // the test to the next, slower bounce (the fast bounces of a chaotic motion pay no trial)
    const double e = v_post / -v_pre;
    const double Omega0 = m_.rate_bound(VecQ::Zero(qd_.size()));
    const double a_max = 4.0 * flight_->gap_curvature_bound(g.c, qd_);
    if (e < 1.0 && Omega0 * 2.0 * v_post > tol::kChatterExpansionBound * a_max * (1.0 - e))
      return false;
  }
  VecQ qd_c = qd_pre;
  (void)group_impact(g, qd_c, plastic);
  const double a0 = group_free_acceleration(g, t_, q_, qd_c, modes_);
  if (!(a0 < 0.0)) return false;  // the free motion leaves the obstacle: no chatter
  if (o_.chatter == ChatterPolicy::kAccumulation) {
    // quick rejection: the free acceleration varies at the rates of the forcing and the spin,
    // b ≈ α Ω, and the expansion needs ε₁ = |b| Δt₁/α below kChatterExpansionBound (chatter.hpp)
    const double Omega = m_.rate_bound(qd_c);
    const double e = v_post / -v_pre;
    if (e < 1.0 && Omega * 2.0 * v_post / (-a0 * (1.0 - e)) > tol::kChatterExpansionBound)
      return false;
  }
  Modes modes_c = modes_;
  set_group_mode(g, qd_c, modes_c);
  if (o_.chatter == ChatterPolicy::kCutoff) {
    t_accumulation = t_;
  } else {
    // a′ and a″ of the free acceleration along the sustained-contact motion (central differences
    // along its tangent; the O(δ²) error is far below what the prediction needs)
    constrained_dynamics(m_, t_, q_, qd_c, aux_, modes_c, o_.stabilization, cd_);
    const double delta = tol::kChatterDifferenceStep;
    const VecQ dq = delta * qd_c;
    const VecQ dqd = delta * cd_.qdd;
    const double a_plus = group_free_acceleration(g, t_ + delta, q_ + dq, qd_c + dqd, modes_);
    const double a_minus = group_free_acceleration(g, t_ - delta, q_ - dq, qd_c - dqd, modes_);
    const double b = (a_plus - a_minus) / (2.0 * delta);
    const double c2 = (a_plus - 2.0 * a0 + a_minus) / (delta * delta);
    const double e = v_post / -v_pre;
    const ChatterPrediction p = predict_chatter(v_post, e, -a0, b, c2, o_.chatter_tol);
    if (!p.accept && e > 0.0 && e < 1.0 && p.error_estimate > o_.chatter_tol &&
        p.error_estimate < std::numeric_limits<double>::infinity()) {
      // the error estimate falls as e^{3k} after k more bounces: skip the tests before the
      // first that can pass (one bounce early, so that no acceptance is delayed by round-off)
      const double k = std::log(o_.chatter_tol / p.error_estimate) / (3.0 * std::log(e));
      chatter_skip_[ci] = static_cast<int>(std::clamp(std::floor(k) - 1.0, 0.0, 1000.0));
    }
    if (!p.accept || (o_.chatter_horizon > 0.0 && p.duration > o_.chatter_horizon)) return false;
    t_accumulation = t_ + p.duration;
  }
  // replace the bounce by a plastic impact
  qd_ = qd_pre;
  const ContactImpact r = group_impact(g, qd_, plastic);
  modes_ = modes_c;
  // the cut-off ends the chatter now; a predicted accumulation point is marked when reached
  chatter_end_[idx(g.c)] = o_.chatter == ChatterPolicy::kAccumulation ? t_accumulation : kNaN;
  if (g.j >= 0) chatter_end_[idx(g.j)] = kNaN;
  ++res_.chatter_sequences;
  chatter_skip_[ci] = 0;
  chatter_last_v_[ci] = 0.0;
  record_impact(g, r, EventKind::kClosure, t_accumulation);
  return true;
}

}  // namespace clatter::hybrid
