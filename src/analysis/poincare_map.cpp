#include "clatter/analysis/poincare_map.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

namespace {

std::array<bool, model::kMaxContacts> closed_of(const hybrid::Modes& modes) {
  std::array<bool, model::kMaxContacts> c{};
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = hybrid::is_closed(modes[i]);
  return c;
}

// stops the run at the first event matching the section, keeping it and those before
class EventStop final : public hybrid::Recorder {
 public:
  EventStop(const PoincareSection& s, double after) : s_(s), after_(after) {}
  void on_event(const hybrid::EventRecord& e) override {
    if (hit) return;
    passed.push_back(e);
    const hybrid::EventKind want =
        s_.kind == PoincareKind::kImpact ? hybrid::EventKind::kImpact : s_.event;
    if (e.t > after_ && e.kind == want && (s_.contact < 0 || e.contact == s_.contact)) {
      hit = true;
      at = e;
    }
  }
  bool keep_going() override { return !hit; }
  bool hit{false};
  hybrid::EventRecord at;
  std::vector<hybrid::EventRecord> passed;

 private:
  const PoincareSection& s_;
  double after_;
};

// samples until the component crosses the value in the direction
class CrossingStop final : public hybrid::Recorder {
 public:
  CrossingStop(const model::System& m, const PoincareSection& s, double after)
      : m_(m), s_(s), after_(after) {}
  void on_event(const hybrid::EventRecord& e) override {
    if (!hit) passed.push_back(e);
  }
  void on_sample(const hybrid::Sample& smp) override {
    if (hit) return;
    const StateVector x = pack_state(m_, smp.q, smp.qd, smp.aux);
    const double h = x(s_.component) - s_.value;
    if (have_prev && smp.t > after_) {
      const bool rising = prev_h < 0.0 && h >= 0.0;
      const bool falling = prev_h > 0.0 && h <= 0.0;
      if ((s_.direction >= 0 && rising) || (s_.direction <= 0 && falling)) {
        hit = true;
        passed_before = passed.size();
        return;
      }
    }
    prev = smp;
    prev_h = h;
    have_prev = true;
  }
  bool keep_going() override { return !hit; }
  bool hit{false};
  bool have_prev{false};
  hybrid::Sample prev;  // the last sample before the crossing
  double prev_h{0.0};
  std::vector<hybrid::EventRecord> passed;
  std::size_t passed_before{0};

 private:
  const model::System& m_;
  const PoincareSection& s_;
  double after_;
};

// the engine's coordinate-crossing section (hybrid::Section::kCrossing): the first crossing
// strictly after `after`, and the events before it
class EngineCrossingStop final : public hybrid::Recorder {
 public:
  explicit EngineCrossingStop(double after) : after_(after) {}
  void on_event(const hybrid::EventRecord& e) override {
    if (!hit) passed.push_back(e);
  }
  void on_section(const hybrid::Sample& s) override {
    // a start on the section (the previous crossing, to round-off) is not the next crossing
    if (hit || !(s.t - after_ > 1e-12 * (1.0 + std::abs(s.t)))) return;
    hit = true;
    at = s;
  }
  bool keep_going() override { return !hit; }
  bool hit{false};
  hybrid::Sample at;
  std::vector<hybrid::EventRecord> passed;

 private:
  double after_;
};

}  // namespace

void validate(const PoincareSection& s, const model::System& m) {
  require(s.contact >= -1 && s.contact < m.num_contacts(), "section.contact",
          "must be a contact of the model or -1 (any)");
  if (s.kind == PoincareKind::kPhase) {
    const double omega = m.parameter(s.frequency);
    require(std::isfinite(omega) && omega > 0.0, "section.frequency",
            "the forcing frequency must be > 0", omega);
    require(std::isfinite(s.phase), "section.phase", "must be finite");
  }
  if (s.kind == PoincareKind::kCrossing) {
    require(s.component >= 0 && s.component < state_dimension(m), "section.component",
            "must be a state component of the model");
    require(std::isfinite(s.value), "section.value", "must be finite");
    require(s.direction >= -1 && s.direction <= 1, "section.direction", "must be -1, 0 or 1");
    require(std::isfinite(s.sample_dt) && s.sample_dt > 0.0, "section.sample_dt", "must be > 0",
            s.sample_dt);
  }
}

