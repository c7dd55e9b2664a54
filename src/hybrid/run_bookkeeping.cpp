// Events and the guards of a run (max events, Zeno, wall clock); the Run view over Data.

#include "run.hpp"

namespace clatter::hybrid {

Run::Run(const model::System& model, Data& data, const SimulationOptions& options)
    : m_(model),
      flight_(data.shape.flight),
      carried_(data.shape.carried),
      symmetry_(data.shape.symmetry),
      o_(options),
      nq_(data.shape.nq),
      na_(data.shape.num_aux),
      nc_(data.shape.num_contacts),
      d_(data),
      t_(data.t),
      q_(data.q),
      qd_(data.qd),
      aux_(data.aux),
      closed_(data.closed_at_start),
      modes_(data.modes),
      released_(data.released),
      chatter_end_(data.chatter_end),
      chatter_skip_(data.chatter_skip),
      chatter_last_v_(data.chatter_last_v),
      geometry_(data.geometry),
      mass_(data.mass),
      cd_(data.cd),
      L_(data.energy),
      res_(data.counters),
      ode_(data.ode),
      lambda_tol_(data.lambda_tol),
      stopped_(data.stopped) {}

void Run::stop(StopReason r, std::string message) {
  if (stopped_) return;
  stopped_ = true;
  d_.reason = r;
  d_.message = std::move(message);
}

void Run::check_wall_clock() {
  if (stopped_) return;
  if (o_.max_wall_time <= 0.0 || ++d_.phases % tol::kWallClockCheckEvery != 0) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - d_.wall_start).count();
  if (elapsed > o_.max_wall_time)
    stop(StopReason::kWallTime,
         "wall-clock limit max_wall_time = " + format_number(o_.max_wall_time) +
             " s reached at t = " + format_number(t_));
}

bool Run::all_open() const {
  for (int c = 0; c < nc_; ++c)
    if (is_closed(modes_[idx(c)])) return false;
  return true;
}

void Run::begin_segment(SegmentKind kind) {
  Segment& s = d_.segment;
  s.kind = kind;
  s.t0 = t_;
  s.t1 = t_;
  s.q0 = q_;
  s.qd0 = qd_;
  s.modes = modes_;
}

bool Run::count_event() {
  ++res_.events;
  if (res_.events >= o_.max_events) {
    stop(StopReason::kMaxEvents, "stopped after max_events = " + std::to_string(o_.max_events) +
                                     " events at t = " + format_number(t_));
    return false;
  }
  // Zeno guard: the oldest of the last zeno_events event times
  const double oldest = d_.zeno_ring[d_.zeno_pos];
  d_.zeno_ring[d_.zeno_pos] = t_;
  d_.zeno_pos = (d_.zeno_pos + 1) % d_.zeno_ring.size();
  if (t_ - oldest < o_.zeno_window) {
    stop(StopReason::kZeno,
         std::to_string(o_.zeno_events) + " events within " + format_number(o_.zeno_window) +
             " s before t = " + format_number(t_) + " (accumulation not resolved)");
    return false;
  }
  return true;
}

void Run::record(EventKind kind, int c, const Vec2& v_pre, const Vec2& v_post) {
  if (!d_.keep_events) return;
  EventRecord& e = d_.events.emplace_back();
  e.t = t_;
  e.kind = kind;
  e.contact = c;
  e.mode_after = c >= 0 ? modes_[idx(c)] : ContactMode::kOpen;
  e.q = q_;
  e.qd_pre = qd_;
  e.qd_post = qd_;
  e.aux = aux_;
  e.modes = modes_;
  e.v_pre = v_pre;
  e.v_post = v_post;
  e.energy = energy();
}

void Run::record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                        double t_accumulation) {
  if (kind == EventKind::kImpact) ++res_.impacts;
  L_.impact_loss -= r.outcome.delta_energy;
  L_.surface_work += r.surface_work;
  if (!d_.keep_events) return;
  EventRecord& e = d_.events.emplace_back();
  e.t = t_;
  e.kind = kind;
  e.contact = g.c;
  e.other = g.j;
  e.mode_after = modes_[idx(g.c)];
  e.q = q_;
  e.qd_pre = r.qd_pre;
  e.qd_post = qd_;
  e.aux = aux_;
  e.modes = modes_;
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
