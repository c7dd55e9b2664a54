// The stepping API (step.hpp): one step of the pipeline, the state inside its segment, a stop
// between steps. The stages are Run's methods in run_*.cpp (run.hpp lists them).

#include "clatter/hybrid/step.hpp"

#include "clatter/hybrid/segment_sections.hpp"

#include <cmath>
#include <limits>

#include "run.hpp"

namespace clatter::hybrid {

const char* to_string(StepKind k) {
  switch (k) {
    case StepKind::kEvent:
      return "event";
    case StepKind::kStart:
      return "start";
    case StepKind::kFlow:
      return "flow";
    case StepKind::kReached:
      return "reached";
    case StepKind::kStopped:
      return "stopped";
  }
  return "unknown";
}

StepKind step(const model::System& model, Data& d, const SimulationOptions& options, double until) {
  // the messages are built only on failure: a step allocates nothing
  if (d.stopped) throw InvalidArgument("data", "the run has stopped (" + d.message + ")");
  if (!(until > d.t))
    throw InvalidArgument("until", "must be after data.t = " + format_number(d.t) + " (got " +
                                       format_number(until) + ")");
  d.events.clear();
  // events one step makes without growing the buffer (an impact with its touching set, a
  // chatter's closure and the modes it settles); more are kept too, by growing it
  if (d.keep_events && d.events.capacity() == 0) d.events.reserve(4 * kMaxContacts);
  Run run(model, d, options);
  if (!d.started) {
    run.begin_segment(SegmentKind::kNone);
    run.start();
    if (d.stopped) return StepKind::kStopped;
    return d.approaching >= 0 ? StepKind::kEvent : StepKind::kStart;
  }
  bool event = false;
  if (!d.ode.active) {
    model::CarriedMotion::Contacts stick{};
    if (run.can_fly()) {
      event = run.flight_phase(until);
    } else if (run.can_carry(stick)) {
      event = run.carried_phase(stick, until);
    } else {
      run.begin_ode_phase();
    }
  }
  if (d.ode.active) event = run.ode_step(until);
  // the guards between phases (a Runge–Kutta phase checks the wall clock between its steps)
  if (!d.ode.active) {
    if (!(d.q.allFinite() && d.qd.allFinite() && d.aux.allFinite()))
      run.stop(StopReason::kNonFinite, "the state became non-finite at t = " + format_number(d.t));
    run.check_wall_clock();
  }
  if (d.stopped) return StepKind::kStopped;
  if (event) return StepKind::kEvent;
  return d.t >= until ? StepKind::kReached : StepKind::kFlow;
}

void interpolate(const model::System& /*model*/, const Data& d, double t, VecQ& q, VecQ& qd,
                 VecA& aux) {
  const Segment& s = d.segment;
  switch (s.kind) {
    case SegmentKind::kFlight:
      d.shape.flight->flight(t - s.t0, s.q0, s.qd0, q, qd);
      aux = d.aux;
      return;
    case SegmentKind::kCarried:
      d.shape.carried->carry(s.stick, s.t0, s.q0, s.qd0, t - s.t0, q, qd);
      aux = d.aux;
      return;
    case SegmentKind::kRungeKutta:
      ode_state_at(d.ode, d.shape.nq, d.shape.num_aux, t, q, qd, aux);
      return;
    case SegmentKind::kNone:
      break;
  }
  q = s.q0;
  qd = s.qd0;
  aux = d.aux;
}

Sample sample_in_segment(const model::System& model, const Data& d, double t) {
  Sample s;
  s.t = t;
  interpolate(model, d, t, s.q, s.qd, s.aux);
  s.modes = d.segment.modes;
  s.energy = model.kinetic_energy(t, s.q, s.qd) + model.potential_energy(t, s.q);
  return s;
}

bool flight_apex(const model::System& m, const Data& d, Sample& out) {
  const Segment& s = d.segment;
  if (s.kind == SegmentKind::kRungeKutta) {
    const int y = d.shape.height;
    if (y < 0) return false;
    for (int c = 0; c < d.shape.num_contacts; ++c)
      if (s.modes[static_cast<std::size_t>(c)] != ContactMode::kOpen) return false;
    // rising at the step's start (a step that starts at the top, ẏ = 0, is not one more apex)
    {
      VecQ q, qd;
      VecA a;
      interpolate(m, d, s.t0, q, qd, a);
      if (!(qd(y) > 0.0)) return false;
    }
    bool found = false;
    const auto h = [y](double, const VecQ&, const VecQ& qd, const VecA&) {
      return integrate::ValueSlope{qd(y), std::numeric_limits<double>::quiet_NaN()};
    };
    const auto emit = [&](double t, int direction) {
      if (found || direction != -1) return;  // ẏ from > 0 to < 0: the top
      found = true;
      out = sample_in_segment(m, d, t);
    };
    segment_crossings(m, d, 8, h, emit);
    return found;
  }
  if (s.kind != SegmentKind::kFlight) return false;
  const model::ExactFlight& flight = *m.exact_flight();
  const double tau_apex = flight.apex_time(s.q0, s.qd0);
  if (!(tau_apex < s.tau)) return false;
  out = Sample();
  out.t = s.t0 + tau_apex;
  flight.flight(tau_apex, s.q0, s.qd0, out.q, out.qd);
  out.modes = s.modes;
  out.energy = m.kinetic_energy(out.t, out.q, out.qd) + m.potential_energy(out.t, out.q);
  return true;
}

void stop(Data& d, StopReason reason, std::string message) {
  if (d.stopped) return;
  d.ode.active = false;  // the state is the stepper's at data.t (the last step took it)
  d.stopped = true;
  d.reason = reason;
  d.message = std::move(message);
}

}  // namespace clatter::hybrid
