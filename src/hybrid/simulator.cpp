// The step pipeline of the event-driven engine (simulator.hpp): set-up, then flight or
// Runge–Kutta phases until t_end or a stop. The stages are in run_*.cpp (run.hpp lists them).

#include "clatter/hybrid/simulator.hpp"

#include <algorithm>
#include <cmath>

#include "run.hpp"

namespace clatter::hybrid {

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::kEndTime:
      return "end_time";
    case StopReason::kMaxEvents:
      return "max_events";
    case StopReason::kZeno:
      return "zeno";
    case StopReason::kPainleve:
      return "painleve";
    case StopReason::kEventLocation:
      return "event_location";
    case StopReason::kNonFinite:
      return "non_finite";
    case StopReason::kWallTime:
      return "wall_time";
    case StopReason::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

Run::Run(const model::System& model, const InitialState& init, const SimulationOptions& options,
         Recorder* recorder)
    : m_(model),
      flight_(model.exact_flight()),
      carried_(model.carried_motion()),
      symmetry_(model.symmetry()),
      o_(options),
      rec_(recorder),
      nq_(model.nq()),
      na_(model.num_aux()),
      nc_(model.num_contacts()),
      t_(init.t),
      q_(init.q),
      qd_(init.qd),
      aux_(init.aux.size() == 0 ? VecA(VecA::Zero(model.num_aux())) : init.aux),
      closed_(init.closed) {
  modes_.fill(ContactMode::kOpen);
  released_.fill(false);
  chatter_end_.fill(kNaN);
  chatter_skip_.fill(0);
  chatter_last_v_.fill(0.0);
  lambda_tol_ = tol::kForceTol * std::max(model.force_scale(), 1e-300);
  wall_start_ = std::chrono::steady_clock::now();
}

SimulationResult Run::execute() {
  // --- validate the input ---
  validate(o_, t_, nq_);
  require(std::isfinite(t_), "initial.t", "must be finite");
  require(
      q_.size() == nq_, "initial.q",
      "must have " + std::to_string(nq_) + " entries (" + std::to_string(q_.size()) + " given)");
  require(
      qd_.size() == nq_, "initial.qdot",
      "must have " + std::to_string(nq_) + " entries (" + std::to_string(qd_.size()) + " given)");
  require(
      aux_.size() == na_, "initial.aux",
      "must have " + std::to_string(na_) + " entries (" + std::to_string(aux_.size()) + " given)");
  for (int i = 0; i < nq_; ++i) {
    require_finite(q_(i), "initial.q");
    require_finite(qd_(i), "initial.qdot");
  }
  for (int i = 0; i < na_; ++i) require_finite(aux_(i), "initial.aux");
  zeno_ring_.assign(static_cast<std::size_t>(o_.zeno_events),
                    -std::numeric_limits<double>::infinity());
  L_.initial = energy();

  // --- initial modes: contacts on their obstacle and at rest are closed, approaching ones impact
  int approaching = -1;
  for (int c = 0; c < nc_; ++c) {
    const model::ContactGeometry k = contact_at(c, t_, q_, qd_);
    const double tol = tol::kTouchingGaps * gap_tol(k.scale);
    if (k.g_N < -tol) {
      throw InvalidArgument("initial.q", "contact " + name(c) + " penetrates its obstacle by " +
                                             format_number(-k.g_N) + " m");
    }
    if (closed_[idx(c)]) {
      modes_[idx(c)] = ContactMode::kSlidePositive;  // decided below, once all are known
      continue;
    }
    if (k.g_N > tol) continue;
    if (k.v.y() < -velocity_tol()) {
      approaching = c;
    } else if (k.v.y() <= velocity_tol()) {
      modes_[idx(c)] = closed_mode(c, qd_, modes_);
    }
  }
  for (int c = 0; c < nc_; ++c) {
    if (!closed_[idx(c)]) continue;
    project_closed();
    modes_[idx(c)] = closed_mode(c, qd_, modes_);
  }
  emit_sample(t_, q_, qd_, aux_);
  t_first_sample_ = t_;
  sample_index_ = 1;
  if (approaching >= 0) {
    handle_impact(approaching);
  } else {
    decide_modes();
  }

  // --- the pipeline: flight (closed form) or Runge–Kutta phases, each ending at an event ---
  while (!stopped_ && t_ < o_.t_end) {
    bool fly = o_.exact_flight && flight_ != nullptr && na_ == 0 && all_open();
    for (int c = 0; c < nc_ && fly; ++c) fly = !released_[idx(c)];
    model::CarriedMotion::Contacts stick{};
    if (fly)
      flight_phase();
    else if (can_carry(stick))
      carried_phase(stick);
    else
      ode_phase();
    if (!(q_.allFinite() && qd_.allFinite() && aux_.allFinite()))
      stop(StopReason::kNonFinite, "the state became non-finite at t = " + format_number(t_));
    check_wall_clock();
  }

  // --- the result ---
  if (!stopped_) {
    res_.reason = StopReason::kEndTime;
    res_.message = "reached t_end = " + format_number(o_.t_end);
  }
  res_.t = t_;
  res_.q = q_;
  res_.qd = qd_;
  res_.aux = aux_;
  res_.modes = modes_;
  L_.kinetic = m_.kinetic_energy(t_, q_, qd_);
  L_.potential = m_.potential_energy(t_, q_);
  res_.energy = L_;
  return res_;
}

SimulationResult simulate(const model::System& model, const InitialState& init,
                          const SimulationOptions& options, Recorder* recorder) {
  Run run(model, init, options, recorder);
  return run.execute();
}

}  // namespace clatter::hybrid
