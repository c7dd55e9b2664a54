// The Runge–Kutta phase (any contact closed, or no exact flight): DOPRI5 or DOP853 with dense
// output (SimulationOptions::integrator), the
// event functions of the current modes located on the interpolant (integrate/event_locator.hpp),
// and the dispatch of the located event.
//
// A phase lasts over steps: begin_ode_phase sets up its event functions and stepper in
// Data::ode (data.hpp: the Runge–Kutta state), and each ode_step takes one accepted step.

#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>

#include "clatter/core/scratch.hpp"
#include "clatter/integrate/dense_stepper.hpp"
#include "clatter/integrate/dop853_stepper.hpp"
#include "clatter/integrate/event_locator.hpp"
#include "run.hpp"

namespace clatter::hybrid {

namespace {

constexpr std::size_t kSmall = OdePhase::kSmallState;
constexpr std::size_t kMedium = OdePhase::kMediumState;
constexpr std::size_t kLarge = OdePhase::kLargeState;
constexpr std::size_t kMaxFn = OdePhase::kMaxGuards;
using integrate::RootKind;
using integrate::ValueSlope;
using FnValues = Scratch<ValueSlope, kMaxFn>;  // the event functions [0, count) at one t

// the Runge–Kutta state x = (q, q̇, a, works) of a phase (data.hpp, OdePhase)
template <std::size_t N>
struct Packing {
  using State = std::array<double, N>;
  int n;
  int m;
  [[nodiscard]] std::size_t i_work() const { return static_cast<std::size_t>(2 * n + m); }
  // plain loops: a right-hand side unpacks its few coordinates once per evaluation
  void unpack(const State& x, VecQ& q, VecQ& qd, VecA& a) const {
    q.resize(n);
    qd.resize(n);
    a.resize(m);
    const auto un = static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < un; ++i) {
      q(static_cast<Eigen::Index>(i)) = x[i];
      qd(static_cast<Eigen::Index>(i)) = x[un + i];
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(m); ++i)
      a(static_cast<Eigen::Index>(i)) = x[2 * un + i];
  }
  [[nodiscard]] State pack(const VecQ& q, const VecQ& qd, const VecA& a) const {
    State x{};
    Eigen::Map<VecQ>(x.data(), n) = q;
    Eigen::Map<VecQ>(x.data() + n, n) = qd;
    Eigen::Map<VecA>(x.data() + 2 * n, m) = a;
    return x;
  }
};

// the right-hand side and the event functions of a phase with fixed modes
template <std::size_t N>
struct PhaseFunctions {
  using State = std::array<double, N>;
  const model::System& m;
  const SimulationOptions& o;
  const OdePhase& phase;
  const std::array<double, kMaxContacts>& chatter_end;
  Counters& counters;
  ConstrainedDynamics& cd;
  Packing<N> packing;
  int nc;
  mutable VecQ q, qd;
  mutable VecA a;
  /// every function is a gap or a chatter's end (a flight by Runge–Kutta steps): the values need
  /// the contacts' geometry only, not the constrained dynamics (M, its factor, the forces)
  bool geometry_only{false};
  mutable model::ContactGeometry geometry{};

  [[nodiscard]] static bool needs_geometry_only(const OdePhase& ph) {
    for (int k = 0; k < ph.count; ++k) {
      const Guard g = ph.functions[Run::idx(k)].guard;
      if (g != Guard::kGap && g != Guard::kChatterEnd) return false;
    }
    return true;
  }

  void rhs(const State& x, State& dx, double t) const {
    ++counters.rhs_evaluations;
    packing.unpack(x, q, qd, a);
    constrained_dynamics(m, t, q, qd, a, phase.modes, o.stabilization, cd, ContactScope::kClosed);
    double p_surface = 0.0;
    double p_friction = 0.0;
    for (int c = 0; c < nc; ++c) {
      if (!is_closed(phase.modes[Run::idx(c)])) continue;
      const Vec2& lam = cd.lambda[Run::idx(c)];
      p_surface += lam.dot(cd.kin(c).w);
      p_friction -= lam.dot(cd.kin(c).v);
    }
    const auto n = static_cast<std::size_t>(packing.n);
    const auto na = static_cast<std::size_t>(packing.m);
    for (std::size_t i = 0; i < n; ++i) {
      dx[i] = qd(static_cast<Eigen::Index>(i));
      dx[n + i] = cd.qdd(static_cast<Eigen::Index>(i));
    }
    for (std::size_t i = 0; i < na; ++i)
      dx[2 * n + i] = cd.eval.aux_rate(static_cast<Eigen::Index>(i));
    const std::size_t i_work = packing.i_work();
    for (std::size_t i = i_work + 3; i < N; ++i) dx[i] = 0.0;  // the unused tail
    dx[i_work] = p_surface;
    dx[i_work + 1] = p_friction;
    dx[i_work + 2] = cd.eval.power_applied;
  }

