// `clatter painleve --preset fig6.7a|fig6.7b|fig6.8a|fig6.8b [--out DIR]` or custom
// (--theta --phi --belt-velocity --e --mu0 --mu-p ... ): [B]'s Painlevé experiment on the double
// pendulum against the belt: the options of app::PainleveRequest (app/painleve.hpp: the runs,
// the preset's values for the options not given, the files timeseries.csv, events.csv,
// summary.json, also on stdout), written atomically with plot.png (ċ₂, θ and φ, θ̇ and φ̇ against
// t, [B] Figs 6.7–6.10 style). Exit 3 if a run stops before --t-end.

#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clatter/app/painleve.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct PainleveCliOptions {
  std::string preset;
  double theta{3.8572}, phi{4.1154};
  double belt_velocity{-0.96};
  double e{0.7};
  double mu0{0.7};
  std::vector<double> mu_p{0.8199, 0.82};
  std::optional<double> torque;  ///< default: [B]'s equilibrium torque
  double t_jump{1.25}, t_end{1.6};
  std::string out;
  bool plot{true};
  std::set<std::string> given;  ///< the options given on the command line ("--e", …)
};

int run_painleve_cli(const PainleveCliOptions& o) {
  // the options given on the command line; the others take the preset's values or the defaults
  app::PainleveRequest r;
  r.preset = o.preset;
  const auto given = [&o](const char* option) { return o.given.count(option) > 0; };
  if (given("--theta")) r.theta = o.theta;
  if (given("--phi")) r.phi = o.phi;
  if (given("--belt-velocity")) r.belt_velocity = o.belt_velocity;
  if (given("--e")) r.e = o.e;
  if (given("--mu0")) r.mu0 = o.mu0;
  if (given("--mu-p")) r.mu_p = o.mu_p;
  r.torque = o.torque;
  r.t_jump = o.t_jump;
  r.t_end = o.t_end;
  const app::Painleve p = app::run_painleve(r);
  const std::filesystem::path dir =
      output_folder(o.out, o.preset.empty() ? "painleve" : o.preset, "--preset");
  const std::vector<app::OutputFile> outputs = app::painleve_files(r, p, dir, o.plot);
  const auto png = dir / "plot.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  if (o.plot) {
    files.draw(png, outputs[2].path, [&] {
      run_plot_script("painleve.py",
                      {"--data", files.temporary(outputs[0].path).string(), "--events",
                       files.temporary(outputs[1].path).string(), "--out",
                       files.temporary(png).string(), "--title", app::painleve_title(r, p)},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(outputs[2].path);
  std::cout << outputs[2].content;
  for (const app::PainleveRun& run : p.runs) {
    const hybrid::SimulationResult& res = run.result.result;
    if (res.reason != hybrid::StopReason::kEndTime)
      std::cerr << "clatter: painleve: the run with mu_p = " << format_number(run.mu_p)
                << " stopped at t = " << format_number(res.t) << " ("
                << hybrid::to_string(res.reason) << ") before --t-end: " << res.message << "\n";
  }
  return app::all_reached_the_end(p) ? 0 : 3;
}

}  // namespace

Run add_painleve(CLI::App& app) {
  auto o = std::make_shared<PainleveCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "painleve",
      "Painleve on a belt: double pendulum, friction jump, impact without collision ([B] ch. 6)");
  sub->add_option("--preset", o->preset,
                  "fig6.7a, fig6.7b, fig6.8a or fig6.8b: [B]'s values of the options below "
                  "that are not given");
  sub->add_option("--theta", o->theta, "upper arm angle [rad]")->capture_default_str();
  sub->add_option("--phi", o->phi, "lower arm angle [rad]")->capture_default_str();
  sub->add_option("--belt-velocity", o->belt_velocity, "V along the belt [m/s]")
      ->capture_default_str();
  sub->add_option("--e", o->e, "Stronge's e* in [0, 1]")->capture_default_str();
  sub->add_option("--mu0", o->mu0, "friction before the jump (sets T by [B] (6.29)-(6.30))")
      ->capture_default_str();
  sub->add_option("--mu-p", o->mu_p, "friction after the jump (1 to 8 values)")
      ->capture_default_str();
  sub->add_option("--torque", o->torque, "top-joint torque T [N m] (default: [B]'s equilibrium)");
  sub->add_option("--t-jump", o->t_jump, "time of the jump [s]")->capture_default_str();
  sub->add_option("--t-end", o->t_end, "end of the run [s]")->capture_default_str();
  sub->add_option("--out", o->out, "output directory (default out/<preset> or out/painleve)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o, sub] {
    for (const CLI::Option* opt : sub->get_options())
      if (opt->count() > 0) o->given.insert(opt->get_name());
    return run_painleve_cli(*o);
  };
}

}  // namespace clatter::cli
