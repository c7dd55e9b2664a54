// `clatter orbits [--e E...] [--periods N] [--omega-range LO HI] [--cascade K] [--out DIR]`:
// continuation in ω of the orbits of a ball bouncing on A sin ωt with one impact every N forcing
// periods, for each restitution e: the options of app::BallOrbitsRequest (app/ball_orbits.hpp:
// the operation and its files branches.csv, bifurcations.csv, summary.json, also on stdout),
// written atomically with orbits.png (apex height against ω: stable solid, unstable dashed,
// SN/PD/grazing marked; the generic continuation on the ball's model). With a scenario,
// `clatter orbits SCENARIO` shoots that scenario's orbit
// (orbit_problem.hpp). Exit 3 if a cascade has fewer doublings than asked.

#include <initializer_list>
#include <iostream>
#include <string>
#include <vector>

#include "clatter/app/ball_orbits.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/orbit_problem.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct OrbitsCliOptions {
  std::vector<double> e{0.9, 0.7, 0.5, 0.3, 0.1};
  double amplitude{1.0};
  double gravity{9.81};
  int periods{1};
  std::vector<double> omega_range{0.5, 7.0};
  int cascade{0};
  std::string out{"out/orbits"};
  bool plot{true};
};

int run_orbits_cli(const OrbitsCliOptions& o) {
  require(o.omega_range.size() == 2, "omega-range", "give LO HI");
  app::BallOrbitsRequest r;
  r.e = o.e;
  r.amplitude = o.amplitude;
  r.gravity = o.gravity;
  r.periods = o.periods;
  r.omega_min = o.omega_range[0];
  r.omega_max = o.omega_range[1];
  r.cascade = o.cascade;
  const std::vector<app::BallOrbitsOfE> result = app::run_ball_orbits(r);
  const std::filesystem::path dir(o.out);
  const std::vector<app::OutputFile> outputs = app::ball_orbits_files(r, result, dir, o.plot);
  const auto png = dir / "orbits.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  if (o.plot) {
    files.draw(png, outputs[2].path, [&] {
      run_plot_script(
          "orbits.py",
          {"--branches", files.temporary(outputs[0].path).string(), "--bifurcations",
           files.temporary(outputs[1].path).string(), "--out", files.temporary(png).string()},
          "the CSV and JSON files are complete");
    });
  }
  files.commit(outputs[2].path);
  std::cout << outputs[2].content;
  std::string incomplete;
  for (const app::BallOrbitsOfE& e : result)
    if (e.incomplete)
      incomplete += (incomplete.empty() ? "" : "; ") + std::string("e = ") + format_number(e.e) +
                    ": " + std::to_string(e.cascade.empty() ? 0 : e.cascade.size() - 1) + " of " +
                    std::to_string(o.cascade) + " doublings found";
  if (!incomplete.empty()) {
    std::cerr << "clatter: orbits: the cascade is incomplete (" << incomplete << ")\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_orbits(CLI::App& app) {
  auto o = std::make_shared<OrbitsCliOptions>();
  auto g = std::make_shared<OrbitProblemOptions>();
  CLI::App* sub = app.add_subcommand(
      "orbits",
      "A periodic orbit of a scenario's model by shooting (orbits SCENARIO ...), or, without a "
      "scenario, the continuation in omega of the orbits of a ball on A sin(wt)");
  add_orbit_problem_options(sub, *g, false, false);
  sub->add_option("--e", o->e, "Newton restitutions in (0, 1)")->capture_default_str();
  sub->add_option("--amplitude", o->amplitude, "surface amplitude A [m]")->capture_default_str();
  sub->add_option("--gravity", o->gravity, "g [m/s^2]")->capture_default_str();
  sub->add_option("--periods", o->periods, "forcing periods per impact, N in [1, 16]")
      ->capture_default_str();
  sub->add_option("--omega-range", o->omega_range, "LO HI: the branches end outside [rad/s]")
      ->expected(2)
      ->capture_default_str();
  sub->add_option("--cascade", o->cascade,
                  "follow the period-doubling cascade this many doublings deep (0 to 8)")
      ->capture_default_str();
  sub->add_option("--out", o->out, "output directory")->capture_default_str();
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o, g, sub] {
    // each mode refuses the options only the other one reads, instead of ignoring them
    const auto refuse = [sub](std::initializer_list<const char*> names, const char* why) {
      for (const char* name : names)
        require(sub->count(name) == 0, name, std::string("applies to ") + why);
    };
    if (!g->scenario.empty()) {
      refuse({"--e", "--amplitude", "--gravity", "--omega-range", "--cascade"},
             "the ball's continuation without a scenario (clatter orbits --e ...)");
      g->periods = o->periods;  // the same meaning: forcing periods per orbit
      return run_orbit_cli(*g, o->out == "out/orbits" ? "" : o->out, o->plot);
    }
    refuse({"--solve", "--frequency", "--phase", "--anchor", "--drift", "--period",
            "--impact-section", "--impacts", "--max-period", "--closed", "--modulo-symmetry",
            "--transient", "--monodromy", "--tol", "--max-iter", "--segments"},
           "a scenario's orbit (clatter orbits SCENARIO ...)");
    return run_orbits_cli(*o);
  };
}

}  // namespace clatter::cli