  void values(double t, const State& x, FnValues& out) const {
    packing.unpack(x, q, qd, a);
    if (geometry_only) {
      for (int k = 0; k < phase.count; ++k) {
        const OdePhase::Function& f = phase.functions[Run::idx(k)];
        if (f.guard == Guard::kGap) {
          m.contact_geometry(f.contact, t, q, qd, geometry);
          out[Run::idx(k)] = {geometry.g_N, geometry.v.y()};
        } else {
          out[Run::idx(k)] = {chatter_end[Run::idx(f.contact)] - t, -1.0};
        }
      }
      return;
    }
    constrained_dynamics(m, t, q, qd, a, phase.modes, o.stabilization, cd, ContactScope::kClosed);
    for (int k = 0; k < phase.count; ++k) {
      const OdePhase::Function& f = phase.functions[Run::idx(k)];
      const auto ci = Run::idx(f.contact);
      switch (f.guard) {
        case Guard::kGap:  // an open contact: its geometry is not in cd (ContactScope::kClosed)
          m.contact_geometry(f.contact, t, q, qd, geometry);
          out[Run::idx(k)] = {geometry.g_N, geometry.v.y()};
          break;
        case Guard::kLiftOff:
          out[Run::idx(k)] = {cd.lambda[ci].y(), kNaN};
          break;
        case Guard::kSlideEnd: {
          const double s = slip_sign(phase.modes[ci]);
          out[Run::idx(k)] = {s * cd.kin(f.contact).v.x(), s * cd.accel[ci].x()};
          break;
        }
        case Guard::kSlipOnset:
          out[Run::idx(k)] = {
              m.contact(f.contact).mu_s * cd.lambda[ci].y() - std::abs(cd.lambda[ci].x()), kNaN};
          break;
        case Guard::kPainleve:
          out[Run::idx(k)] = {cd.k_N[ci], kNaN};
          break;
        case Guard::kChatterEnd:
          out[Run::idx(k)] = {chatter_end[ci] - t, -1.0};
          break;
      }
    }
  }
};

template <class Stepper>
constexpr std::size_t kStateSize = std::tuple_size_v<typename Stepper::State>;

// the event functions on the stepper's interpolant (integrate/event_locator.hpp's source)
template <class Stepper, std::size_t N = kStateSize<Stepper>>
struct Source {
  const Stepper* stepper;
  const PhaseFunctions<N>* functions;
  void all(double t, FnValues& out) const {
    std::array<double, N> x;
    stepper->state_at(t, x);
    functions->values(t, x, out);
  }
  ValueSlope one(double t, int j) const {
    FnValues out;
    all(t, out);
    return out[Run::idx(j)];
  }
};

// f(stepper) on the phase's engaged stepper (its state size and method)
template <class Phase, class F>
decltype(auto) with_stepper(Phase& ph, F&& f) {
  switch (ph.size) {
    case OdePhase::Size::kSmall:
      return ph.order8 ? f(*ph.small_dop853) : f(*ph.small_stepper);
    case OdePhase::Size::kMedium:
      return ph.order8 ? f(*ph.medium_dop853) : f(*ph.medium_stepper);
    case OdePhase::Size::kLarge:
      break;
  }
  return ph.order8 ? f(*ph.large_dop853) : f(*ph.large_stepper);
}

// function k of the phase moved to slot `to` (the lists compacted as functions leave)
void move_function(OdePhase& ph, int k, int to) {
  const auto a = static_cast<std::size_t>(k), b = static_cast<std::size_t>(to);
  ph.functions[b] = ph.functions[a];
  ph.tol[b] = ph.tol[a];
  ph.start[b] = ph.start[a];
}

}  // namespace

