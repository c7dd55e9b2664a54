// `clatter impact-sweep`: sweeps one input of an impact, the extended Brach law beside the
// energetic law: the options of app::ImpactSweepRequest (app/impact_sweep.hpp: the kinds
// energy-loss and map, the presets fig3.3–fig3.11, the files and summary), written atomically
// with the figure OUT/<kind>.png; the summary goes to stdout.

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "clatter/app/impact_sweep.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct SweepCliOptions {
  app::ImpactSweepRequest request;
  std::string out{"out"};
  bool plot{true};
};

int run_sweep(const SweepCliOptions& o) {
  const std::filesystem::path dir(o.out);
  const app::ImpactSweep sweep = app::run_impact_sweep(o.request, dir, o.plot);
  const std::filesystem::path& csv = sweep.files.front().path;
  OutputSet set;
  set.also_replaces(csv.parent_path() / (csv.stem().string() + ".png"));
  commit_outputs(set, sweep.files, sweep.plot, csv, "the CSV files are complete");
  std::cout << sweep.summary;
  return 0;
}

}  // namespace

Run add_impact_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepCliOptions>();
  app::ImpactSweepRequest& r = o->request;
  CLI::App* sub = app.add_subcommand(
      "impact-sweep", "Sweep one input of an impact (Brach beside energetic) and write CSV + PNG");
  std::string names;
  for (const std::string& k : app::impact_sweep_presets()) names += (names.empty() ? "" : ", ") + k;
  sub->add_option("--preset", r.preset, "thesis figure: " + names);
  sub->add_option("--kind", r.kind, "energy-loss (T_L/T- against mu) or map (V_TC- -> V_TC+)");
  sub->add_option("--angle", r.angle, "body angle theta [rad]");
  sub->add_option("--qdot", r.qdot, "VT VN THETADOT before impact (a map sweeps VT)")->expected(3);
  sub->add_option("--e", r.e, "restitution: one value per curve (energy-loss) or one (map)")
      ->expected(1, 16);
  sub->add_option("--mu", r.mu, "Brach friction bound mu_f (map; optional marker for energy-loss)");
  sub->add_option("--from", r.from, "start of the swept range (mu, or V_TC-)");
  sub->add_option("--to", r.to, "end of the swept range");
  sub->add_option("--n", r.n, "number of samples")->capture_default_str();
  sub->add_option("--mass", r.mass, "mass m [kg]")->capture_default_str();
  sub->add_option("--inertia", r.inertia, "inertia I about G [kg m^2]")->capture_default_str();
  sub->add_option("--offset", r.offset, "distance L from G to the contact [m]")
      ->capture_default_str();
  sub->add_option("--end", r.end, "contact at end 1 (G - L e) or 2 (G + L e)")
      ->capture_default_str();
  sub->add_option("--out", o->out, "output directory")->capture_default_str();
  sub->add_flag("!--no-plot", o->plot, "write the CSV files only");
  return [o] { return run_sweep(*o); };
}

}  // namespace clatter::cli
