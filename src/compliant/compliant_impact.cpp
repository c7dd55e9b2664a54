#include "clatter/compliant/compliant_impact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "clatter/compliant/slip_phase.hpp"
#include "clatter/compliant/stick_phase.hpp"
#include "clatter/core/error.hpp"

namespace clatter::compliant {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// relative tolerance (of the phase's time scale) under which two events are simultaneous, and
// of a periodic event function's amplitude under which its minimum counts as a touch
constexpr double kSimultaneous = 1e-9;
constexpr double kTouch = 1e-9;

// the slip starting at `state` with sign ŝ is consistent: ŝ s > 0, or s = 0 and ŝ s grows
bool slip_consistent(const Model& model, const State& state, int slip_sign) {
  State s = state;
  s.u1_dot = -model.mu * slip_sign * model.eta * s.z_dot;
  const double v = slip_sign * s.slip_velocity();
  const double scale = std::abs(state.x_dot) + std::abs(state.z_dot);
  if (v > 1e-12 * scale) return true;
  if (v < -1e-12 * scale) return false;
  const SlipFlow flow(model, s, slip_sign);
  const double h = 1e-3 / std::sqrt(model.k3 * model.W.C);
  return slip_sign * flow.slip_velocity(h) > 0.0;
}

struct StickStep {
  double tau{kInf};
  PhaseEnd end{PhaseEnd::kPermanentStick};
  int slip_sign{0};
  double tau_c{kInf};  // end of compression inside the phase
  bool iterations{false};
};

// min over a period of a single-frequency event function is ≥ 0 (to a touch): it never fires
bool never_fires(const ModalSum& f) {
  double amplitude = 0.0;
  for (int i = 0; i < f.n; ++i) {
    if (f.sigma[i] > 0.0) amplitude += std::hypot(f.alpha[i], f.beta[i] / std::sqrt(f.sigma[i]));
  }
  return periodic_minimum(f) >= -kTouch * amplitude;
}

StickStep stick_step(const Model& model, const StickFlow& flow, bool need_compression) {
  const double me = model.mu * model.eta;
  const ModalSum sep = flow.deformation(0.0, -1.0);
  const ModalSum plus = flow.deformation(-1.0, -me);
  const ModalSum minus = flow.deformation(1.0, -me);
  const double tol = kSimultaneous * flow.time_scale();
  StickStep step;
  // first zero of f before `limit`; a periodic f whose minimum is ≥ 0 never fires
  const auto first = [&](const ModalSum& f, double limit) {
    if (flow.periodic() && never_fires(f)) return kInf;
    const Root r = first_root(f, limit);
    if (r.status == RootStatus::kIterations) step.iterations = true;
    return (r.status == RootStatus::kFound || r.status == RootStatus::kAtStart) ? r.tau : kInf;
  };
  // separation first: every later search stops there (slip onsets within `tol` of it are the
  // same instant, e.g. the pendulum's gross stick where u1 and u3 vanish together)
  const double t_sep = first(sep, kInf);
  const double t_plus = first(plus, t_sep + tol);
  const double t_minus = first(minus, std::min(t_sep, t_plus) + tol);
  const double t_slip = std::min(t_plus, t_minus);
  if (std::isfinite(t_sep) && t_sep <= t_slip + tol) {
    step.tau = t_sep;
    step.end = PhaseEnd::kSeparation;
  } else if (std::isfinite(t_slip)) {
    step.tau = t_slip;
    step.end = PhaseEnd::kSlipOnset;
    step.slip_sign = t_plus <= t_minus ? 1 : -1;
  } else {
    step.end = step.iterations ? PhaseEnd::kPhaseLimit : PhaseEnd::kPermanentStick;
  }
  if (need_compression) step.tau_c = first(sep.differentiated(), step.tau);
  return step;
}

}  // namespace

const char* to_string(Outcome outcome) { return name_of(outcome); }

const char* to_string(SolveStatus status) { return name_of(status); }

