#include "clatter/io/schema.hpp"

#include <array>
#include <utility>

#include "clatter/core/error.hpp"

namespace clatter::io {

namespace {

using R = Repeat;
using W = When;

// timeseries.csv: one row per output sample (app/simulate.hpp)
constexpr Field kSample[] = {
    {"t", "s", "time of the sample"},
    {"{q}", "[q]", "generalised coordinate q", R::kCoordinate},
    {"{q}dot", "[q]/s", "its velocity q̇", R::kCoordinate},
    {"{a}", "[a]", "auxiliary state (the model's, e.g. a van der Pol oscillator)", R::kAux},
    {"energy", "J", "kinetic + potential energy of the model"},
    {"surface_h", "m", "height h(t) of the moving surface", R::kOnce, W::kPlanarBody},
    {"surface_u", "m/s", "tangential velocity u(t) of the surface (a belt)", R::kOnce,
     W::kPlanarBody},
    {"{c}_x", "m", "the contact point's x", R::kContact, W::kPlanarBody},
    {"{c}_y", "m", "the contact point's y", R::kContact, W::kPlanarBody, true},
    {"{c}_gap", "m", "normal gap g_N of the contact (> 0 open)", R::kContact, W::kAlways, true},
    {"{c}_mode", "", "the contact's mode: open, slide+, slide-, stick (CONTACT_MODES)", R::kContact,
     W::kAlways, true},
};

// events.csv: one row per event (app/simulate.hpp)
constexpr Field kEvent[] = {
    {"t", "s", "time of the event"},
    {"kind", "",
     "impact, closure, chatter_end, lift_off, stick, slip_onset, slip_reversal, ... (EVENT_KINDS)"},
    {"contact", "", "the contact's name (empty for an event of no contact)"},
    {"other", "", "a second contact taking part (a simultaneous impact), else empty"},
    {"mode_after", "", "the contact's mode after the event"},
    {"region", "", "Stronge's region 0-10 of an impact (laws/stronge.hpp), else empty"},
    {"brach_case", "", "the extended Brach law's case 1-8 of an impact, else empty"},
    {"status", "", "the impact law's status: ok, energy_gain, singular, no_termination"},
    {"v_T_pre", "m/s", "tangential contact velocity before"},
    {"v_N_pre", "m/s", "normal contact velocity before (< 0: approaching)"},
    {"v_T_post", "m/s", "tangential contact velocity after"},
    {"v_N_post", "m/s", "normal contact velocity after"},
    {"Lambda_T", "N s", "tangential impulse"},
    {"Lambda_N", "N s", "normal impulse (>= 0)"},
    {"delta_energy", "J",
     "kinetic energy change at the event (<= 0 for a dissipative law); a row of a collision of "
     "several contacts holds its contact's share 1/2 Lambda.(v- + v+), and the rows of one "
     "collision event sum to its change (one row alone may be > 0)"},
    {"energy", "J", "energy after the event"},
    {"t_accumulation", "s", "a chatter's accumulation time (closure events), else empty"},
    {"{q}", "[q]", "generalised coordinate at the event", R::kCoordinate},
    {"{q}dot_pre", "[q]/s", "velocity before", R::kCoordinate},
    {"{q}dot_post", "[q]/s", "velocity after", R::kCoordinate},
};

// simulate's summary.json (app/simulate.hpp)
constexpr Field kRunSummary[] = {
    {"scenario", "", "the scenario's name"},
    {"description", "", "the scenario's description"},
    {"kind", "", "the model's kind"},
    {"reason", "", "why the run stopped (STOP_REASONS; non_finite when the state blew up)"},
    {"message", "", "the engine's message"},
    {"t_final", "s", "time at the stop"},
    {"q", "[q]", "coordinates at the stop"},
    {"qdot", "[q]/s", "velocities at the stop"},
    {"modes", "", "every contact's mode at the stop"},
    {"integrator", "", "requested and used integrators"},
    {"counts", "",
     "events, impacts, chatter sequences, multipoint fallbacks, RK steps, right-hand "
     "sides, samples and events by kind"},
    {"energy", "J",
     "the energy ledger: initial, applied work, final, kinetic, potential, surface "
     "work, impact and friction losses, reset, balance"},
    {"max_gap_drift", "m", "largest constraint drift of a closed contact's gap"},
    {"max_velocity_drift", "m/s", "largest drift of a closed contact's normal velocity"},
    {"wall_time_s", "s", "wall-clock time of the run (not deterministic)"},
    {"max_impact_delta_energy", "J", "largest energy change of one impact (null without impacts)"},
    {"first_symmetric_t", "s", "first time the body is level (planar bodies), else null"},
    {"files", "", "the files written"},
};

// the sweep's bifurcation.csv (app/sweep_files.hpp)
constexpr Field kSweepValue[] = {
    {"{p}", "[p]", "the swept parameter's value", R::kParameter},
    {"initial", "", "index of the run's initial state", R::kOnce, W::kSeveralInitials},
    {"direction", "", "up or down: the carry-over's direction", R::kOnce, W::kBothDirections},
    {"{o}", "[o]", "one recorded value of the observable at its section", R::kObservable},
};

// the sweep's summary.csv (app/sweep_files.hpp)
constexpr Field kSweepPoint[] = {
    {"{p}", "[p]", "the swept parameter's value", R::kParameter},
    {"initial", "", "index of the run's initial state", R::kOnce, W::kSeveralInitials},
    {"direction", "", "up or down: the carry-over's direction", R::kOnce, W::kBothDirections},
    {"distinct", "", "distinct recorded values (1e-6 relative), -1: more than 64"},
    {"samples", "", "recorded values"},
    {"impacts_per_period", "1", "impacts per forcing period over the record"},
    {"reason", "", "the engine's stop reason, or error for a failed value"},
    {"message", "", "why a value failed or stopped early, else empty (null in JSON)"},
    {"events", "", "events of the value's run", R::kOnce, W::kSummaryJson},
    {"rk_steps", "", "Runge-Kutta steps of the value's run", R::kOnce, W::kSummaryJson},
    {"cycle", "", "forcing periods of the cycle the periodic shortcut closed (0: run in full)",
     R::kOnce, W::kSummaryJsonShortcut},
    {"closed_at", "", "the forcing period at which the cycle closed", R::kOnce,
     W::kSummaryJsonShortcut},
    {"refused", "", "cycles the stability check refused (not shown stable)", R::kOnce,
     W::kSummaryJsonShortcut},
};

// the sweep's --timings file
constexpr Field kSweepTiming[] = {
    {"{p}", "[p]", "the swept parameter's value", R::kParameter},
    {"initial", "", "index of the run's initial state", R::kOnce, W::kSeveralInitials},
    {"direction", "", "up or down: the carry-over's direction", R::kOnce, W::kBothDirections},
    {"seconds", "s", "CPU time of the value (not deterministic)"},
    {"events", "", "events of its run"},
    {"cycle", "", "the periodic shortcut's cycle in periods (0: run in full)"},
    {"closed_at", "", "the period at which the cycle closed"},
    {"refused", "", "cycles the shortcut's stability check refused"},
};

// continue's branch.csv (app/continuation.hpp)
constexpr Field kBranchPoint[] = {
    {"branch", "", "up or down: the direction of the continuation"},
    {"p", "[p]", "the continued parameter"},
    {"period", "s", "the orbit's period"},
    {"{s}", "[x]", "solved state component on the section", R::kSolved},
    {"stable", "", "1 if every multiplier lies inside the unit circle"},
    {"multipliers_reliable", "",
     "0 where the differences of the monodromy straddled a change of the events (the orbit on a "
     "discontinuity of its flow: a stick boundary, an obstacle at the section)"},
    {"max_abs_multiplier", "1", "largest |λ|"},
    {"lambda{k}_re", "1", "real part of Floquet multiplier k", R::kMultiplier},
    {"lambda{k}_im", "1", "its imaginary part", R::kMultiplier, W::kAlways, true},
    {"tau_sn", "1", "test function of a fold (saddle-node)"},
    {"tau_pd", "1", "test function of a period doubling"},
    {"tau_ns", "1", "test function of a Neimark-Sacker"},
    {"margin", "", "the orbit's smallest distance to a grazing (inf: none)"},
    {"sticks", "", "stick phases along the orbit"},
    {"itinerary", "", "the orbit's events, contact:kind in order"},
};

// continue's bifurcations.csv (app/continuation.hpp)
constexpr Field kBifurcation[] = {
    {"branch", "", "up or down: the direction of the continuation"},
    {"kind", "",
     "SN, PD, NS, BP (a multiplier +1 where the branch does not turn: a pitchfork), grazing, "
     "region_change, stick_change or slip_lift_change"},
    {"p", "[p]", "the parameter at the bifurcation"},
    {"period", "s", "the orbit's period there"},
    {"{s}", "[x]", "solved state component on the section", R::kSolved},
    {"max_abs_multiplier", "1", "largest |λ| there"},
    {"detail", "", "what was located and how"},
};

// dib's branches.csv (app/dib.hpp)
constexpr Field kDibBranchPoint[] = {
    {"side", "", "H>0 or H<0: the side of the region boundary"},
    {"region", "", "Stronge's region of the orbit's impact on that side"},
    {"p", "[p]", "the parameter"},
    {"period", "s", "the orbit's period"},
    {"stable", "", "1 if every multiplier lies inside the unit circle"},
    {"max_abs_multiplier", "1", "largest |λ|"},
    {"H", "1", "the boundary's function at the orbit's impact ([NDC] §4.1)"},
    {"admissible", "", "1 if the orbit's impact lies in the side's region"},
    {"{s}", "[x]", "solved state component on the section", R::kSolved},
    {"abs_lambda{k}", "1", "|λ_k|", R::kMultiplier},
};

// section's section.csv (app/section.hpp)
constexpr Field kSectionPoint[] = {
    {"k", "", "index of the return"},
    {"t", "s", "time of the crossing"},
    {"{x}", "[x]", "state component at the crossing", R::kState},
    {"events_passed", "", "events between the previous return and this one"},
};

// impact's JSON report (app/impact.hpp)
constexpr Field kImpact[] = {
    {"law", "", "the impact law"},
    {"v_pre", "m/s", "contact velocity (v_T, v_N) before"},
    {"W", "1/kg", "contact matrix entries (A, B, C)"},
    {"mu", "1", "friction coefficient (Brach: the bound μ_f)"},
    {"e", "1", "restitution"},
    {"v_post", "m/s", "contact velocity after"},
    {"Lambda", "N s", "impulse (Λ_T, Λ_N)"},
    {"region", "", "Stronge's region 0-10, else null"},
    {"case", "", "Brach's case 1-8, else null"},
    {"delta_energy", "J", "kinetic energy change (<= 0 for a dissipative law)"},
    {"status", "", "ok, energy_gain, singular or no_termination"},
    {"ends_in_stick", "", "whether the contact sticks at the end"},
    {"p_N_compression", "N s", "normal impulse at the end of compression"},
    {"segments", "", "the impulse's phases: mode, p_N at begin and end"},
    {"boundaries", "", "Stronge's: the region's boundaries and their distances, nearest first"},
    {"scaled", "1", "Stronge's: [NDC]'s scaled B, μ, v_T"},
    {"brach", "", "Brach's bounds μ_E1, μ_E2, μ_M, μ_C, μ_s and its choice"},
    {"qdot_pre", "m/s, rad/s", "rigid-body form: (V_T, V_N, θ̇) before"},
    {"qdot_post", "m/s, rad/s", "rigid-body form: after"},
    {"kinetic_energy_pre", "J", "rigid-body form: kinetic energy before"},
    {"kinetic_energy_post", "J", "rigid-body form: after"},
};

constexpr std::array<RecordSchema, 11> kSchemas = {{
    {RecordKind::kSample, "sample", "timeseries.csv (simulate)", "one row per output sample",
     kSample},
    {RecordKind::kEvent, "event", "events.csv (simulate)", "one row per event", kEvent},
    {RecordKind::kRunSummary, "run_summary", "summary.json (simulate)", "the run's summary",
     kRunSummary, true},
    {RecordKind::kSweepValue, "sweep_value", "bifurcation.csv (sweep)",
     "one row per recorded value", kSweepValue},
    {RecordKind::kSweepPoint, "sweep_point", "summary.csv (sweep)", "one row per (grid point, run)",
     kSweepPoint},
    {RecordKind::kSweepTiming, "sweep_timing", "--timings FILE (sweep)",
     "one row per (grid point, run)", kSweepTiming},
    {RecordKind::kBranchPoint, "branch_point", "branch.csv (continue)",
     "one row per orbit of the branch", kBranchPoint},
    {RecordKind::kBifurcation, "bifurcation", "bifurcations.csv (continue)",
     "one row per bifurcation located", kBifurcation},
    {RecordKind::kDibBranchPoint, "dib_branch_point", "branches.csv (dib)",
     "one row per orbit of either side's branch", kDibBranchPoint},
    {RecordKind::kSectionPoint, "section_point", "section.csv (section)",
     "one row per return to the section", kSectionPoint},
    {RecordKind::kImpact, "impact", "the JSON report (impact)", "one impact", kImpact, true},
}};

bool holds(When w, const SchemaNames& n) {
  switch (w) {
    case When::kAlways:
      return true;
    case When::kPlanarBody:
      return n.planar_body;
    case When::kSeveralInitials:
      return n.several_initials;
    case When::kBothDirections:
      return n.both_directions;
    case When::kPeriodicShortcut:
      return n.periodic_shortcut;
    case When::kSummaryJson:
      return n.summary_json;
    case When::kSummaryJsonShortcut:
      return n.summary_json && n.periodic_shortcut;
  }
  return false;
}

std::vector<std::string> items(Repeat r, const SchemaNames& n) {
  switch (r) {
    case Repeat::kOnce:
      return {""};
    case Repeat::kCoordinate:
      return n.coordinates;
    case Repeat::kAux:
      return n.aux;
    case Repeat::kContact:
      return n.contacts;
    case Repeat::kParameter: {
      std::vector<std::string> labels;
      for (const std::string& p : n.parameters) labels.push_back(parameter_label(p));
      return labels;
    }
    case Repeat::kState:
      return n.state;
    case Repeat::kSolved:
      return n.solved;
    case Repeat::kMultiplier: {
      std::vector<std::string> k;
      for (int i = 1; i <= n.multipliers; ++i) k.push_back(std::to_string(i));
      return k;
    }
    case Repeat::kObservable:
      return {n.observable};
  }
  return {};
}

// the pattern with its placeholder ({q}, {a}, {c}, {p}, {x}, {s}, {k}, {o}) replaced by `item`
std::string expand(std::string_view pattern, std::string_view item) {
  const std::size_t open = pattern.find('{');
  if (open == std::string_view::npos) return std::string(pattern);
  const std::size_t close = pattern.find('}', open);
  return std::string(pattern.substr(0, open)) + std::string(item) +
         std::string(pattern.substr(close + 1));
}

}  // namespace

std::span<const RecordSchema> schemas() { return kSchemas; }

const RecordSchema& schema(RecordKind kind) { return kSchemas[static_cast<std::size_t>(kind)]; }

const RecordSchema& schema(std::string_view name) {
  std::string known;
  for (const RecordSchema& s : kSchemas) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + std::string(s.name);
  }
  throw InvalidArgument("kind",
                        "unknown record '" + std::string(name) + "' (known: " + known + ")");
}

