// Samples, events and the guards of a run (max events, Zeno, wall clock, cancellation).

#include "run.hpp"

namespace clatter::hybrid {

void Run::stop(StopReason r, std::string message) {
  if (stopped_) return;
  stopped_ = true;
  res_.reason = r;
  res_.message = std::move(message);
}

void Run::check_wall_clock() {
  if (stopped_) return;
  if (rec_ && !rec_->keep_going()) {
    stop(StopReason::kCancelled, "cancelled at t = " + format_number(t_));
    return;
  }
  if (o_.max_wall_time <= 0.0 || ++phases_ % tol::kWallClockCheckEvery != 0) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
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

// sample times are t₀ + k·Δt (no accumulated round-off)
double Run::next_sample_time() const {
  if (!(o_.output_dt > 0.0)) return std::numeric_limits<double>::infinity();
  const double t = t_first_sample_ + static_cast<double>(sample_index_) * o_.output_dt;
  return t <= o_.t_end ? t : std::numeric_limits<double>::infinity();
}

Sample Run::sample_at(double t, const VecQ& q, const VecQ& qd, const VecA& aux) const {
  Sample s;
  s.t = t;
  s.q = q;
  s.qd = qd;
  s.aux = aux;
  s.modes = modes_;
  s.energy = energy_at(t, q, qd);
  return s;
}

void Run::emit_sample(double t, const VecQ& q, const VecQ& qd, const VecA& aux) {
  if (rec_) rec_->on_sample(sample_at(t, q, qd, aux));
}

// a located crossing of the coordinate section, in the direction asked for
void Run::emit_crossing(double t, const VecQ& q, const VecQ& qd, const VecA& aux) {
  if (t <= o_.t_end) rec_->on_section(sample_at(t, q, qd, aux));
}

bool Run::count_event() {
  ++res_.events;
  if (res_.events >= o_.max_events) {
    stop(StopReason::kMaxEvents, "stopped after max_events = " + std::to_string(o_.max_events) +
                                     " events at t = " + format_number(t_));
    return false;
  }
  // Zeno guard: the oldest of the last zeno_events event times
  const double oldest = zeno_ring_[zeno_pos_];
  zeno_ring_[zeno_pos_] = t_;
  zeno_pos_ = (zeno_pos_ + 1) % zeno_ring_.size();
  if (t_ - oldest < o_.zeno_window) {
    stop(StopReason::kZeno,
         std::to_string(o_.zeno_events) + " events within " + format_number(o_.zeno_window) +
             " s before t = " + format_number(t_) + " (accumulation not resolved)");
    return false;
  }
  return true;
}

void Run::record(EventKind kind, int c, const Vec2& v_pre, const Vec2& v_post) {
  if (!rec_ || !o_.record_events) return;
  EventRecord e;
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
  rec_->on_event(e);
}

void Run::record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                        double t_accumulation) {
  if (kind == EventKind::kImpact) ++res_.impacts;
  L_.impact_loss -= r.outcome.delta_energy;
  L_.surface_work += r.surface_work;
  if (!rec_ || !o_.record_events) return;
  EventRecord e;
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
  rec_->on_event(e);
}

}  // namespace clatter::hybrid