void ode_state_at(const OdePhase& phase, int nq, int na, double t, VecQ& q, VecQ& qd, VecA& aux) {
  with_stepper(phase, [&](const auto& stepper) {
    constexpr std::size_t N = kStateSize<std::remove_cvref_t<decltype(stepper)>>;
    std::array<double, N> x;
    stepper.state_at(t, x);
    Packing<N>{nq, na}.unpack(x, q, qd, aux);
  });
}

void Run::begin_ode_phase() {
  const auto size = static_cast<std::size_t>(2 * d_.shape.nq + d_.shape.num_aux + 3);
  OdePhase& ph = d_.ode;
  ph.size = size <= kSmall    ? OdePhase::Size::kSmall
            : size <= kMedium ? OdePhase::Size::kMedium
                              : OdePhase::Size::kLarge;
  ph.order8 = resolved_integrator(o_) == Integrator::kDop853 &&
              !(o_.integrator == Integrator::kAuto && ph.steps_at_max_dt);
  ph.capped_steps = 0;
  ph.limited_steps = 0;
  const auto begin = [&](auto& dopri5, auto& dop853) {
    if (ph.order8) {
      dop853.emplace(o_.abs_tol, o_.rel_tol, o_.max_dt, size);
      begin_ode_phase_n(*dop853);
    } else {
      dopri5.emplace(o_.abs_tol, o_.rel_tol, o_.max_dt);
      begin_ode_phase_n(*dopri5);
    }
  };
  switch (ph.size) {
    case OdePhase::Size::kSmall:
      begin(ph.small_stepper, ph.small_dop853);
      break;
    case OdePhase::Size::kMedium:
      begin(ph.medium_stepper, ph.medium_dop853);
      break;
    case OdePhase::Size::kLarge:
      begin(ph.large_stepper, ph.large_dop853);
      break;
  }
}

bool Run::ode_step(double until) {
  return with_stepper(d_.ode, [&](auto& stepper) { return ode_step_n(stepper, until); });
}

// the event functions of the current modes, their tolerances and start flags
template <class Stepper>
void Run::begin_ode_phase_n(Stepper& stepper) {
  constexpr std::size_t N = kStateSize<Stepper>;
  using State = std::array<double, N>;
  OdePhase& ph = d_.ode;
  ph.active = true;
  ph.ledger_at_start = d_.energy;
  std::array<bool, kMaxContacts> enabled;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  update_guards(enabled);
  int count = 0;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    const ContactMode mode = d_.modes[idx(c)];
    if (!is_closed(mode)) {
      if (enabled[idx(c)]) ph.functions[idx(count++)] = {Fn::kGap, c};
      continue;
    }
    ph.functions[idx(count++)] = {Fn::kLiftOff, c};
    if (is_sliding(mode)) {
      ph.functions[idx(count++)] = {Fn::kSlideEnd, c};
      ph.functions[idx(count++)] = {Fn::kPainleve, c};
    } else {
      ph.functions[idx(count++)] = {Fn::kSlipOnset, c};
    }
    if (!std::isnan(d_.chatter_end[idx(c)])) ph.functions[idx(count++)] = {Fn::kChatterEnd, c};
  }
  ph.count = count;
  ph.modes = d_.modes;
  ph.sleeping = 0;
  ph.woken = false;
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    // a disabled contact sleeps until the guards wake it (refresh_phase_guards), never by time
    const bool disabled = !is_closed(d_.modes[idx(c)]) && !enabled[idx(c)];
    ph.open_until[idx(c)] = disabled ? std::numeric_limits<double>::infinity() : kNaN;
    ph.sleeping += disabled ? 1 : 0;
  }
  if (o_.broad_phase) (void)sleep_open_contacts(d_.t, false);
  count = ph.count;
  const Packing<N> packing{d_.shape.nq, d_.shape.num_aux};
  const PhaseFunctions<N> fns{
      m_,          o_,    ph,      d_.chatter_end,
      d_.counters, d_.cd, packing, d_.shape.num_contacts,
      {},          {},    {},      PhaseFunctions<N>::needs_geometry_only(ph)};
  const State x0 = packing.pack(d_.q, d_.qd, d_.aux);
  FnValues v0;
  fns.values(d_.t, x0, v0);
  const double accel_tol = d_.lambda_tol / m_.mass_scale();
  // a gap is known no better than its rate times the resolution of t (as in the exact flight):
  // at t ≈ 5e5 s the surface's phase ωt carries ≈ 5e-10 m of round-off into h(t), far above
  // the gap tolerance, and a released contact "fell back" on that noise at once, re-closed and
  // lifted off again at the same instant until the Zeno guard stopped the run
  const double t_resolution = 4.0 * std::numeric_limits<double>::epsilon() * std::abs(d_.t);
  const double gap_noise =
      t_resolution > 0.0 ? t_resolution * m_.velocity_scale(d_.t, d_.q, d_.qd) : 0.0;
  ph.gap_noise = gap_noise;
  for (int k = 0; k < count; ++k) {
    const OdePhase::Function& f = ph.functions[idx(k)];
    double& tol = ph.tol[idx(k)];
    switch (f.guard) {
      case Fn::kGap:
        tol = gap_tol(f.contact, d_.q) + gap_noise;
        break;
      case Fn::kLiftOff:
      case Fn::kSlipOnset:
        tol = d_.lambda_tol;
        break;
      case Fn::kSlideEnd:
        tol = velocity_tol();
        break;
      case Fn::kPainleve:
      case Fn::kChatterEnd:
        tol = 0.0;
        break;
    }
    // functions without a slope that start at zero (λ_N, the cone margin) are armed once
    // clearly positive; the gap and s·v_T carry their slope and start normally
    // s·v_T with zero value and slope (the instant of a slip onset, where the slip grows as
    // (t − t₀)²) is armed the same way
    const bool near_zero = std::abs(v0[idx(k)].value) <= tol;
    const bool released = f.guard == Fn::kGap ? d_.released[idx(f.contact)]
                          : f.guard == Fn::kSlideEnd
                              ? near_zero && std::abs(v0[idx(k)].slope) <= accel_tol
                              : near_zero && (f.guard == Fn::kLiftOff || f.guard == Fn::kSlipOnset);
    ph.start[idx(k)] = released ? integrate::Start::kReleased : integrate::Start::kNormal;
    // an enabled contact still inside its obstacle waits to rise above it (contact_guards)
    if (f.guard == Fn::kGap && d_.ignored[idx(f.contact)])
      ph.start[idx(k)] = integrate::Start::kBelow;
  }
  stepper.initialize(x0, d_.t, std::min(o_.max_dt, 1e-3));
}

