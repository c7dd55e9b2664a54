// `clatter continue SCENARIO --param NAME --range LO HI [orbit options] [--direction up|down|both]`
// continuation of a scenario's periodic orbit in any named parameter: the options of
// app::ContinueRequest and app::OrbitRequest (app/continuation.hpp, app/orbit_setup.hpp: the
// operation, its defaults and its files branch.csv, bifurcations.csv, summary.json), written
// atomically, with branch.png: the first solved component and max |λ| against p, stable solid,
// unstable dashed, bifurcations marked.

#include <cmath>
#include <complex>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/app/continuation.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/orbit_problem.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct ContinueCliOptions {
  OrbitProblemOptions problem;
  std::string param;
  std::vector<double> range;
  std::string direction{"both"};
  double ds{0.01};
  double ds_max{0.1};
  int max_points{400};
  std::string out;
  bool plot{true};
};

app::ContinueRequest continue_request(const ContinueCliOptions& o) {
  require(o.range.size() == 2, "range", "give finite LO HI with LO < HI");
  app::ContinueRequest r;
  r.parameter = o.param;
  r.p_min = o.range[0];
  r.p_max = o.range[1];
  r.direction = o.direction;
  r.ds = o.ds;
  r.ds_max = o.ds_max;
  r.max_points = o.max_points;
  return r;
}

int run_continue(const ContinueCliOptions& o) {
  const app::ContinueRequest r = continue_request(o);
  app::validate(r);
  const OrbitSetup setup = make_orbit_setup(o.problem);
  const app::OrbitSetup& s = setup.orbit;
  const app::Continuation c = app::run_continuation(s, r);
  if (!c.start.converged) {
    std::cout << app::continuation_summary(s, r, c, o.problem.scenario) << "\n";
    std::cerr << "clatter: continue: the start orbit did not converge: " << c.start.message << "\n";
    return 3;
  }
  // Newton from a start off the attractor may land on a coexisting unstable orbit (the ball on
  // the table from rest: the saddle 1-1 orbit beside the stable one): say so, and how to start
  // on the attractor
  if (!c.start.stable && o.problem.transient == 0.0 && !c.start.multipliers.empty())
    std::cerr << "clatter: continue: note: the start orbit is unstable (largest |multiplier| "
              << std::abs(c.start.multipliers.front())
              << "); Newton started from the scenario's initial state, and --transient N starts "
                 "it after N periods of the motion, on the attractor\n";
  const std::filesystem::path dir =
      output_folder(o.out, setup.scenario.name + "_continue", "scenario");
  const std::vector<app::OutputFile> outputs =
      app::continuation_files(s, r, c, o.problem.scenario, dir, o.plot);
  const auto png = dir / "branch.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  const auto data = outputs[0].path;
  const auto bifs = outputs[1].path;
  const auto js = outputs[2].path;
  if (o.plot) {
    const std::string unit = parameter_unit(*s.problem.model, o.param);
    files.draw(png, js, [&] {
      run_plot_script("branch.py",
                      {"--branch", files.temporary(data).string(), "--bifurcations",
                       files.temporary(bifs).string(), "--param", o.param, "--param-unit", unit,
                       "--title", setup.scenario.name + ": periodic orbits continued in " + o.param,
                       "--out", files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << outputs[2].content;
  return 0;
}

}  // namespace

Run add_continue(CLI::App& app) {
  auto o = std::make_shared<ContinueCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "continue",
      "Continuation of a scenario's periodic orbit in any parameter: SN, PD, NS, grazing, "
      "region and stick changes");
  add_orbit_problem_options(sub, o->problem, true);
  sub->add_option("--param", o->param, "the parameter to continue in, by name")->required();
  sub->add_option("--range", o->range, "LO HI: the branch ends outside")->expected(2)->required();
  sub->add_option("--direction", o->direction, "up, down or both")->capture_default_str();
  sub->add_option("--ds", o->ds, "first arclength step")->capture_default_str();
  sub->add_option("--ds-max", o->ds_max, "largest arclength step")->capture_default_str();
  sub->add_option("--max-points", o->max_points, "points per direction")->capture_default_str();
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_continue)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_continue(*o); };
}

}  // namespace clatter::cli
