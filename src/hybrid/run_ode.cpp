// The Runge–Kutta phase (any contact closed, or no exact flight): DOPRI5 with dense output, the
// event functions of the current modes located on the interpolant (integrate/event_locator.hpp),
// the dispatch of the located event, and the coordinate-crossing section on the interpolant.
//
// Runge–Kutta state, n = nq, m = num_aux:
//   x = (q [n], q̇ [n], a [m], W_surface, −L_friction… as ∫ −λ·v, W_applied)
// in a fixed-size array of N ≥ 2n + m + 3 entries (the unused tail stays 0); N = 9 covers every
// model with n ≤ 3 and no auxiliary state, N = 2 kMaxDof + kMaxAux + 3 the rest.

#include "clatter/integrate/crossing_search.hpp"
#include "clatter/integrate/dense_stepper.hpp"
#include "clatter/integrate/event_locator.hpp"
#include "run.hpp"

namespace clatter::hybrid {

namespace {

constexpr std::size_t kSmall = 9;
constexpr std::size_t kLarge = 2 * model::kMaxDof + model::kMaxAux + 3;
constexpr std::size_t kMaxFn = 4 * kMaxContacts;

}  // namespace

void Run::ode_phase() {
  if (static_cast<std::size_t>(2 * nq_ + na_ + 3) <= kSmall)
    ode_phase_n<kSmall>();
  else
    ode_phase_n<kLarge>();
}

template <std::size_t N>
void Run::ode_phase_n() {
  using integrate::RootKind;
  using integrate::ValueSlope;
  using State = std::array<double, N>;
  struct FnSpec {
    Fn fn{Fn::kGap};
    int contact{0};
  };
  const int n = nq_;
  const int m = na_;
  const std::size_t i_work = static_cast<std::size_t>(2 * n + m);  // W_surface, friction, applied
  const auto unpack = [n, m](const State& x, VecQ& q, VecQ& qd, VecA& a) {
    q = Eigen::Map<const VecQ>(x.data(), n);
    qd = Eigen::Map<const VecQ>(x.data() + n, n);
    a = Eigen::Map<const VecA>(x.data() + 2 * n, m);
  };
  const auto pack = [n, m](const VecQ& q, const VecQ& qd, const VecA& a) {
    State x{};
    Eigen::Map<VecQ>(x.data(), n) = q;
    Eigen::Map<VecQ>(x.data() + n, n) = qd;
    Eigen::Map<VecA>(x.data() + 2 * n, m) = a;
    return x;
  };

  // event functions of the current modes
  std::array<FnSpec, kMaxFn> fns{};
  int count = 0;
  for (int c = 0; c < nc_; ++c) {
    const ContactMode mode = modes_[idx(c)];
    if (!is_closed(mode)) {
      fns[idx(count++)] = {Fn::kGap, c};
      continue;
    }
    fns[idx(count++)] = {Fn::kLiftOff, c};
    if (is_sliding(mode)) {
      fns[idx(count++)] = {Fn::kSlideEnd, c};
      fns[idx(count++)] = {Fn::kPainleve, c};
    } else {
      fns[idx(count++)] = {Fn::kSlipOnset, c};
    }
    if (!std::isnan(chatter_end_[idx(c)])) fns[idx(count++)] = {Fn::kChatterEnd, c};
  }
  const Modes modes = modes_;
  VecQ q, qd;
  VecA a;
  ConstrainedDynamics& cd = cd_;
  const auto rhs = [&](const State& x, State& dx, double t) {
    ++res_.rhs_evaluations;
    unpack(x, q, qd, a);
    constrained_dynamics(m_, t, q, qd, a, modes, o_.stabilization, cd);
    double p_surface = 0.0;
    double p_friction = 0.0;
    for (int c = 0; c < nc_; ++c) {
      if (!is_closed(modes[idx(c)])) continue;
      const Vec2& lam = cd.lambda[idx(c)];
      p_surface += lam.dot(cd.kin(c).w);
      p_friction -= lam.dot(cd.kin(c).v);
    }
    dx = State{};
    Eigen::Map<VecQ>(dx.data(), n) = qd;
    Eigen::Map<VecQ>(dx.data() + n, n) = cd.qdd;
    if (m > 0) Eigen::Map<VecA>(dx.data() + 2 * n, m) = cd.eval.aux_rate;
    dx[i_work] = p_surface;
    dx[i_work + 1] = p_friction;
    dx[i_work + 2] = cd.eval.power_applied;
  };
  const auto values = [&](double t, const State& x, std::array<ValueSlope, kMaxFn>& out) {
    unpack(x, q, qd, a);
    constrained_dynamics(m_, t, q, qd, a, modes, o_.stabilization, cd);
    for (int k = 0; k < count; ++k) {
      const FnSpec& f = fns[idx(k)];
      const auto ci = idx(f.contact);
      switch (f.fn) {
        case Fn::kGap:
          out[idx(k)] = {cd.kin(f.contact).g_N, cd.kin(f.contact).v.y()};
          break;
        case Fn::kLiftOff:
          out[idx(k)] = {cd.lambda[ci].y(), kNaN};
          break;
        case Fn::kSlideEnd: {
          const double s = slip_sign(modes[ci]);
          out[idx(k)] = {s * cd.kin(f.contact).v.x(), s * cd.accel[ci].x()};
          break;
        }
        case Fn::kSlipOnset:
          out[idx(k)] = {mu_s(f.contact) * cd.lambda[ci].y() - std::abs(cd.lambda[ci].x()), kNaN};
          break;
        case Fn::kPainleve:
          out[idx(k)] = {cd.k_N[ci], kNaN};
          break;
        case Fn::kChatterEnd:
          out[idx(k)] = {chatter_end_[ci] - t, -1.0};
          break;
      }
    }
  };
  integrate::DenseStepper<N> stepper(o_.abs_tol, o_.rel_tol, o_.max_dt);
  struct Source {
    const integrate::DenseStepper<N>* stepper;
    const decltype(values)* evaluate;
    void all(double t, std::array<ValueSlope, kMaxFn>& out) const {
      State x;
      stepper->state_at(t, x);
      (*evaluate)(t, x, out);
    }
    ValueSlope one(double t, int j) const {
      std::array<ValueSlope, kMaxFn> out;
      all(t, out);
      return out[idx(j)];
    }
  } source{&stepper, &values};

  // tolerances and start flags
  std::array<double, kMaxFn> tol{};
  std::array<integrate::Start, kMaxFn> start{};
  {
    const State x0 = pack(q_, qd_, aux_);
    std::array<ValueSlope, kMaxFn> v0{};
    values(t_, x0, v0);
    const double accel_tol = lambda_tol_ / m_.mass_scale();
    // a gap is known no better than its rate times the resolution of t (as in the exact flight):
    // at t ≈ 5e5 s the surface's phase ωt carries ≈ 5e-10 m of round-off into h(t), far above
    // the gap tolerance, and a released contact "fell back" on that noise at once, re-closed and
    // lifted off again at the same instant until the Zeno guard stopped the run
    const double t_resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::abs(t_);
    const double gap_noise =
        t_resolution > 0.0 ? t_resolution * m_.velocity_scale(t_, q_, qd_) : 0.0;
    for (int k = 0; k < count; ++k) {
      const FnSpec& f = fns[idx(k)];
      switch (f.fn) {
        case Fn::kGap:
          tol[idx(k)] = gap_tol(f.contact, q_) + gap_noise;
          break;
        case Fn::kLiftOff:
        case Fn::kSlipOnset:
          tol[idx(k)] = lambda_tol_;
          break;
        case Fn::kSlideEnd:
          tol[idx(k)] = velocity_tol();
          break;
        case Fn::kPainleve:
        case Fn::kChatterEnd:
          tol[idx(k)] = 0.0;
          break;
      }
      // functions without a slope that start at zero (λ_N, the cone margin) are armed once
      // clearly positive; the gap and s·v_T carry their slope and start normally
      // s·v_T with zero value and slope (the instant of a slip onset, where the slip grows as
      // (t − t₀)²) is armed the same way
      const bool near_zero = std::abs(v0[idx(k)].value) <= tol[idx(k)];
      const bool released = f.fn == Fn::kGap ? released_[idx(f.contact)]
                            : f.fn == Fn::kSlideEnd
                                ? near_zero && std::abs(v0[idx(k)].slope) <= accel_tol
                                : near_zero && (f.fn == Fn::kLiftOff || f.fn == Fn::kSlipOnset);
      start[idx(k)] = released ? integrate::Start::kReleased : integrate::Start::kNormal;
    }
  }

  stepper.initialize(pack(q_, qd_, aux_), t_, std::min(o_.max_dt, 1e-3));
  const auto take = [&](double t) {
    State s;
    stepper.state_at(t, s);
    t_ = t;
    unpack(s, q_, qd_, aux_);
    L_.surface_work += s[i_work];
    L_.friction_loss += s[i_work + 1];
    L_.applied_work += s[i_work + 2];
  };
  for (;;) {
    stepper.step(rhs);
    ++res_.rk_steps;
    const double t0 = stepper.t_old();
    const double t1 = std::min(stepper.t_new(), o_.t_end);
    const integrate::FirstEvent ev =
        integrate::locate_first_event<kMaxFn>(source, count, t0, t1, o_.event_samples, tol, start);
    const double t_stop = ev.kind == RootKind::kNone ? t1 : ev.t;
    for (double ts = next_sample_time(); ts <= t_stop; ts = next_sample_time()) {
      State s;
      stepper.state_at(ts, s);
      VecQ qs, qds;
      VecA as;
      unpack(s, qs, qds, as);
      emit_sample(ts, qs, qds, as);
      ++sample_index_;
    }
    // the coordinate section on the interpolant, up to the event: the samples of the event
    // search, and a crossing pair below an extremum of q_i (its slope q̇_i is in the state)
    if (crossing_section()) {
      const auto i = idx(o_.crossing_coordinate);
      const auto v = [&](double t) {
        State s;
        stepper.state_at(t, s);
        return ValueSlope{s[i] - o_.crossing_value, s[idx(n) + i]};
      };
      const auto emit = [&](double t, int direction) {
        if (o_.crossing_direction != 0 && direction != o_.crossing_direction) return;
        State s;
        stepper.state_at(t, s);
        VecQ qs, qds;
        VecA as;
        unpack(s, qs, qds, as);
        emit_crossing(t, qs, qds, as);
      };
      integrate::all_crossings_on_samples(v, emit, t0, t_stop, o_.event_samples);
    }
    if (ev.kind != RootKind::kNone) {
      // other functions at zero and falling at the same instant (a flat rod: both ends stop
      // sliding together) are events too; gaps are covered by the touching set of an impact
      std::array<ValueSlope, kMaxFn> at{};
      source.all(ev.t, at);
      take(ev.t);
      dispatch(fns[idx(ev.function)].fn, fns[idx(ev.function)].contact, ev.kind);
      for (int k = 0; k < count && !stopped_; ++k) {
        const FnSpec& f = fns[idx(k)];
        if (k == ev.function || f.fn == Fn::kGap || f.fn == Fn::kChatterEnd) continue;
        if (modes_[idx(f.contact)] != modes[idx(f.contact)]) continue;  // already changed
        const ValueSlope& v = at[idx(k)];
        const bool falling = std::isnan(v.slope) || v.slope <= 0.0;
        if (std::abs(v.value) <= tol[idx(k)] && falling &&
            start[idx(k)] == integrate::Start::kNormal)
          dispatch(f.fn, f.contact, RootKind::kCrossing);
      }
      return;
    }
    // drift of the held contacts
    {
      unpack(stepper.state(), q, qd, a);
      for (int c = 0; c < nc_; ++c) {
        if (!is_closed(modes[idx(c)])) continue;
        const model::ContactGeometry k = contact_at(c, stepper.t_new(), q, qd);
        res_.max_gap_drift = std::max(res_.max_gap_drift, std::abs(k.g_N));
        res_.max_velocity_drift = std::max(res_.max_velocity_drift, std::abs(k.v.y()));
      }
    }
    if (stepper.t_new() >= o_.t_end) {
      take(o_.t_end);
      return;
    }
    // contacts that rose clear of their obstacle are armed; all clear and open: exact flight
    bool clear = true;
    {
      const State& s = stepper.state();
      unpack(s, q, qd, a);
      for (int k = 0; k < count; ++k) {
        const FnSpec& f = fns[idx(k)];
        if (f.fn != Fn::kGap) {
          clear = false;
          continue;
        }
        const bool above = contact_at(f.contact, stepper.t_new(), q, qd).g_N > tol[idx(k)];
        if (above) {
          start[idx(k)] = integrate::Start::kNormal;
          released_[idx(f.contact)] = false;
        } else {
          clear = false;
        }
      }
      std::array<ValueSlope, kMaxFn> v{};
      values(stepper.t_new(), s, v);
      for (int k = 0; k < count; ++k) {
        if (fns[idx(k)].fn != Fn::kGap && v[idx(k)].value > tol[idx(k)])
          start[idx(k)] = integrate::Start::kNormal;
      }
    }
    if (clear && o_.exact_flight && flight_ != nullptr && na_ == 0) {
      take(stepper.t_new());
      return;
    }
    check_wall_clock();
    if (stopped_) {
      take(stepper.t_new());
      return;
    }
  }
}

template void Run::ode_phase_n<kSmall>();
template void Run::ode_phase_n<kLarge>();

void Run::dispatch(Fn fn, int c, integrate::RootKind kind) {
  switch (fn) {
    case Fn::kGap:
      if (kind == integrate::RootKind::kGraze)
        handle_graze(c);
      else
        handle_impact(c);
      return;
    case Fn::kLiftOff:
      // leave from exactly the obstacle: the drift of the held contact (≲ 1e-10 m) would
      // otherwise start the flight below it
      project_closed();
      open_contact(c, true);
      record(EventKind::kLiftOff, c);
      decide_modes();
      count_event();
      return;
    case Fn::kSlideEnd: {
      modes_[idx(c)] = ContactMode::kStick;
      constrained_dynamics(m_, t_, q_, qd_, aux_, modes_, o_.stabilization, cd_);
      const Vec2 lam = cd_.lambda[idx(c)];
      if (std::abs(lam.x()) <= mu_s(c) * lam.y() + lambda_tol_) {
        record(EventKind::kStick, c);
      } else {
        modes_[idx(c)] = sliding_mode(-lam.x());
        record(EventKind::kSlipReversal, c);
      }
      decide_modes();
      // the located zero of v_T carries the integration error (~1e-11 m/s); the new slip starts
      // from exactly v_T = 0, so that its own end event does not fire at once
      if (is_closed(modes_[idx(c)])) project_closed(c);
      count_event();
      return;
    }
    case Fn::kSlipOnset: {
      constrained_dynamics(m_, t_, q_, qd_, aux_, modes_, o_.stabilization, cd_);
      // the cone margin μλ_N − |λ_T| also vanishes where λ_N does: at λ_N = 0 the contact leaves
      if (cd_.lambda[idx(c)].y() <= lambda_tol_) {
        dispatch(Fn::kLiftOff, c, kind);
        return;
      }
      modes_[idx(c)] = sliding_mode(-cd_.lambda[idx(c)].x());
      record(EventKind::kSlipOnset, c);
      decide_modes();
      if (is_closed(modes_[idx(c)])) project_closed(c);
      count_event();
      return;
    }
    case Fn::kPainleve:
      // k_N reached 0 while sliding: decide_modes records the Painlevé event and stops, or
      // resolves it by an impact without collision (the contact opens); at k_N = 0 exactly
      // neither applies and the run stops
      decide_modes();
      if (!stopped_ && is_sliding(modes_[idx(c)])) {
        record(EventKind::kPainleve, c);
        stop(StopReason::kPainleve,
             "contact " + name(c) + " reached k_N = 0 while sliding at t = " + format_number(t_) +
                 " (Painleve)");
      }
      return;
    case Fn::kChatterEnd:
      chatter_end_[idx(c)] = kNaN;
      record(EventKind::kChatterEnd, c);
      count_event();
      return;
  }
}

}  // namespace clatter::hybrid