// one accepted step of the phase, the first event on it located on the interpolant and
// dispatched; the phase ends there, at `until`, when every contact has cleared (an exact flight
// takes over), or at a stop
template <class Stepper>
bool Run::ode_step_n(Stepper& stepper, double until) {
  constexpr std::size_t N = kStateSize<Stepper>;
  using State = std::array<double, N>;
  OdePhase& ph = d_.ode;
  const Modes& modes = ph.modes;
  const Packing<N> packing{d_.shape.nq, d_.shape.num_aux};
  const PhaseFunctions<N> fns{
      m_,          o_,    ph,      d_.chatter_end,
      d_.counters, d_.cd, packing, d_.shape.num_contacts,
      {},          {},    {},      PhaseFunctions<N>::needs_geometry_only(ph)};
  const Source<Stepper> source{&stepper, &fns};
  const std::size_t i_work = packing.i_work();
  // the state at t in the step, and the works since the phase began added to the ledger then
  const auto take = [&](double t) {
    State s;
    stepper.state_at(t, s);
    d_.t = t;
    packing.unpack(s, d_.q, d_.qd, d_.aux);
    d_.energy.surface_work = ph.ledger_at_start.surface_work + s[i_work];
    d_.energy.friction_loss = ph.ledger_at_start.friction_loss + s[i_work + 1];
    d_.energy.applied_work = ph.ledger_at_start.applied_work + s[i_work + 2];
  };
  const auto end_phase = [&](double t) {
    take(t);
    ph.active = false;
  };

  if (!stepper.step([&fns](const State& x, State& dx, double t) { fns.rhs(x, dx, t); })) {
    // the step size fell below round-off of t (DOP853): a non-finite or singular right-hand side
    const double t_stuck = stepper.t_new();
    stop(StopReason::kNonFinite,
         "the Runge-Kutta step size fell below 10 ulp of t = " + format_number(t_stuck) +
             " (a non-finite or singular right-hand side)");
    end_phase(t_stuck);
    return false;
  }
  ++d_.counters.rk_steps;
  if (d_.ode.order8) ++d_.counters.dop853_steps;
  if constexpr (requires { stepper.proposed_dt(); })
    note_step_size(stepper.t_new() - stepper.t_old(), stepper.dt(), stepper.proposed_dt());
  else
    note_step_size(stepper.t_new() - stepper.t_old(), stepper.dt(), stepper.dt());
  const double t0 = stepper.t_old();
  const double t1 = std::min(stepper.t_new(), until);
  if (ph.sleeping > 0) wake_open_contacts(t1);
  const int count = ph.count;
  const integrate::FirstEvent ev = integrate::locate_first_event<kMaxFn>(
      source, count, t0, t1, o_.event_samples, ph.tol, ph.start);
  Segment& seg = d_.segment;
  seg.kind = SegmentKind::kRungeKutta;
  seg.t0 = t0;
  seg.t1 = ev.kind == RootKind::kNone ? t1 : ev.t;
  seg.modes = modes;
  if (ev.kind != RootKind::kNone) {
    // other functions at zero and falling at the same instant (a flat rod: both ends stop
    // sliding together) are events too; gaps are covered by the touching set of an impact
    FnValues at;
    source.all(ev.t, at);
    end_phase(ev.t);
    dispatch(ph.functions[idx(ev.function)].guard, ph.functions[idx(ev.function)].contact, ev.kind);
    for (int k = 0; k < count && !d_.stopped; ++k) {
      const OdePhase::Function& f = ph.functions[idx(k)];
      if (k == ev.function || f.guard == Fn::kGap || f.guard == Fn::kChatterEnd) continue;
      if (d_.modes[idx(f.contact)] != modes[idx(f.contact)]) continue;  // already changed
      const ValueSlope& v = at[idx(k)];
      const bool falling = std::isnan(v.slope) || v.slope <= 0.0;
      if (std::abs(v.value) <= ph.tol[idx(k)] && falling &&
          ph.start[idx(k)] == integrate::Start::kNormal)
        dispatch(f.guard, f.contact, RootKind::kCrossing);
    }
    return true;
  }
  // drift of the held contacts
  VecQ q, qd;
  VecA a;
  {
    packing.unpack(stepper.state(), q, qd, a);
    for (int c = 0; c < d_.shape.num_contacts; ++c) {
      if (!is_closed(modes[idx(c)])) continue;
      const model::ContactGeometry k = contact_at(c, stepper.t_new(), q, qd);
      d_.counters.max_gap_drift = std::max(d_.counters.max_gap_drift, std::abs(k.g_N));
      d_.counters.max_velocity_drift = std::max(d_.counters.max_velocity_drift, std::abs(k.v.y()));
    }
  }
  if (stepper.t_new() >= until) {
    end_phase(until);
    return false;
  }
  // contacts that rose clear of their obstacle are armed; all clear and open: exact flight
  bool clear = true;
  {
    const State& s = stepper.state();
    packing.unpack(s, q, qd, a);
    for (int k = 0; k < count; ++k) {
      const OdePhase::Function& f = ph.functions[idx(k)];
      if (f.guard != Fn::kGap) {
        clear = false;
        continue;
      }
      const bool above = contact_at(f.contact, stepper.t_new(), q, qd).g_N > ph.tol[idx(k)];
      if (above) {
        ph.start[idx(k)] = integrate::Start::kNormal;
        d_.released[idx(f.contact)] = false;
      } else {
        clear = false;
      }
    }
    FnValues v;
    fns.values(stepper.t_new(), s, v);
    for (int k = 0; k < count; ++k) {
      if (ph.functions[idx(k)].guard != Fn::kGap && v[idx(k)].value > ph.tol[idx(k)])
        ph.start[idx(k)] = integrate::Start::kNormal;
    }
  }
  if (clear && o_.exact_flight && d_.shape.flight != nullptr && d_.shape.num_aux == 0) {
    end_phase(stepper.t_new());
    return false;
  }

  check_wall_clock();
  if (!d_.stopped && d_.counters.rk_steps >= o_.max_steps)
    stop(StopReason::kMaxSteps, "stopped after max_steps = " + std::to_string(o_.max_steps) +
                                    " Runge-Kutta steps at t = " + format_number(stepper.t_new()));
  if (d_.stopped) {
    end_phase(stepper.t_new());
    return false;
  }
  // the phase goes on from the stepper: the state shown is its end (the next step starts there)
  take(stepper.t_new());
  if (d_.shape.guarded) refresh_phase_guards();
  // contacts woken on their way towards closing may have turned away: the model is asked again
  if (ph.woken) {
    sleep_open_contacts(stepper.t_new() + stepper.dt(), true);
    ph.woken = false;
  }
  return false;
}

