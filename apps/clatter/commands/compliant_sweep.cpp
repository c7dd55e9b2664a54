// `clatter compliant-sweep --preset NAME --out DIR [--no-plot]`: the thesis-style figures of
// [Bi] for the compliant contact: the options of app::CompliantSweepRequest
// (app/compliant_sweep.hpp: the presets, their files and summary), written atomically with the
// figure <preset>.png; the summary goes to stdout.

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "clatter/app/compliant_sweep.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct SweepCliOptions {
  app::CompliantSweepRequest request;
  std::string out{"out"};
  bool plot{true};
};

int run_sweep(const SweepCliOptions& o) {
  const std::filesystem::path dir(o.out);
  const app::CompliantSweep sweep = app::run_compliant_sweep(o.request, dir, o.plot);
  OutputSet set;
  set.also_replaces(dir / (o.request.preset + ".png"));
  commit_outputs(set, sweep.files, sweep.plot, sweep.files.front().path,
                 "the CSV files are complete");
  std::cout << sweep.summary;
  return 0;
}

}  // namespace

Run add_compliant_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepCliOptions>();
  app::CompliantSweepRequest& r = o->request;
  CLI::App* sub = app.add_subcommand(
      "compliant-sweep", "Thesis-style figures of the compliant contact (Birlik): CSV + PNG");
  std::string names;
  for (const std::string& k : app::compliant_presets()) names += (names.empty() ? "" : ", ") + k;
  sub->add_option("--preset", r.preset,
                  "figure: " + names + "; or flow (any theta, mu or body: --theta-deg/--B, --mu)")
      ->required();
  sub->add_option("--theta-deg", r.theta_deg, "flow: angle of the 3-D point pendulum [deg]");
  sub->add_option("--mu", r.mu, "flow: friction coefficient > 0");
  sub->add_option("--B", r.B, "flow: any body's contact matrix b11 b12 b13 b22 b23 b33")
      ->expected(6);
  sub->add_option("--out", o->out, "output directory")->capture_default_str();
  sub->add_option("--n", r.n, "samples per curve (0 = the preset's default)")
      ->capture_default_str();
  sub->add_flag("!--no-plot", o->plot, "write the CSV files only");
  return [o] { return run_sweep(*o); };
}

}  // namespace clatter::cli
