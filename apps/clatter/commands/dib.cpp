// `clatter dib SCENARIO --param NAME --regions A,B [orbit options] [--offset D] [--span S]`: the
// discontinuity-induced bifurcation of a periodic orbit whose impact crosses the boundary between
// regions A and B of Stronge's law: the options of app::DibRequest and app::OrbitRequest
// (app/dib.hpp: what is computed, dib.json (also on stdout) and branches.csv), written atomically
// with dib.png. Exit 3 if p* is not found or the crossing is not classified.

#include <iostream>

#include "clatter/app/dib.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/orbit_problem.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct DibCliOptions {
  OrbitProblemOptions problem;
  std::string param;
  std::vector<int> regions;
  int impact{0};
  double offset{1e-5};
  double span{0.0};
  double kink_step{1e-3};
  std::string newton{"differences"};
  bool forced{false};
  std::string out;
  bool plot{true};
};

int run_dib(const DibCliOptions& o) {
  app::DibRequest r;
  r.parameter = o.param;
  r.regions = o.regions;
  r.impact = o.impact;
  r.offset = o.offset;
  r.span = o.span;
  r.kink_step = o.kink_step;
  r.newton = o.newton;
  r.forced = o.forced;
  app::validate(r);
  const OrbitSetup setup = make_orbit_setup(o.problem);
  const app::Dib d = app::run_dib(setup.orbit, r, o.problem.scenario);
  if (!d.critical.converged) {
    std::cout << d.json << "\n";
    std::cerr << "clatter: dib: the critical point was not found: " << d.critical.message << "\n";
    return 3;
  }
  const std::filesystem::path dir = output_folder(o.out, setup.scenario.name + "_dib", "scenario");
  const std::vector<app::OutputFile> outputs = app::dib_files(d, dir, o.plot);
  const auto data = outputs[0].path;
  const auto js = outputs[1].path;
  const auto png = dir / "dib.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  if (o.plot) {
    const std::string unit = parameter_unit(*setup.orbit.problem.model, o.param);
    files.draw(png, js, [&] {
      run_plot_script(
          "dib.py",
          {"--branches", files.temporary(data).string(), "--param", o.param, "--param-unit", unit,
           "--critical", std::to_string(d.critical.p), "--title",
           setup.scenario.name + ": the orbit's branches at the boundary crossing in " + o.param,
           "--out", files.temporary(png).string()},
          "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << outputs[1].content;
  return d.crossing.message.empty() ? 0 : 3;
}

}  // namespace

Run add_dib(CLI::App& app) {
  auto o = std::make_shared<DibCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "dib",
      "Discontinuity-induced bifurcation at a boundary of Stronge's law: critical value, both "
      "sides' orbits, Feigin's 1 - sigma and D, the verdict");
  add_orbit_problem_options(sub, o->problem, true);
  sub->add_option("--param", o->param, "the parameter, by name")->required();
  sub->add_option("--regions", o->regions, "the two regions of the boundary, e.g. 5,9")
      ->delimiter(',')
      ->required();
  sub->add_option("--impact", o->impact, "which impact of the orbit (0: the first)")
      ->capture_default_str();
  sub->add_option("--offset", o->offset, "|p - p*| of the two sides' orbits")
      ->capture_default_str();
  sub->add_option("--span", o->span, "continue both sides' branches this far from p* (0: none)")
      ->capture_default_str();
  sub->add_option("--newton", o->newton,
                  "Jacobian of the critical point's Newton: differences (of the flow) or "
                  "variational (equations + saltation, the law's exact Jacobian)")
      ->capture_default_str();
  sub->add_option("--kink-step", o->kink_step,
                  "h of the multipliers' one-sided slopes at p* (branches at p* +- h, 2h; 0: "
                  "skip)")
      ->capture_default_str();
  sub->add_flag("--forced", o->forced,
                "continue each side with its region's formula forced, through p* (admissible "
                "where H has the side's sign)");
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_dib)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_dib(*o); };
}

}  // namespace clatter::cli