bool Run::sleep_open_contacts(double t_sleep, bool armed_only) {
  OdePhase& ph = d_.ode;
  const int nc = d_.shape.num_contacts;
  std::array<double, kMaxContacts> tau;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  for (int c = 0; c < nc; ++c) tau[idx(c)] = 0.0;
  if (!m_.open_horizons(d_.t, d_.q, d_.qd, d_.aux, tau)) return false;
  // a gap function may leave only if it is a plain gap, armed, of a contact not released: a
  // contact that starts (or stays) at its obstacle keeps its function
  int kept = 0;
  for (int k = 0; k < ph.count; ++k) {
    const OdePhase::Function f = ph.functions[idx(k)];
    const auto ci = idx(f.contact);
    const double until = d_.t + tau[ci];
    const bool sleep = f.guard == Fn::kGap && !d_.released[ci] && !d_.ignored[ci] &&
                       tau[ci] > 0.0 && until > t_sleep &&
                       (!armed_only || ph.start[idx(k)] == integrate::Start::kNormal);
    if (sleep) {
      ph.open_until[ci] = until;
      ++ph.sleeping;
      continue;
    }
    if (kept != k) move_function(ph, k, kept);
    ++kept;
  }
  ph.count = kept;
  return true;
}

void Run::wake_gap(int c) {
  OdePhase& ph = d_.ode;
  ph.open_until[idx(c)] = kNaN;  // awake (closed contacts and gap functions: NaN)
  --ph.sleeping;
  const auto k = idx(ph.count++);
  ph.functions[k] = {Fn::kGap, c};
  ph.tol[k] = gap_tol(c, d_.q) + ph.gap_noise;
  ph.start[k] = d_.ignored[idx(c)] ? integrate::Start::kBelow : integrate::Start::kNormal;
}