std::vector<Column> csv_fields(const RecordSchema& record, const SchemaNames& names) {
  std::vector<Column> out;
  const std::span<const Field> f = record.fields;
  for (std::size_t i = 0; i < f.size();) {
    std::size_t j = i + 1;  // the fields of one loop: i and those written with it
    while (j < f.size() && f[j].with_previous) ++j;
    for (const std::string& item : items(f[i].repeat, names))
      for (std::size_t k = i; k < j; ++k)
        if (holds(f[k].when, names)) out.push_back({expand(f[k].name, item), f[k].unit, f[k].doc});
    i = j;
  }
  return out;
}

std::vector<std::string> csv_columns(const RecordSchema& record, const SchemaNames& names) {
  std::vector<std::string> out;
  for (Column& c : csv_fields(record, names)) out.push_back(std::move(c.name));
  return out;
}

std::string csv_header(const RecordSchema& record, const SchemaNames& names) {
  std::string s;
  for (const std::string& c : csv_columns(record, names)) s += (s.empty() ? "" : ",") + c;
  return s;
}

std::string parameter_label(const std::string& name) {
  return name == "surface.omega" ? "omega" : name;
}

std::string_view to_string(Repeat r) {
  switch (r) {
    case Repeat::kOnce:
      return "once";
    case Repeat::kCoordinate:
      return "coordinate";
    case Repeat::kAux:
      return "aux";
    case Repeat::kContact:
      return "contact";
    case Repeat::kParameter:
      return "parameter";
    case Repeat::kState:
      return "state";
    case Repeat::kSolved:
      return "solved";
    case Repeat::kMultiplier:
      return "multiplier";
    case Repeat::kObservable:
      return "observable";
  }
  return "?";
}

std::string_view to_string(When w) {
  switch (w) {
    case When::kAlways:
      return "always";
    case When::kPlanarBody:
      return "planar body models";
    case When::kSeveralInitials:
      return "several initial states";
    case When::kBothDirections:
      return "carry-over both";
    case When::kPeriodicShortcut:
      return "the periodic shortcut on";
    case When::kSummaryJson:
      return "summary.json and sweep.h5 only";
    case When::kSummaryJsonShortcut:
      return "summary.json and sweep.h5 only, the periodic shortcut on";
  }
  return "?";
}

}  // namespace clatter::io
