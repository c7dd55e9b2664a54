// Sustained contact in closed form (model::CarriedMotion): while every closed contact sticks and
// the model knows that motion (a body riding its obstacle), the state is the model's closed form
// and the events are the earliest roots of the force margins along it, found by the guaranteed
// first-root search of flights (integrate/root_finding.hpp):
//   λ_N,c                               → lift-off of c
//   μ_s λ_N,c − λ_T,c,  μ_s λ_N,c + λ_T,c → slip onset of c (|λ_T| reaches the friction cone)
//   t∞,c − t                            → the end of a predicted chatter of c
// Each margin φ = w·λ_c comes with the model's bounds |φ̈| ≤ M₂ and φ ≥ φ_min for every τ ≥ 0. A
// margin with φ_min above its tolerance cannot vanish (an infinite safe step): a body resting on a
// table whose downward acceleration never exceeds g costs one evaluation however long it rests.
// No Runge–Kutta step is taken; the obstacle's work is the change of E (the model's contract).
// The motion up to the event is the step's segment (samples and sections: segment.hpp).

#include "run.hpp"

namespace clatter::hybrid {

bool Run::can_carry(model::CarriedMotion::Contacts& stick) const {
  if (!o_.exact_contact || d_.shape.carried == nullptr || d_.shape.num_aux != 0) return false;
  bool any = false;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    const ContactMode mode = d_.modes[idx(c)];
    stick[idx(c)] = mode == ContactMode::kStick;
    if (mode == ContactMode::kOpen) continue;
    if (mode != ContactMode::kStick) return false;
    any = true;
  }
  return any && d_.shape.carried->carries(stick, d_.t, d_.q, d_.qd);
}