void Run::update_guards(std::array<bool, kMaxContacts>& enabled, double watch_above) {
  enabled.fill(true);
  if (!d_.shape.guarded) return;
  (void)m_.contact_guards(d_.t, d_.q, d_.qd, d_.aux, enabled);
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    const auto ci = idx(c);
    if (is_closed(d_.modes[ci])) {
      d_.ignored[ci] = false;
    } else if (!enabled[ci]) {
      d_.ignored[ci] = true;
    } else if (d_.ignored[ci]) {  // enabled: watched from when its gap is positive
      d_.ignored[ci] = !(contact_at(c, d_.t, d_.q, d_.qd).g_N > watch_above);
    }
  }
}

void Run::refresh_phase_guards() {
  OdePhase& ph = d_.ode;
  std::array<bool, kMaxContacts> enabled;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  update_guards(enabled);
  for (int c = 0; c < d_.shape.num_contacts; ++c) {
    const auto ci = idx(c);
    if (is_closed(ph.modes[ci])) continue;
    const bool disabled_before = ph.open_until[ci] == std::numeric_limits<double>::infinity();
    if (disabled_before == !enabled[ci]) continue;
    if (disabled_before) {  // enabled: watched from this step end on (waiting while inside)
      wake_gap(c);
      continue;
    }
    // disabled: its gap function leaves (a contact the broad phase put to sleep has none)
    if (std::isnan(ph.open_until[ci])) {
      int kept = 0;
      for (int k = 0; k < ph.count; ++k) {
        const OdePhase::Function f = ph.functions[idx(k)];
        if (f.guard == Fn::kGap && f.contact == c) continue;
        if (kept != k) move_function(ph, k, kept);
        ++kept;
      }
      ph.count = kept;
      ++ph.sleeping;
    }
    ph.open_until[ci] = std::numeric_limits<double>::infinity();
  }
}

void Run::wake_open_contacts(double t1) {
  OdePhase& ph = d_.ode;
  for (int c = 0; c < d_.shape.num_contacts && ph.sleeping > 0; ++c) {
    const auto ci = idx(c);
    if (!(ph.open_until[ci] < t1)) continue;  // awake (NaN), or proven open past t1
    wake_gap(c);
    ph.woken = true;
  }
}