void require_in_range(const Model& model, double x_dot0, double z_dot0) {
  if (!model.singular()) return;
  // range W of a rank-1 W = the column of larger norm; its normal must not see the velocity
  const ContactMatrix& W = model.W;
  const bool first = W.A >= W.C;
  const double rx = first ? W.A : W.B, rz = first ? W.B : W.C;
  const double off = (-rz * x_dot0 + rx * z_dot0) / std::hypot(rx, rz);
  require(std::abs(off) <= 1e-9 * std::hypot(x_dot0, z_dot0), "x_dot0",
          "for a singular W (a constrained body) the contact velocity must lie in range W, "
          "e.g. a pendulum's (x_dot0, z_dot0) is parallel to (cos theta, sin theta)");
}

bool starts_in_stick(const Model& model, double x_dot0, double z_dot0) {
  const double r = std::abs(x_dot0 / z_dot0);
  const double me = model.mu * model.eta;
  if (r < me) return true;
  if (r > me) return false;
  // tie (spec §6 item 10): slip when it is consistent, else stick
  State s;
  s.x_dot = x_dot0;
  s.z_dot = z_dot0;
  const int slip_sign = x_dot0 >= 0.0 ? 1 : -1;
  return !slip_consistent(model, s, slip_sign);
}

Outcome classify(const Result& r) {
  if (r.status != SolveStatus::kOk) return Outcome::kUnresolved;
  if (r.contact_permanent) return Outcome::kWedge;
  if (r.n_phases == 0 || r.last().end != PhaseEnd::kSeparation) {
    return r.n_phases > 0 && r.last().end == PhaseEnd::kDiverging ? Outcome::kWedge
                                                                  : Outcome::kUnresolved;
  }
  const auto mode = [&](int i) { return r.phases[i].mode; };
  switch (r.n_phases) {
    case 1:
      return mode(0) == Mode::kStick ? Outcome::kGrossStick : Outcome::kGrossSlip;
    case 2:
      return mode(0) == Mode::kStick ? Outcome::kStickSlip : Outcome::kOther;
    case 3:
      return mode(0) == Mode::kSlip ? Outcome::kSlipStickSlip : Outcome::kOther;
    default:
      return Outcome::kOther;
  }
}

void fill_phase_times(Result& r) {
  r.t_sigma = r.t_lt = r.t_tl = kNaN;
  if (r.n_phases == 0) return;
  const Phase& first = r.phases[0];
  if (first.mode == Mode::kStick && first.end == PhaseEnd::kSlipOnset) r.t_sigma = first.t_end;
  if (first.mode == Mode::kSlip && first.end == PhaseEnd::kStickOnset) {
    r.t_lt = first.t_end;
    if (r.n_phases > 1 && r.phases[1].end == PhaseEnd::kSlipOnset) r.t_tl = r.phases[1].t_end;
  }
}

