#include "commands/orbit_problem.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <sstream>

#include <iostream>

#include "clatter/core/error.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/scenario_input.hpp"

namespace clatter::cli {

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

void add_orbit_problem_options(CLI::App* sub, OrbitProblemOptions& o, bool scenario_required,
                               bool with_periods) {
  CLI::Option* opt = sub->add_option("scenario", o.scenario, "scenario file (TOML)");
  if (scenario_required) opt->required();
  sub->add_option("--solve", o.solve,
                  "state components solved for, comma-separated (default: all but the anchor)");
  sub->add_option("--frequency", o.frequency,
                  "forced: the parameter holding the forcing frequency (default surface.omega)");
  sub->add_option("--phase", o.phase,
                  "forced: the section's phase omega*t [rad] (default: mid-way between events)");
  if (with_periods)
    sub->add_option("--periods", o.periods, "forced: forcing periods per orbit, in [1, 1000]")
        ->capture_default_str();
  sub->add_option("--anchor", o.anchor, "autonomous: the state component fixed on the section");
  sub->add_option("--drift", o.drift, "autonomous: the parameter giving the anchor's drift rate");
  sub->add_option("--period", o.period, "autonomous: guess of the period T [s]");
  sub->add_option("--impact-section", o.impact,
                  "CONTACT: an impact section, the orbit starts and ends just after impacts of "
                  "this contact (an unforced model; solve the velocities)");
  sub->add_option("--impacts", o.impacts,
                  "impact section: impacts of the end contact per orbit, in [1, 1000]")
      ->capture_default_str();
  sub->add_option("--max-period", o.max_period,
                  "impact section: a flow without its end impact within this [s] fails")
      ->capture_default_str();
  sub->add_option("--closed", o.closed,
                  "contacts closed at the start, comma-separated (a stance: perturbed starts are "
                  "projected onto them)");
  sub->add_flag("--start-on-section", o.start_on_section,
                "the scenario's initial state lies on the section: forced, the section passes "
                "through it (phase omega*t0); impact, it is the state just after an impact");
  sub->add_flag("--modulo-symmetry", o.modulo_symmetry,
                "the orbit closes on the image of its start under the model's symmetry (a "
                "walker's step; model/motion_symmetry.hpp)");
  sub->add_option("--transient", o.transient,
                  "simulate this many periods from the scenario's start before shooting")
      ->capture_default_str();
  sub->add_option("--monodromy", o.monodromy, "differences or variational")->capture_default_str();
  sub->add_option("--tol", o.tol, "Newton tolerance (relative)")->capture_default_str();
  sub->add_option("--max-iter", o.max_iter, "Newton iterations")->capture_default_str();
  sub->add_option("--segments", o.segments,
                  "multiple shooting with this many segments (forced sections), 1 to 64")
      ->capture_default_str();
}

app::OrbitRequest orbit_request(const OrbitProblemOptions& o) {
  app::OrbitRequest r;
  r.solve = split(o.solve);
  r.frequency = o.frequency;
  r.phase = o.phase;
  r.periods = o.periods;
  r.anchor = o.anchor;
  r.drift = o.drift;
  r.period = o.period;
  r.impact = o.impact;
  r.impacts = o.impacts;
  r.max_period = o.max_period;
  r.modulo_symmetry = o.modulo_symmetry;
  r.closed = split(o.closed);
  r.transient = o.transient;
  r.start_on_section = o.start_on_section;
  r.monodromy = o.monodromy;
  r.tol = o.tol;
  r.max_iter = o.max_iter;
  r.segments = o.segments;
  return r;
}

OrbitSetup make_orbit_setup(const OrbitProblemOptions& o) {
  const app::OrbitRequest r = orbit_request(o);
  OrbitSetup s{load_scenario_checked(o.scenario, false), {}};
  s.orbit = app::make_orbit_setup(s.scenario.model, s.scenario.initial, s.scenario.options, r);
  return s;
}

int run_orbit_cli(const OrbitProblemOptions& o, const std::string& out, bool plot) {
  const OrbitSetup s = make_orbit_setup(o);
  const analysis::Orbit orbit = app::find_orbit(s.orbit);
  const std::filesystem::path dir = output_folder(out, s.scenario.name + "_orbit", "scenario");
  const std::vector<app::OutputFile> outputs =
      app::orbit_files(s.orbit, orbit, o.scenario, dir, plot);
  const auto ts = outputs[0].path;
  const auto js = outputs[1].path;
  const auto png = dir / "orbit.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  if (plot) {
    files.draw(png, js, [&] {
      run_plot_script("orbit.py",
                      {"--timeseries", files.temporary(ts).string(), "--orbit",
                       files.temporary(js).string(), "--out", files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << outputs[1].content;
  if (!orbit.converged) {
    std::cerr << "clatter: orbits: not converged: " << orbit.message << "\n";
    return 3;
  }
  // "stable": false for a multiplier 1 alone (a family of orbits: a cyclic coordinate solved
  // for, a translation of the whole motion) says nothing about the others: said on stderr
  double neutral = 1.0;
  bool others_inside = true;
  for (const std::complex<double>& l : orbit.multipliers) {
    const double d = std::abs(l - 1.0);
    if (d < neutral) neutral = d;
    if (d >= 1e-6 && std::abs(l) >= 1.0) others_inside = false;
  }
  if (!orbit.stable && neutral < 1e-6 && others_inside)
    std::cerr << "clatter: orbits: note: the only multiplier on or outside the unit circle is 1 "
                 "(to "
              << neutral
              << "): a neutral direction, the orbit one of a family (a coordinate the motion "
                 "does not depend on is among the solved ones); the others lie inside\n";
  return 0;
}

}  // namespace clatter::cli