template void Run::begin_ode_phase_n(integrate::DenseStepper<kSmall>&);
template void Run::begin_ode_phase_n(integrate::DenseStepper<kMedium>&);
template void Run::begin_ode_phase_n(integrate::DenseStepper<kLarge>&);
template void Run::begin_ode_phase_n(integrate::Dop853Stepper<kSmall>&);
template void Run::begin_ode_phase_n(integrate::Dop853Stepper<kMedium>&);
template void Run::begin_ode_phase_n(integrate::Dop853Stepper<kLarge>&);
template bool Run::ode_step_n(integrate::DenseStepper<kSmall>&, double);
template bool Run::ode_step_n(integrate::DenseStepper<kMedium>&, double);
template bool Run::ode_step_n(integrate::DenseStepper<kLarge>&, double);
template bool Run::ode_step_n(integrate::Dop853Stepper<kSmall>&, double);
template bool Run::ode_step_n(integrate::Dop853Stepper<kMedium>&, double);
template bool Run::ode_step_n(integrate::Dop853Stepper<kLarge>&, double);

// Integrator::kAuto's choice for the next phase (OdePhase::steps_at_max_dt): `taken` is the step
// just accepted, `next` the next step (capped at max_dt), `asked` the error control's wish
// before the cap (DOP853; DOPRI5 passes `next`)
void Run::note_step_size(double taken, double next, double asked) {
  OdePhase& ph = d_.ode;
  if (o_.integrator != Integrator::kAuto) return;
  const double cap = o_.max_dt * (1.0 - 1e-9);
  if (ph.order8 ? asked >= 10.0 * cap : next >= cap)
    ++ph.capped_steps;
  else if (next <= 2.0 * taken)  // not the growth after a restart: the error control holds it
    ++ph.limited_steps;
  if (ph.order8) {
    // the whole phase so far: a later error-limited step undoes it
    ph.steps_at_max_dt = !ph.dopri5_limited && ph.capped_steps >= 8 && ph.limited_steps == 0;
  } else if (ph.steps_at_max_dt && ph.limited_steps >= 2) {
    ph.steps_at_max_dt = false;
    ph.dopri5_limited = true;
  }
}

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
      d_.modes[idx(c)] = ContactMode::kStick;
      constrained_dynamics(m_, d_.t, d_.q, d_.qd, d_.aux, d_.modes, o_.stabilization, d_.cd);
      const Vec2 lam = d_.cd.lambda[idx(c)];
      if (std::abs(lam.x()) <= mu_s(c) * lam.y() + d_.lambda_tol) {
        record(EventKind::kStick, c);
      } else {
        d_.modes[idx(c)] = sliding_mode(-lam.x());
        record(EventKind::kSlipReversal, c);
      }
      decide_modes();
      // the located zero of v_T carries the integration error (~1e-11 m/s); the new slip starts
      // from exactly v_T = 0, so that its own end event does not fire at once
      if (is_closed(d_.modes[idx(c)])) project_closed(c);
      count_event();
      return;
    }
    case Fn::kSlipOnset: {
      constrained_dynamics(m_, d_.t, d_.q, d_.qd, d_.aux, d_.modes, o_.stabilization, d_.cd);
      // the cone margin μλ_N − |λ_T| also vanishes where λ_N does: at λ_N = 0 the contact leaves
      if (d_.cd.lambda[idx(c)].y() <= d_.lambda_tol) {
        dispatch(Fn::kLiftOff, c, kind);
        return;
      }
      d_.modes[idx(c)] = sliding_mode(-d_.cd.lambda[idx(c)].x());
      record(EventKind::kSlipOnset, c);
      decide_modes();
      if (is_closed(d_.modes[idx(c)])) project_closed(c);
      count_event();
      return;
    }
    case Fn::kPainleve:
      // k_N reached 0 while sliding: decide_modes records the Painlevé event and stops, or
      // resolves it by an impact without collision (the contact opens); at k_N = 0 exactly
      // neither applies and the run stops
      decide_modes();
      if (!d_.stopped && is_sliding(d_.modes[idx(c)])) {
        record(EventKind::kPainleve, c);
        stop(StopReason::kPainleve,
             "contact " + name(c) + " reached k_N = 0 while sliding at t = " + format_number(d_.t) +
                 " (Painleve)");
      }
      return;
    case Fn::kChatterEnd:
      d_.chatter_end[idx(c)] = kNaN;
      record(EventKind::kChatterEnd, c);
      count_event();
      return;
  }
}

}  // namespace clatter::hybrid
