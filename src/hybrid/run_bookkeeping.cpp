// Events and the guards of a run (max events, Zeno, wall clock); the Run view over Data.

#include <algorithm>

#include "run.hpp"

namespace clatter::hybrid {

Run::Run(const model::System& model, Data& data, const SimulationOptions& options)
    : m_(model), o_(options), d_(data) {}

void Run::stop(StopReason r, std::string message) {
  if (d_.stopped) return;
  d_.stopped = true;
  d_.reason = r;
  d_.message = std::move(message);
}

void Run::check_wall_clock() {
  if (d_.stopped) return;
  if (o_.max_wall_time <= 0.0 || ++d_.phases % tol::kWallClockCheckEvery != 0) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - d_.wall_start).count();
  if (elapsed > o_.max_wall_time)
    stop(StopReason::kWallTime,
         "wall-clock limit max_wall_time = " + format_number(o_.max_wall_time) +
             " s reached at t = " + format_number(d_.t));
}

bool Run::all_open() const {
  for (int c = 0; c < d_.shape.num_contacts; ++c)
    if (is_closed(d_.modes[idx(c)])) return false;
  return true;
}

void Run::begin_segment(SegmentKind kind) {
  Segment& s = d_.segment;
  s.kind = kind;
  s.t0 = d_.t;
  s.t1 = d_.t;
  // a plain copy of n doubles: Eigen's assignment of a runtime-sized vector costs several times
  // more here, once per flight (callgrind, engine_bench BM_BallTable)
  const Eigen::Index n = d_.q.size();
  s.q0.resize(n);
  s.qd0.resize(n);
  std::copy_n(d_.q.data(), n, s.q0.data());
  std::copy_n(d_.qd.data(), n, s.qd0.data());
  s.modes = d_.modes;
}

bool Run::count_event() {
  ++d_.counters.events;
  if (d_.counters.events >= o_.max_events) {
    stop(StopReason::kMaxEvents, "stopped after max_events = " + std::to_string(o_.max_events) +
                                     " events at t = " + format_number(d_.t));
    return false;
  }
  // Zeno guard: the oldest of the last zeno_events event times
  const double oldest = d_.zeno_ring[d_.zeno_pos];
  d_.zeno_ring[d_.zeno_pos] = d_.t;
  d_.zeno_pos = (d_.zeno_pos + 1) % d_.zeno_ring.size();
  if (d_.t - oldest < o_.zeno_window) {
    stop(StopReason::kZeno,
         std::to_string(o_.zeno_events) + " events within " + format_number(o_.zeno_window) +
             " s before t = " + format_number(d_.t) + " (accumulation not resolved)");
    return false;
  }
  return true;
}

void Run::record(EventKind kind, int c, const Vec2& v_pre, const Vec2& v_post) {
  if (!d_.keep_events) return;
  EventRecord& e = d_.events.emplace_back();
  e.t = d_.t;
  e.kind = kind;
  e.contact = c;
  e.mode_after = c >= 0 ? d_.modes[idx(c)] : ContactMode::kOpen;
  e.q = d_.q;
  e.qd_pre = d_.qd;
  e.qd_post = d_.qd;
  e.aux = d_.aux;
  e.modes = d_.modes;
  e.v_pre = v_pre;
  e.v_post = v_post;
  e.energy = energy();
}

void Run::record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                        double t_accumulation) {
  if (kind == EventKind::kImpact) ++d_.counters.impacts;
  d_.energy.impact_loss -= r.outcome.delta_energy;
  d_.energy.surface_work += r.surface_work;
  if (!d_.keep_events) return;
  EventRecord& e = d_.events.emplace_back();
  e.t = d_.t;
  e.kind = kind;
  e.contact = g.c;
  e.other = g.j;
  e.mode_after = d_.modes[idx(g.c)];
  e.q = d_.q;
  e.qd_pre = r.qd_pre;
  e.qd_post = d_.qd;
  e.aux = d_.aux;
  e.modes = d_.modes;
  e.region = r.outcome.region;
  e.brach_case = r.outcome.brach_case;
  e.status = r.outcome.status;
  e.v_pre = r.v_pre;
  e.v_post = r.outcome.v_post;
  e.Lambda = r.outcome.Lambda;
  e.delta_energy = r.outcome.delta_energy;
  e.energy = energy();
  e.t_accumulation = t_accumulation;
}

}  // namespace clatter::hybrid
