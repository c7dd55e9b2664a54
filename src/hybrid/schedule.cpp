#include "clatter/hybrid/schedule.hpp"

#include <cmath>
#include <memory>

#include "clatter/core/error.hpp"

namespace clatter::hybrid {

SimulationResult simulate_scheduled(const model::System& model, const InitialState& init,
                                    const SimulationOptions& options,
                                    const std::vector<ParameterChange>& schedule,
                                    Recorder* recorder) {
  double t_prev = init.t;
  for (const ParameterChange& c : schedule) {
    require(std::isfinite(c.t) && c.t >= t_prev && c.t <= options.t_end, "schedule.t",
            "change times must increase within [t0, t_end], got " + format_number(c.t));
    t_prev = c.t;
  }
  // every change is checked (name, value) before anything runs or is recorded
  {
    std::unique_ptr<model::System> check;
    for (const ParameterChange& c : schedule)
      check = (check ? *check : model).with_parameter(c.name, c.value);
  }
  const model::System* m = &model;
  std::unique_ptr<model::System> owned;
  InitialState state = init;
  SimulationResult total;
  bool first = true;
  std::size_t next = 0;
  for (;;) {
    // apply every change due now
    while (next < schedule.size() && schedule[next].t <= state.t) {
      const ParameterChange& c = schedule[next++];
      const double E_before =
          m->kinetic_energy(state.t, state.q, state.qd) + m->potential_energy(state.t, state.q);
      owned = m->with_parameter(c.name, c.value);
      m = owned.get();
      const double E_after =
          m->kinetic_energy(state.t, state.q, state.qd) + m->potential_energy(state.t, state.q);
      if (!first) total.energy.reset += E_after - E_before;
      if (recorder && options.record_events) {
        EventRecord e;
        e.t = state.t;
        e.kind = EventKind::kParameterChange;
        e.q = state.q;
        e.qd_pre = e.qd_post = state.qd;
        e.energy = E_after;
        recorder->on_event(e);
      }
    }
    SimulationOptions o = options;
    o.t_end = next < schedule.size() ? schedule[next].t : options.t_end;
    if (o.t_end <= state.t) {
      if (next < schedule.size()) continue;  // a change at the same time as the previous one
      break;                                 // the last change falls on t_end
    }
    const SimulationResult r = simulate(*m, state, o, recorder);
    if (first) {
      total.energy.initial = r.energy.initial;
      first = false;
    }
    total.energy.applied_work += r.energy.applied_work;
    total.energy.surface_work += r.energy.surface_work;
    total.energy.impact_loss += r.energy.impact_loss;
    total.energy.friction_loss += r.energy.friction_loss;
    total.energy.reset += r.energy.reset;
    total.energy.kinetic = r.energy.kinetic;
    total.energy.potential = r.energy.potential;
    total.events += r.events;
    total.impacts += r.impacts;
    total.rk_steps += r.rk_steps;
    total.dop853_steps += r.dop853_steps;
    total.rhs_evaluations += r.rhs_evaluations;
    total.gap_evaluations += r.gap_evaluations;
    total.chatter_sequences += r.chatter_sequences;
    total.multipoint_fallbacks += r.multipoint_fallbacks;
    total.max_gap_drift = std::max(total.max_gap_drift, r.max_gap_drift);
    total.max_velocity_drift = std::max(total.max_velocity_drift, r.max_velocity_drift);
    total.reason = r.reason;
    total.message = r.message;
    total.t = r.t;
    total.q = r.q;
    total.qd = r.qd;
    total.aux = r.aux;
    total.modes = r.modes;
    const bool segment_end = next < schedule.size() && r.reason == StopReason::kEndTime;
    if (!segment_end) break;
    state.t = r.t;
    state.q = r.q;
    state.qd = r.qd;
    state.aux = r.aux;
    for (int c = 0; c < m->num_contacts(); ++c)
      state.closed[static_cast<std::size_t>(c)] = is_closed(r.modes[static_cast<std::size_t>(c)]);
  }
  if (total.reason == StopReason::kEndTime)
    total.message = "reached t_end = " + format_number(options.t_end);
  return total;
}

}  // namespace clatter::hybrid
