// `clatter sweep SCENARIO --omega FROM TO N`: a brute-force bifurcation diagram of the scenario
// against the surface frequency ω (analysis/bifurcation_sweep.hpp): for each ω, the apex heights
// of the centre of mass after a transient. Writes, atomically, into the output directory:
//   bifurcation.csv  omega,y_apex (one row per recorded apex)
//   summary.csv      omega,distinct,samples,reason (distinct = −1: more than 64 values, chaos)
//   summary.json     the options and the per-ω summary (also on stdout)
//   bifurcation.png  y_apex against ω ([BP] Fig. 8 style)

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/scenario.hpp"
#include "commands/commands.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct SweepCliOptions {
  std::string scenario;
  std::string out;
  std::vector<double> omega;
  analysis::SweepOptions sweep;
  bool plot{true};
};

int run_sweep_cli(SweepCliOptions o) {
  const io::Scenario sc = io::load_scenario(o.scenario);
  require(o.omega.size() == 3, "omega", "give --omega FROM TO N");
  o.sweep.omega_from = o.omega[0];
  o.sweep.omega_to = o.omega[1];
  require(o.omega[2] >= 1.0 && o.omega[2] <= 1e6 && o.omega[2] == static_cast<int>(o.omega[2]),
          "omega", "N must be an integer in [1, 1000000]");
  o.sweep.n = static_cast<int>(o.omega[2]);
  analysis::validate(o.sweep);
  const std::filesystem::path dir = o.out.empty()
                                        ? std::filesystem::path("out") / (sc.name + "_sweep")
                                        : std::filesystem::path(o.out);

  const std::vector<analysis::SweepPoint> points =
      analysis::sweep_omega(*sc.model, sc.initial, sc.options, o.sweep);

  std::ostringstream csv, table;
  csv.precision(12);
  table.precision(12);
  csv << "omega,y_apex\n";
  table << "omega,distinct,samples,reason\n";
  nlohmann::json rows = nlohmann::json::array();
  for (const analysis::SweepPoint& p : points) {
    for (const double y : p.apex_heights) csv << p.omega << ',' << y << '\n';
    table << p.omega << ',' << p.distinct << ',' << p.apex_heights.size() << ','
          << hybrid::to_string(p.reason) << '\n';
    rows.push_back({{"omega", p.omega},
                    {"distinct", p.distinct},
                    {"samples", p.apex_heights.size()},
                    {"reason", hybrid::to_string(p.reason)}});
  }
  const auto data = dir / "bifurcation.csv";
  const auto per_omega = dir / "summary.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "bifurcation.png";
  nlohmann::json summary = {{"scenario", sc.name},
                            {"omega_from", o.sweep.omega_from},
                            {"omega_to", o.sweep.omega_to},
                            {"n", o.sweep.n},
                            {"transient_periods", o.sweep.transient_periods},
                            {"record_periods", o.sweep.record_periods},
                            {"continuation", o.sweep.continuation},
                            {"points", rows},
                            {"files",
                             {{"data", data.string()},
                              {"summary", per_omega.string()},
                              {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}}}};
  io::write_file_atomic(data, csv.str());
  io::write_file_atomic(per_omega, table.str());
  io::write_file_atomic(js, summary.dump(2) + "\n");
  if (o.plot) {
    run_plot_script("sweep.py",
                    {"--data", data.string(), "--summary", per_omega.string(), "--out",
                     png.string(), "--title", sc.name + ": " + sc.description},
                    "the CSV and JSON files are complete");
  }
  std::cout << summary.dump(2) << "\n";
  return 0;
}

}  // namespace

Run add_sweep(CLI::App& app) {
  auto o = std::make_shared<SweepCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Brute-force bifurcation diagram: apex heights after a transient against omega");
  sub->add_option("scenario", o->scenario, "scenario file (TOML): model, start, options")
      ->required();
  sub->add_option("--omega", o->omega, "FROM TO N: the surface frequencies [rad/s]")
      ->expected(3)
      ->required();
  sub->add_option("--transient-periods", o->sweep.transient_periods,
                  "forcing periods discarded per omega")
      ->capture_default_str();
  sub->add_option("--record-periods", o->sweep.record_periods, "forcing periods recorded")
      ->capture_default_str();
  sub->add_flag("--continuation", o->sweep.continuation,
                "start each omega from the previous final state (as the seeds)");
  sub->add_option("--threads", o->sweep.threads, "parallel runs without continuation")
      ->capture_default_str();
  sub->add_option("--out", o->out, "output directory (default out/<scenario>_sweep)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o] { return run_sweep_cli(*o); };
}

}  // namespace clatter::cli