bool Run::carried_phase(const model::CarriedMotion::Contacts& stick, double until) {
  using integrate::ValueSlope;
  constexpr std::size_t kMaxFn = 4 * kMaxContacts;
  // (plain numbers, so that the array below costs nothing until an entry is set)
  struct Margin {
    Fn fn;
    int contact;
    double w_T, w_N;  ///< φ = w·λ_c
    [[nodiscard]] Vec2 w() const { return {w_T, w_N}; }
  };
  ++d_.counters.carried_phases;
  begin_segment(SegmentKind::kCarried);
  d_.segment.stick = stick;
  const double t0 = d_.t;
  const VecQ& q0 = d_.segment.q0;
  const VecQ& qd0 = d_.segment.qd0;
  const double E0 = energy();
  const double horizon = until - t0;

  // the margins of the sticking contacts, their bounds and tolerances
  // (entries [0, count) are set below: core/scratch.hpp)
  Scratch<Margin, kMaxFn> fns;
  Scratch<double, kMaxFn> M2;
  Scratch<double, kMaxFn> tol;
  Scratch<double, kMaxFn> lower;
  int count = 0;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    if (!stick[idx(c)]) continue;
    fns[idx(count++)] = {Fn::kLiftOff, c, 0.0, 1.0};
    fns[idx(count++)] = {Fn::kSlipOnset, c, -1.0, mu_s(c)};
    fns[idx(count++)] = {Fn::kSlipOnset, c, 1.0, mu_s(c)};
    if (!std::isnan(d_.chatter_end[idx(c)])) fns[idx(count++)] = {Fn::kChatterEnd, c, 0.0, 0.0};
  }
  for (int k = 0; k < count; ++k) {
    const Margin& f = fns[idx(k)];
    if (f.fn == Fn::kChatterEnd) {
      M2[idx(k)] = 0.0;
      lower[idx(k)] = -std::numeric_limits<double>::infinity();
      tol[idx(k)] = 0.0;
      continue;
    }
    d_.shape.carried->carried_force_bounds(stick, t0, q0, qd0, f.contact, f.w(), M2[idx(k)],
                                           lower[idx(k)]);
    tol[idx(k)] = d_.lambda_tol;
  }
  std::array<Vec2, kMaxContacts> lambda{};
  std::array<Vec2, kMaxContacts> rate{};
  const auto margins = [&](double tau, Scratch<ValueSlope, kMaxFn>& out) {
    d_.shape.carried->carried_forces(stick, t0, q0, qd0, tau, lambda, rate);
    ++d_.counters.force_evaluations;
    for (int k = 0; k < count; ++k) {
      const Margin& f = fns[idx(k)];
      if (f.fn == Fn::kChatterEnd) {
        out[idx(k)] = {d_.chatter_end[idx(f.contact)] - (t0 + tau), -1.0};
      } else {
        out[idx(k)] = {f.w().dot(lambda[idx(f.contact)]), f.w().dot(rate[idx(f.contact)])};
      }
    }
  };
  // a margin identically zero along the motion (μ_s = 0 and λ_T ≡ 0: the cone margins of a
  // frictionless contact riding a table) has no crossing; it is searched with a value above its
  // tolerance, which its bounds then keep for ever (an infinite safe step)
  std::array<bool, kMaxFn> idle{};
  {
    Scratch<ValueSlope, kMaxFn> v0;
    margins(0.0, v0);
    for (int k = 0; k < count; ++k)
      idle[idx(k)] = M2[idx(k)] == 0.0 && fns[idx(k)].fn != Fn::kChatterEnd &&
                     std::abs(v0[idx(k)].value) <= tol[idx(k)] && v0[idx(k)].slope == 0.0 &&
                     lower[idx(k)] >= -tol[idx(k)];
  }
  const auto searched = [&](double tau, Scratch<ValueSlope, kMaxFn>& out) {
    margins(tau, out);
    for (int k = 0; k < count; ++k)
      if (idle[idx(k)]) out[idx(k)] = {std::numeric_limits<double>::infinity(), 0.0};
  };
  const auto far = [&](int k, double /*tau*/) {
    return idle[idx(k)] || lower[idx(k)] > tol[idx(k)] ? std::numeric_limits<double>::infinity()
                                                       : 0.0;
  };
  const integrate::FirstRootOf found = integrate::first_root_curvature_bound_all<kMaxFn>(
      searched, far, count, 0.0, horizon, M2, tol);

  // the state at the end of the phase: the event, the horizon, or (a search that ran out of
  // evaluations) its last safe point, from which the next phase goes on
  const bool event = found.function >= 0 && found.root.kind != integrate::RootKind::kFailed;
  const double tau = found.root.kind == integrate::RootKind::kFailed ? found.root.t
                     : event                                         ? found.root.t
                                                                     : horizon;
  d_.segment.t1 = t0 + tau;
  d_.segment.tau = tau;
  d_.shape.carried->carry(stick, t0, q0, qd0, tau, d_.q, d_.qd);
  d_.t = event || found.root.kind == integrate::RootKind::kFailed ? t0 + tau : until;
  d_.energy.surface_work += energy() - E0;
  if (!event) return false;

  // the event, and the other margins at zero and falling at the same instant (a flat rod: both
  // ends leave together); lift-offs first: at λ_N = 0 the cone margins μ_s λ_N ∓ λ_T vanish too
  Scratch<ValueSlope, kMaxFn> at;
  margins(tau, at);
  const Modes before = d_.modes;
  std::array<bool, kMaxFn> due{};
  for (int k = 0; k < count; ++k) {
    const Margin& f = fns[idx(k)];
    const ValueSlope& v = at[idx(k)];
    due[idx(k)] = k == found.function || (f.fn != Fn::kChatterEnd && !idle[idx(k)] &&
                                          std::abs(v.value) <= tol[idx(k)] && v.slope <= 0.0);
  }
  for (const bool lift_offs : {true, false}) {
    for (int k = 0; k < count && !d_.stopped; ++k) {
      const Margin& f = fns[idx(k)];
      if (!due[idx(k)] || (f.fn == Fn::kLiftOff) != lift_offs) continue;
      if (d_.modes[idx(f.contact)] != before[idx(f.contact)]) continue;  // already changed
      dispatch(f.fn, f.contact, integrate::RootKind::kCrossing);
    }
  }
  return true;
}

}  // namespace clatter::hybrid
