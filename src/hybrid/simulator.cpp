// simulate(): a loop over step() to t_end, and the relay that passes each step's samples,
// sections and events to a Recorder in time order (simulator.hpp).

#include "clatter/hybrid/simulator.hpp"

#include <cmath>
#include <limits>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/segment_sections.hpp"

namespace clatter::hybrid {

const char* to_string(StopReason r) { return name_of(r); }

namespace {

// what a Recorder receives from each step: the samples in the segment, its sections, its events
class Relay {
 public:
  Relay(const model::System& m, Data& d, const SimulationOptions& o, Recorder& rec)
      : m_(m), d_(d), o_(o), rec_(rec), t_first_(d.t) {}

  void initial_sample() { rec_.on_sample(sample_in_segment(m_, d_, d_.t)); }

  // the step just taken
  void pass_on() {
    samples();
    if (o_.section == Section::kApex) apex();
    if (o_.section == Section::kCrossing) crossings();
    for (const EventRecord& e : d_.events) rec_.on_event(e);
  }

 private:
  // sample times are t₀ + k·Δt (no accumulated round-off)
  [[nodiscard]] double next_sample_time() const {
    if (!(o_.output_dt > 0.0)) return std::numeric_limits<double>::infinity();
    const double t = t_first_ + static_cast<double>(index_) * o_.output_dt;
    return t <= o_.t_end ? t : std::numeric_limits<double>::infinity();
  }

  void samples() {
    if (d_.segment.kind == SegmentKind::kNone) return;
    for (double ts = next_sample_time(); ts <= d_.segment.t1; ts = next_sample_time()) {
      rec_.on_sample(sample_in_segment(m_, d_, ts));
      ++index_;
    }
  }

  void apex() {
    Sample apex;
    if (flight_apex(m_, d_, apex) && apex.t <= o_.t_end) rec_.on_section(apex);
  }

  void crossings() {
    const int i = o_.crossing_coordinate;
    const double c = o_.crossing_value;
    const auto emit = [&](const Sample& s, int) {
      if (s.t <= o_.t_end) rec_.on_section(s);
    };
    if (!coordinate_crossings(m_, d_, i, c, o_.crossing_direction, o_.event_samples, emit)) {
      stop(d_, StopReason::kEventLocation,
           "the crossing of " + m_.coordinate_names()[static_cast<std::size_t>(i)] + " = " +
               format_number(c) + " was not located from t = " + format_number(d_.segment.t0) +
               " (evaluation budget exhausted)");
    }
  }

  const model::System& m_;
  Data& d_;
  const SimulationOptions& o_;
  Recorder& rec_;
  double t_first_;
  long index_{1};
};

}  // namespace

const char* integrators_used(const SimulationResult& r) {
  if (r.rk_steps == 0) return "none";
  if (r.dop853_steps == 0) return "dopri5";
  return r.dop853_steps == r.rk_steps ? "dop853" : "dop853+dopri5";
}

SimulationResult result_of(const model::System& model, const Data& d, double t_end) {
  SimulationResult res;
  if (d.stopped) {
    res.reason = d.reason;
    res.message = d.message;
  } else {
    res.reason = StopReason::kEndTime;
    res.message = "reached t_end = " + format_number(t_end);
  }
  res.t = d.t;
  res.q = d.q;
  res.qd = d.qd;
  res.aux = d.aux;
  res.modes = d.modes;
  const Counters& c = d.counters;
  res.events = c.events;
  res.impacts = c.impacts;
  res.rk_steps = c.rk_steps;
  res.dop853_steps = c.dop853_steps;
  res.rhs_evaluations = c.rhs_evaluations;
  res.gap_evaluations = c.gap_evaluations;
  res.carried_phases = c.carried_phases;
  res.force_evaluations = c.force_evaluations;
  res.chatter_sequences = c.chatter_sequences;
  res.multipoint_fallbacks = c.multipoint_fallbacks;
  res.max_gap_drift = c.max_gap_drift;
  res.max_velocity_drift = c.max_velocity_drift;
  res.energy = d.energy;
  res.energy.kinetic = model.kinetic_energy(d.t, d.q, d.qd);
  res.energy.potential = model.potential_energy(d.t, d.q);
  return res;
}

SimulationResult simulate(const model::System& model, const InitialState& init,
                          const SimulationOptions& options, Recorder* recorder) {
  Data d = make_data(model, init, options);
  d.keep_events = recorder != nullptr && options.record_events;
  if (recorder == nullptr) {
    while (!d.stopped && d.t < options.t_end) step(model, d, options, options.t_end);
    return result_of(model, d, options.t_end);
  }
  Relay relay(model, d, options, *recorder);
  relay.initial_sample();
  while (!d.stopped && d.t < options.t_end) {
    step(model, d, options, options.t_end);
    relay.pass_on();
    if (!d.stopped && !recorder->keep_going())
      stop(d, StopReason::kCancelled, "cancelled at t = " + format_number(d.t));
  }
  return result_of(model, d, options.t_end);
}

}  // namespace clatter::hybrid