SectionPoint next_crossing(const model::System& m, const hybrid::SimulationOptions& options,
                           const PoincareSection& section, const hybrid::InitialState& from,
                           double t_max) {
  validate(section, m);
  require(t_max > from.t, "t_max", "must be after the start");
  SectionPoint out;
  hybrid::SimulationOptions o = options;
  o.record_events = true;
  o.output_dt = 0.0;
  o.t_end = t_max;
  const auto fail = [&](std::string why) {
    out.found = false;
    out.message = std::move(why);
    return out;
  };

  if (section.kind == PoincareKind::kPhase) {
    const double omega = m.parameter(section.frequency);
    const double Tf = 2.0 * std::numbers::pi / omega;
    double t = section.phase / omega;
    t += std::floor((from.t - t) / Tf + 1.0) * Tf;  // strictly after from.t
    if (t - from.t < 1e-12 * (1.0 + std::abs(t))) t += Tf;
    if (t > t_max) return fail("no section time before t_max");
    o.t_end = t;
    EventStop none(section, std::numeric_limits<double>::infinity());
    const hybrid::SimulationResult r = hybrid::simulate(m, from, o, &none);
    if (r.reason != hybrid::StopReason::kEndTime) return fail(r.message);
    out.found = true;
    out.t = r.t;
    out.x = pack_state(m, r.q, r.qd, r.aux);
    out.closed = closed_of(r.modes);
    out.passed = std::move(none.passed);
    return out;
  }

  if (section.kind == PoincareKind::kImpact || section.kind == PoincareKind::kEvent) {
    EventStop stop(section, from.t);
    const hybrid::SimulationResult r = hybrid::simulate(m, from, o, &stop);
    if (!stop.hit)
      return fail(r.reason == hybrid::StopReason::kEndTime ? "no crossing before t_max"
                                                           : r.message);
    out.found = true;
    out.t = stop.at.t;
    out.x = pack_state(m, stop.at.q, stop.at.qd_post, stop.at.aux);
    out.closed = closed_of(stop.at.modes);
    out.passed = std::move(stop.passed);
    return out;
  }

  // a coordinate: the engine's own crossing section, located in every phase (exact flights and
  // carried motion by the guaranteed search, Runge–Kutta phases on the interpolant)
  if (section.component < m.nq()) {
    o.section = hybrid::Section::kCrossing;
    o.crossing_coordinate = section.component;
    o.crossing_value = section.value;
    o.crossing_direction = section.direction;
    EngineCrossingStop stop(from.t);
    const hybrid::SimulationResult r = hybrid::simulate(m, from, o, &stop);
    if (!stop.hit)
      return fail(r.reason == hybrid::StopReason::kEndTime ? "no crossing before t_max"
                                                           : r.message);
    out.found = true;
    out.t = stop.at.t;
    out.x = pack_state(m, stop.at.q, stop.at.qd, stop.at.aux);
    out.closed = closed_of(stop.at.modes);
    // the events before the crossing (the run may report some of its phase's later ones)
    for (hybrid::EventRecord& e : stop.passed)
      if (e.t <= out.t) out.passed.push_back(std::move(e));
    return out;
  }

  // a velocity or an auxiliary state: bracket on samples, then bisection on re-runs from the last
  // sample before it
  o.output_dt = section.sample_dt;
  CrossingStop stop(m, section, from.t);
  const hybrid::SimulationResult r = hybrid::simulate(m, from, o, &stop);
  if (!stop.hit)
    return fail(r.reason == hybrid::StopReason::kEndTime ? "no crossing before t_max" : r.message);
  hybrid::InitialState lo(stop.prev.t, stop.prev.q, stop.prev.qd, stop.prev.aux);
  lo.closed = closed_of(stop.prev.modes);
  double a = 0.0, b = section.sample_dt;
  hybrid::SimulationOptions ob = options;
  ob.output_dt = 0.0;
  ob.record_events = false;
  hybrid::SimulationResult at_b;
  bool have_b = false;
  for (int it = 0; it < 80 && b - a > 1e-12 * (1.0 + std::abs(lo.t)); ++it) {
    const double mid = 0.5 * (a + b);
    ob.t_end = lo.t + mid;
    const hybrid::SimulationResult rm = hybrid::simulate(m, lo, ob, nullptr);
    if (rm.reason != hybrid::StopReason::kEndTime) return fail(rm.message);
    const double h = pack_state(m, rm.q, rm.qd, rm.aux)(section.component) - section.value;
    if ((stop.prev_h < 0.0) != (h < 0.0) || h == 0.0) {
      b = mid;
      at_b = rm;
      have_b = true;
    } else {
      a = mid;
    }
  }
  if (!have_b) {
    ob.t_end = lo.t + b;
    at_b = hybrid::simulate(m, lo, ob, nullptr);
  }
  out.found = true;
  out.t = at_b.t;
  out.x = pack_state(m, at_b.q, at_b.qd, at_b.aux);
  out.closed = closed_of(at_b.modes);
  out.passed.assign(stop.passed.begin(),
                    stop.passed.begin() + static_cast<std::ptrdiff_t>(stop.passed_before));
  return out;
}

std::vector<SectionPoint> poincare_sequence(const model::System& m,
                                            const hybrid::SimulationOptions& options,
                                            const PoincareSection& section,
                                            const hybrid::InitialState& from, int count,
                                            double t_max) {
  require(count >= 1 && count <= 100000000, "count", "must lie in [1, 1e8]");
  std::vector<SectionPoint> out;
  hybrid::InitialState s = from;
  for (int k = 0; k < count; ++k) {
    SectionPoint p = next_crossing(m, options, section, s, t_max);
    const bool found = p.found;
    if (found) {
      s = hybrid::InitialState();
      s.t = p.t;
      unpack_state(m, p.x, s.q, s.qd, s.aux);
      s.closed = p.closed;
    }
    out.push_back(std::move(p));
    if (!found) break;
  }
  return out;
}

}  // namespace clatter::analysis
