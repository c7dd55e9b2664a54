// `clatter section SCENARIO --section SPEC [--count N] [--transient T] [--t-max T]`: the Poincaré
// map of a scenario's model iterated from its initial state: the options of app::SectionRequest
// (app/section.hpp: the SPEC, the defaults, the files section.csv and summary.json, also on
// stdout), written atomically with section.png (the first two state components that vary,
// against each other). Exit 3 if fewer than N points were found.

#include <iostream>

#include "clatter/app/section.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/scenario_input.hpp"

namespace clatter::cli {

namespace {

struct SectionCliOptions {
  std::string scenario;
  std::string section{"impact"};
  int count{100};
  double transient{0.0};
  double t_max{0.0};
  std::string frequency;
  std::string out;
  bool plot{true};
};

int run_section(const SectionCliOptions& o) {
  const io::Scenario sc = load_scenario_checked(o.scenario, false);
  app::SectionRequest r;
  r.section = o.section;
  r.count = o.count;
  r.transient = o.transient;
  r.t_max = o.t_max;
  r.frequency = o.frequency;
  const app::SectionRun run = app::run_section(*sc.model, sc.initial, sc.options, r);
  const std::filesystem::path dir = output_folder(o.out, sc.name + "_section", "scenario");
  const std::vector<app::OutputFile> outputs =
      app::section_files(*sc.model, r, run, o.scenario, dir, o.plot);
  const auto data = outputs[0].path;
  const auto js = outputs[1].path;
  const auto png = dir / "section.png";
  OutputSet files;
  files.also_replaces(png);
  for (const app::OutputFile& f : outputs) files.write(f.path, f.content);
  if (o.plot) {
    files.draw(png, js, [&] {
      run_plot_script("section.py",
                      {"--section", files.temporary(data).string(), "--title", o.section, "--out",
                       files.temporary(png).string()},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << outputs[1].content;
  const auto found = static_cast<int>(run.points.size());
  if (found < o.count) {
    std::cerr << "clatter: section: " << found << " of " << o.count << " points: " << run.stopped
              << "\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_section(CLI::App& app) {
  auto o = std::make_shared<SectionCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "section", "Poincare map of a scenario's model: impact, event, phase or crossing sections");
  sub->add_option("scenario", o->scenario, "scenario file (TOML)")->required();
  sub->add_option("--section", o->section,
                  "impact[:CONTACT] | event:KIND[:CONTACT] | phase[:PHI] | "
                  "crossing:NAME:VALUE[:up|down]")
      ->capture_default_str();
  sub->add_option("--count", o->count, "points to record")->capture_default_str();
  sub->add_option("--transient", o->transient, "points before this time are not recorded [s]")
      ->capture_default_str();
  sub->add_option("--t-max", o->t_max, "no point after this time (default simulation.t_end)");
  sub->add_option("--frequency", o->frequency,
                  "phase sections: the parameter holding omega (default surface.omega)");
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_section)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_section(*o); };
}

}  // namespace clatter::cli