Result solve(const Model& model, double x_dot0, double z_dot0, const Options& options) {
  validate(model);
  require(std::isfinite(x_dot0), "x_dot0", "must be a finite number", x_dot0);
  require(std::isfinite(z_dot0) && z_dot0 < 0.0, "z_dot0",
          "must be finite and < 0 (the contact point approaches the surface)", z_dot0);
  require(options.max_phases >= 1 && options.max_phases <= kMaxPhases, "max_phases",
          "must lie in [1, 32]", options.max_phases);
  require_in_range(model, x_dot0, z_dot0);

  Result r;
  r.t_c = r.t_f = r.t_wedge = r.t_lock = kNaN;
  State state;
  state.x_dot = x_dot0;
  state.z_dot = z_dot0;
  r.initial = state;
  Mode mode = starts_in_stick(model, x_dot0, z_dot0) ? Mode::kStick : Mode::kSlip;
  int slip_sign = mode == Mode::kSlip ? (x_dot0 >= 0.0 ? 1 : -1) : 0;
  if (mode == Mode::kStick) {
    state.u1_dot = x_dot0;
  } else {
    state.u1_dot = -model.mu * slip_sign * model.eta * z_dot0;
  }

  while (true) {
    if (r.n_phases == options.max_phases) {
      r.status = SolveStatus::kPhaseLimit;
      break;
    }
    Phase& ph = r.phases[r.n_phases++];
    ph.mode = mode;
    ph.slip_sign = slip_sign;
    ph.t_start = state.t;
    ph.start = state;
    const bool need_c = std::isnan(r.t_c);
    if (need_c && state.z_dot >= 0.0 && state.t > 0.0) r.t_c = state.t;

    if (mode == Mode::kStick) {
      const StickFlow flow(model, state);
      const StickStep step = stick_step(model, flow, need_c && std::isnan(r.t_c));
      if (std::isfinite(step.tau_c) && step.tau_c <= step.tau) r.t_c = state.t + step.tau_c;
      ph.end = step.end;
      if (step.iterations) r.status = SolveStatus::kRootIterations;
      if (!std::isfinite(step.tau)) {
        ph.t_end = kInf;
        r.contact_permanent = step.end == PhaseEnd::kPermanentStick;
        break;
      }
      ph.t_end = state.t + step.tau;
      state = flow.at(step.tau);
      if (step.end == PhaseEnd::kSeparation) {
        state.u1 = state.u3 = 0.0;
        break;
      }
      // stick → slip: put the state exactly on the cone, u̇1 jumps to −μŝη ż
      mode = Mode::kSlip;
      slip_sign = step.slip_sign;
      state.u1 = -model.mu * slip_sign * model.eta * state.u3;
      state.u1_dot = -model.mu * slip_sign * model.eta * state.z_dot;
      continue;
    }

    const SlipFlow flow(model, state, slip_sign);
    const double tau_sep = flow.separation_time();
    const double tau_stick = flow.stick_time(tau_sep);
    ph.diverges = flow.diverges();
    if (ph.diverges && !r.thesis_wedge) {
      r.thesis_wedge = true;
      r.t_wedge = state.t;
      if (std::isfinite(tau_stick)) r.t_lock = state.t + tau_stick;
    }
    const double tau_c = need_c && std::isnan(r.t_c) ? flow.compression_end_time() : kInf;
    const double tau = std::min(tau_sep, tau_stick);
    if (std::isfinite(tau_c) && tau_c <= tau) r.t_c = state.t + tau_c;
    if (!std::isfinite(tau)) {
      ph.end = PhaseEnd::kDiverging;
      ph.t_end = kInf;
      break;
    }
    ph.t_end = state.t + tau;
    state = flow.at(tau);
    if (tau_sep <= tau_stick) {
      ph.end = PhaseEnd::kSeparation;
      state.u1 = state.u3 = 0.0;
      break;
    }
    ph.end = PhaseEnd::kStickOnset;
    if (ph.diverges && !options.follow_lock) {
      // [Bi]'s model stops here: the slip diverges, the body never rebounds
      r.contact_permanent = true;
      break;
    }
    mode = Mode::kStick;
    slip_sign = 0;
    state.u1_dot = state.x_dot;  // s = 0
  }
  r.final_state = state;
  r.t_f = r.contact_permanent || (r.n_phases > 0 && r.last().end == PhaseEnd::kDiverging)
              ? kInf
              : (r.status == SolveStatus::kOk ? state.t : kNaN);
  fill_phase_times(r);
  r.outcome = classify(r);
  return r;
}

State state_at(const Model& model, const Result& result, double t) {
  if (result.n_phases > 0 && t >= result.last().t_end) {
    // after the end of the solved motion: the final state (free flight after separation)
    State s = result.final_state;
    s.t = t;
    return s;
  }
  for (int i = 0; i < result.n_phases; ++i) {
    const Phase& ph = result.phases[i];
    if (t <= ph.t_end || i == result.n_phases - 1) {
      const double tau = std::max(0.0, std::min(t, ph.t_end) - ph.t_start);
      if (ph.mode == Mode::kStick) return StickFlow(model, ph.start).at(tau);
      return SlipFlow(model, ph.start, ph.slip_sign).at(tau);
    }
  }
  return result.initial;
}

}  // namespace clatter::compliant
