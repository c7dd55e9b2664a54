#include "clatter/analysis/poincare_map.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/segment_sections.hpp"

namespace clatter::analysis {

namespace {

std::array<bool, model::kMaxContacts> closed_of(const hybrid::Modes& modes) {
  std::array<bool, model::kMaxContacts> c{};
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = hybrid::is_closed(modes[i]);
  return c;
}

hybrid::SimulationOptions walker_options(const model::System& m,
                                         const hybrid::SimulationOptions& options,
                                         const PoincareSection& section,
                                         const hybrid::InitialState& from, double t_max) {
  validate(section, m);
  require(t_max > from.t, "t_max", "must be after the start");
  hybrid::SimulationOptions o = options;
  o.record_events = true;
  o.output_dt = 0.0;
  o.section = hybrid::Section::kNone;
  o.t_end = t_max;
  return o;
}

SectionPoint not_found(std::string why) {
  SectionPoint out;
  out.found = false;
  out.message = std::move(why);
  return out;
}

}  // namespace

void validate(const PoincareSection& s, const model::System& m) {
  require(s.contact >= -1 && s.contact < m.num_contacts(), "section.contact",
          "must be a contact of the model or -1 (any)");
  if (s.kind == PoincareKind::kPhase) {
    require(m.parameters().has(s.frequency), "section.frequency",
            "the phase section needs the forcing frequency, and the model " +
                std::string(m.kind()) + " has no parameter " + s.frequency +
                ": name the one that holds it (CLI --frequency NAME, Python frequency=NAME)");
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

PoincareWalker::PoincareWalker(const model::System& m, const hybrid::SimulationOptions& options,
                               const PoincareSection& section, const hybrid::InitialState& from,
                               double t_max)
    : m_(m),
      options_(walker_options(m, options, section, from, t_max)),
      section_(section),
      t_max_(t_max),
      data_(hybrid::make_data(m, from, options_)) {}

void PoincareWalker::queue(SectionPoint p) {
  p.found = true;
  p.passed = std::move(pending_);
  pending_.clear();
  ready_.push_back(std::move(p));
}

// one step, and the crossings it contains: those on its segment first (the motion before the
// step's events), then its events
void PoincareWalker::take_step() {
  (void)hybrid::step(m_, data_, options_, t_max_);
  const hybrid::Segment& seg = data_.segment;
  const auto point_at = [&](double t, const model::VecQ& q, const model::VecQ& qd,
                            const model::VecA& a) {
    SectionPoint p;
    p.t = t;
    p.x = pack_state(m_, q, qd, a);
    p.closed = closed_of(seg.modes);
    queue(std::move(p));
  };
  if (section_.kind == PoincareKind::kCrossing && section_.component < m_.nq()) {
    const auto emit = [&](const hybrid::Sample& s, int) { point_at(s.t, s.q, s.qd, s.aux); };
    if (!hybrid::coordinate_crossings(m_, data_, section_.component, section_.value,
                                      section_.direction, options_.event_samples, emit)) {
      hybrid::stop(data_, hybrid::StopReason::kEventLocation,
                   "the crossing of " +
                       state_names(m_)[static_cast<std::size_t>(section_.component)] + " = " +
                       format_number(section_.value) + " was not located from t = " +
                       format_number(seg.t0) + " (evaluation budget exhausted)");
    }
  } else if (section_.kind == PoincareKind::kCrossing && seg.kind != hybrid::SegmentKind::kNone) {
    // a velocity or an auxiliary state: no slope known; the segment sampled every sample_dt
    const int i = section_.component;
    const auto h = [&](double, const model::VecQ& q, const model::VecQ& qd, const model::VecA& a) {
      return integrate::ValueSlope{pack_state(m_, q, qd, a)(i) - section_.value,
                                   std::numeric_limits<double>::quiet_NaN()};
    };
    model::VecQ q, qd;
    model::VecA a;
    const auto emit = [&](double t, int direction) {
      if (section_.direction != 0 && direction != section_.direction) return;
      hybrid::interpolate(m_, data_, t, q, qd, a);
      point_at(t, q, qd, a);
    };
    const double spans = std::ceil((seg.t1 - seg.t0) / section_.sample_dt);
    const int samples =
        static_cast<int>(std::clamp(spans, static_cast<double>(options_.event_samples), 1e8));
    hybrid::segment_crossings(m_, data_, samples, h, emit);
  }
  const hybrid::EventKind want =
      section_.kind == PoincareKind::kImpact ? hybrid::EventKind::kImpact : section_.event;
  const bool on_events =
      section_.kind == PoincareKind::kImpact || section_.kind == PoincareKind::kEvent;
  const std::vector<hybrid::EventRecord>& ev = data_.events;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const hybrid::EventRecord& e = ev[i];
    pending_.push_back(e);
    if (!on_events || e.kind != want || (section_.contact >= 0 && e.contact != section_.contact))
      continue;
    // the rows of one instant (the events of a multi-point collision, impacts resolved one
    // after the other) are one crossing per contact, with the state the instant leaves: that of
    // its last row (earlier rows hold intermediate states)
    std::size_t last = i;
    bool repeated = false;
    for (std::size_t k = i + 1; k < ev.size() && ev[k].t == e.t; ++k) {
      last = k;
      repeated = repeated || (ev[k].kind == want && ev[k].contact == e.contact);
    }
    if (repeated) continue;
    SectionPoint p;
    p.t = e.t;
    p.x = pack_state(m_, ev[last].q, ev[last].qd_post, ev[last].aux);
    p.closed = closed_of(ev[last].modes);
    queue(std::move(p));
  }
}

SectionPoint PoincareWalker::next(double after) {
  if (section_.kind == PoincareKind::kPhase) {
    // the next time ω t ≡ φ_s (mod 2π) strictly after `after`, reached by a target time
    const double omega = m_.parameter(section_.frequency);
    const double Tf = 2.0 * std::numbers::pi / omega;
    double t = section_.phase / omega;
    t += std::floor((after - t) / Tf + 1.0) * Tf;
    if (t - after < 1e-12 * (1.0 + std::abs(t))) t += Tf;
    if (t > t_max_) return not_found("no section time before t_max");
    while (!data_.stopped && data_.t < t) {
      (void)hybrid::step(m_, data_, options_, t);
      pending_.insert(pending_.end(), data_.events.begin(), data_.events.end());
    }
    if (data_.stopped) return not_found(data_.message);
    SectionPoint p;
    p.found = true;
    p.t = data_.t;
    p.x = pack_state(m_, data_.q, data_.qd, data_.aux);
    p.closed = closed_of(data_.modes);
    p.passed = std::move(pending_);
    pending_.clear();
    return p;
  }
  const bool on_events =
      section_.kind == PoincareKind::kImpact || section_.kind == PoincareKind::kEvent;
  std::vector<hybrid::EventRecord> skipped;  // events of crossings not after `after`
  for (;;) {
    while (next_ready_ < ready_.size()) {
      SectionPoint& p = ready_[next_ready_++];
      // a start on the section (the previous crossing, to round-off) is not the next crossing
      const bool later = on_events ? p.t > after : p.t - after > 1e-12 * (1.0 + std::abs(p.t));
      if (!later) {
        skipped.insert(skipped.end(), p.passed.begin(), p.passed.end());
        continue;
      }
      p.passed.insert(p.passed.begin(), skipped.begin(), skipped.end());
      return std::move(p);
    }
    ready_.clear();
    next_ready_ = 0;
    if (data_.stopped) return not_found(data_.message);
    if (data_.t >= t_max_) return not_found("no crossing before t_max");
    take_step();
  }
}

SectionPoint next_crossing(const model::System& m, const hybrid::SimulationOptions& options,
                           const PoincareSection& section, const hybrid::InitialState& from,
                           double t_max) {
  PoincareWalker walker(m, options, section, from, t_max);
  return walker.next(from.t);
}

std::vector<SectionPoint> poincare_sequence(const model::System& m,
                                            const hybrid::SimulationOptions& options,
                                            const PoincareSection& section,
                                            const hybrid::InitialState& from, int count,
                                            double t_max) {
  require(count >= 1 && count <= 100000000, "count", "must lie in [1, 1e8]");
  PoincareWalker walker(m, options, section, from, t_max);
  std::vector<SectionPoint> out;
  double after = from.t;
  for (int k = 0; k < count; ++k) {
    SectionPoint p = walker.next(after);
    const bool found = p.found;
    after = p.t;
    out.push_back(std::move(p));
    if (!found) break;
  }
  return out;
}

}  // namespace clatter::analysis
