#include "clatter/app/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "clatter/core/error.hpp"

namespace clatter::app {

namespace {

void check_axes(const model::System& m, const std::string& kind,
                const std::vector<analysis::GridAxis>& axes) {
  require(!axes.empty(), "params", "give the values to sweep: a parameter NAME FROM TO N");
  require(axes.size() <= 2, "params", "at most two parameters, got " + std::to_string(axes.size()));
  if (axes.size() == 2)
    require(axes[0].name != axes[1].name, "params",
            "the two parameters must differ, got " + axes[1].name + " twice");
  const model::ParameterSet params = m.parameters();
  std::string known;
  for (const std::string& n : params.names()) known += (known.empty() ? "" : ", ") + n;
  for (const analysis::GridAxis& a : axes) {
    require(std::isfinite(a.from) && std::isfinite(a.to), "params",
            "FROM and TO of " + a.name + " must be finite numbers");
    require(a.n >= 1 && a.n <= 1000000, "params",
            "N of " + a.name + " must be an integer in [1, 1000000], got " + std::to_string(a.n));
    require(params.has(a.name) || a.name == "e" || a.name == "mu", "params",
            "the model " + kind + " has no parameter \"" + a.name + "\" (known: " + known + ")");
    for (const double v : {a.from, a.to}) {
      try {
        (void)m.with_parameter(a.name, v);
      } catch (const InvalidArgument& e) {
        throw InvalidArgument("params",
                              a.name + " = " + format_number(v) + " is not allowed: " + e.what());
      }
    }
  }
}

analysis::CarryOver carry_of(const std::string& c) {
  if (c == "none") return analysis::CarryOver::kNone;
  if (c == "up") return analysis::CarryOver::kUp;
  if (c == "down") return analysis::CarryOver::kDown;
  if (c == "both") return analysis::CarryOver::kBoth;
  throw InvalidArgument("carry_over", "must be none, up, down or both, got '" + c + "'");
}

void set_section(const model::System& m, const std::string& kind, const SweepRequest& r,
                 analysis::Observable& o) {
  require(r.section == "apex" || r.section == "impact" || r.section == "strobe" ||
              r.section == "crossing",
          "section", "must be apex, impact, strobe or crossing, got '" + r.section + "'");
  o.section = r.section == "impact"     ? analysis::SectionKind::kImpact
              : r.section == "strobe"   ? analysis::SectionKind::kStroboscopic
              : r.section == "crossing" ? analysis::SectionKind::kCrossing
                                        : analysis::SectionKind::kApex;
  if (o.section == analysis::SectionKind::kCrossing) {
    require(r.crossing.has_value(), "crossing",
            "the crossing section needs a coordinate NAME, a VALUE and a direction");
    const std::vector<std::string> names = m.coordinate_names();
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    require(std::find(names.begin(), names.end(), r.crossing->name) != names.end(), "crossing",
            "the model " + kind + " has no coordinate \"" + r.crossing->name +
                "\" (known: " + known + ")");
    require(std::isfinite(r.crossing->value), "crossing", "VALUE must be finite");
    require(r.crossing->direction >= -1 && r.crossing->direction <= 1, "crossing",
            "the direction must be up (+1), down (-1) or both (0)");
    o.crossing = r.crossing->name;
    o.crossing_value = r.crossing->value;
    o.crossing_direction = r.crossing->direction;
  } else {
    require(!r.crossing.has_value(), "crossing", "is for the crossing section");
  }
  o.quantity = !r.observe.empty()      ? r.observe
               : r.section == "impact" ? std::string("phase")
                                       : std::string("y");
  o.contact = r.contact;
  if (r.observe.empty() && o.quantity == "y") {
    try {
      (void)analysis::resolve(o, m, "observe");
    } catch (const InvalidArgument& e) {  // the default (a ball's apex) does not fit the model
      throw InvalidArgument(
          "observe", "the default, y at the " + r.section +
                         " section, is not a quantity of the model " + kind + " (" +
                         std::string(e.what()).substr(e.field().size() + 2) +
                         "): name what to record (CLI --observe QUANTITY, Python observe=) and "
                         "where (CLI --section apex|impact|strobe|crossing, Python section=)");
    }
    return;
  }
  (void)analysis::resolve(o, m, "observe");
}

// the forcing frequency where the sweep needs one (the periods clock, the stroboscopic section,
// the impact phase, the periodic shortcut), at each corner of the grid; returns the smallest
double smallest_omega(const model::System& m, const std::string& kind, const SweepRequest& r,
                      const analysis::ParameterSweep& sw) {
  const model::ParameterSet params = m.parameters();
  const bool needed = sw.clock == analysis::SweepClock::kPeriods || r.section == "strobe" ||
                      sw.observe.quantity == "phase" || sw.periodic.tol > 0.0;
  double omega_min = std::numeric_limits<double>::infinity();
  for (const int i0 : {0, sw.grid.extent(0) - 1})
    for (const int i1 : {0, sw.grid.extent(1) - 1}) {
      const std::size_t p = sw.grid.point(i0, i1);
      double w = params.has(r.period_parameter) ? params.get(r.period_parameter) : 0.0;
      bool swept = false;
      for (int k = 0; k < sw.grid.dimension(); ++k)
        if (r.axes[static_cast<std::size_t>(k)].name == r.period_parameter) {
          w = sw.grid.value(p, k);
          swept = true;
        }
      if (!needed) continue;
      if (!swept && !(w > 0.0)) {
        const char* field = sw.clock == analysis::SweepClock::kPeriods ? "clock"
                            : r.section == "strobe"                    ? "section"
                            : sw.observe.quantity == "phase"           ? "observe"
                                                                       : "periodic_tol";
        throw InvalidArgument(
            field,
            "the model " + kind + " is not forced (" +
                (params.has(r.period_parameter) ? r.period_parameter + " = " + format_number(w)
                                                : "no " + r.period_parameter) +
                "): " +
                (sw.clock == analysis::SweepClock::kPeriods
                     ? "name the parameter of its forcing frequency (CLI --frequency NAME, Python "
                       "period_parameter=NAME), or measure the transient and the record by "
                       "another clock: time, impacts[:CONTACT] or crossings"
                     : "this needs a forcing frequency: name its parameter (CLI --frequency "
                       "NAME, Python period_parameter=NAME)"));
      }
      require(std::isfinite(w) && w > 0.0, "params",
              r.period_parameter + " must stay > 0, got " + format_number(w));
      omega_min = std::min(omega_min, w);
    }
  return omega_min;
}

}  // namespace

SweepSetup make_sweep(const model::System& m, const std::string& kind,
                      const hybrid::InitialState& start, const hybrid::SimulationOptions& options,
                      const SweepRequest& r) {
  check_axes(m, kind, r.axes);
  SweepSetup out;
  analysis::ParameterSweep& sw = out.sweep;
  sw.grid = analysis::SweepGrid(r.axes);
  sw.carry = carry_of(r.carry_over);
  // an unforced model under the periods clock is told so before the section's defaults (a
  // model without y) are checked: the frequency is the first thing to name
  analysis::parse_clock(r.clock, m, "clock", sw.clock, sw.clock_contact);
  if (sw.clock == analysis::SweepClock::kPeriods) (void)smallest_omega(m, kind, r, sw);
  set_section(m, kind, r, sw.observe);
  require(std::isfinite(r.transient_periods) && r.transient_periods >= 0.0, "transient_periods",
          "must be a finite number >= 0", r.transient_periods);
  require(std::isfinite(r.record_periods) && r.record_periods > 0.0, "record_periods",
          "must be a finite number > 0", r.record_periods);
  require(r.threads >= 1 && r.threads <= 256, "threads", "must be an integer in [1, 256]",
          r.threads);
  if (r.periodic_tol)
    require(std::isfinite(*r.periodic_tol) && *r.periodic_tol >= 0.0 && *r.periodic_tol <= 1e-3,
            "periodic_tol", "must lie in [0, 1e-3] (0: every value runs in full)", *r.periodic_tol);
  sw.transient_periods = r.transient_periods;
  sw.record_periods = r.record_periods;
  // the periodic shortcut: on by default where the clock counts forcing periods
  sw.periodic.tol = r.periodic_tol ? *r.periodic_tol : analysis::default_periodic_tol(sw.clock);
  sw.periodic.check_stability = r.periodic_check;
  require(r.periodic_check || sw.periodic.tol > 0.0, "periodic_check",
          "turns off the periodic shortcut's stability check, which is off here (clock " + r.clock +
              ", or periodic_tol 0)");
  const bool events_clock =
      sw.clock == analysis::SweepClock::kImpacts || sw.clock == analysis::SweepClock::kCrossings;
  if (events_clock) {
    if (r.max_time)
      require(std::isfinite(*r.max_time) && *r.max_time > 0.0, "max_time",
              "must be a finite number of seconds > 0", *r.max_time);
    sw.max_time = r.max_time.value_or(options.t_end - start.t);
    require(std::isfinite(sw.max_time) && sw.max_time > 0.0, "max_time",
            "an event clock needs a bound on each value's run (t_end - t0 is " +
                format_number(sw.max_time) + ")");
  } else {
    require(!r.max_time.has_value(), "max_time",
            "bounds a value's run under an event clock (impacts or crossings) only");
  }
  sw.period_parameter = r.period_parameter;

  require(r.initials.size() <= 1000, "initial", "at most 1000 initial states");
  require(r.initial_texts.empty() || r.initial_texts.size() == r.initials.size(), "initial",
          "one text per initial state");
  if (r.initials.empty()) {
    out.initials.push_back(start);
    out.initial_texts.emplace_back("scenario");
  } else {
    out.initials = r.initials;
    out.initial_texts = r.initial_texts;
    if (out.initial_texts.empty()) out.initial_texts.assign(r.initials.size(), "");
  }

  // the longest run is at the smallest forcing frequency (a corner of the grid), the latest start
  const double omega_min = smallest_omega(m, kind, r, sw);
  double t0_max = -std::numeric_limits<double>::infinity();
  for (const hybrid::InitialState& i : out.initials) t0_max = std::max(t0_max, i.t);
  const double periods = r.transient_periods + r.record_periods;
  const double length = events_clock ? sw.max_time
                        : sw.clock == analysis::SweepClock::kTime
                            ? periods
                            : periods * 2.0 * std::numbers::pi / omega_min;
  const double t_end = t0_max + length;
  require(std::isfinite(t_end) && length < 1e12, "transient_periods",
          "with record_periods gives a run of " + format_number(length) +
              " s (at the smallest forcing frequency); a value's run must stay below 1e12 s");
  hybrid::SimulationOptions check = options;
  check.t_end = t_end;
  check.output_dt = 0.0;
  hybrid::validate(check, t0_max);
  analysis::SweepControl control;
  control.threads = r.threads;
  analysis::validate(sw, m, out.initials, control);
  return out;
}

}  // namespace clatter::app
