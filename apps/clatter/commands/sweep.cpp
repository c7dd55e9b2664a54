// `clatter sweep SCENARIO --omega FROM TO N`: a brute-force bifurcation diagram of the scenario
// against the surface frequency ω (analysis/bifurcation_sweep.hpp): for each ω, the apex heights
// of the centre of mass after a transient. Writes, atomically, into the output directory:
//   bifurcation.csv  omega,y_apex (one row per recorded apex)
//   summary.csv      omega,distinct,samples,reason,message (distinct = −1: more than 64 values,
//                    chaos; reason "error" with the message when that value's run failed: the
//                    other values go on and the exit status is 3)
//   summary.json     the options and the per-ω summary (also on stdout)
//   bifurcation.png  y_apex against ω ([BP] Fig. 8 style)

#include <atomic>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/io/scenario.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/scenario_input.hpp"

namespace clatter::cli {

namespace {

struct SweepCliOptions {
  std::string scenario;
  std::string out;
  std::vector<double> omega;
  analysis::SweepOptions sweep;
  bool plot{true};
};

// one ω value's outcome; `error` is set when its run threw (the other values go on)
struct Row {
  analysis::SweepPoint point;
  std::string error;
};

// Checks every option with the name the user typed, before any work.
void validate_cli(const SweepCliOptions& o, const io::Scenario& sc) {
  require(o.omega.size() == 3, "--omega", "give --omega FROM TO N");
  for (int i = 0; i < 2; ++i)
    require(std::isfinite(o.omega[static_cast<std::size_t>(i)]) &&
                o.omega[static_cast<std::size_t>(i)] > 0.0,
            "--omega", "FROM and TO must be finite and > 0 [rad/s]",
            o.omega[static_cast<std::size_t>(i)]);
  require(o.omega[2] >= 1.0 && o.omega[2] <= 1e6 && o.omega[2] == std::floor(o.omega[2]), "--omega",
          "N must be an integer in [1, 1000000]", o.omega[2]);
  require(std::isfinite(o.sweep.transient_periods) && o.sweep.transient_periods >= 0.0,
          "--transient-periods", "must be a finite number >= 0", o.sweep.transient_periods);
  require(std::isfinite(o.sweep.record_periods) && o.sweep.record_periods > 0.0, "--record-periods",
          "must be a finite number > 0", o.sweep.record_periods);
  require(o.sweep.threads >= 1 && o.sweep.threads <= 256, "--threads",
          "must be an integer in [1, 256]", o.sweep.threads);
  // the longest run is at the smallest ω: its end time must be a valid simulation horizon
  const double periods = o.sweep.transient_periods + o.sweep.record_periods;
  const double t_end =
      sc.initial.t + periods * 2.0 * std::numbers::pi / std::min(o.omega[0], o.omega[1]);
  require(std::isfinite(t_end) && t_end - sc.initial.t < 1e12, "--transient-periods",
          "with --record-periods gives a run of " + format_number(t_end - sc.initial.t) +
              " s at the smallest omega; the sum of periods x 2 pi / omega must stay below 1e12 s");
  hybrid::SimulationOptions check = sc.options;
  check.t_end = t_end;
  check.output_dt = 0.0;
  try {
    hybrid::validate(check, sc.initial.t);
  } catch (const InvalidArgument& e) {
    throw with_scenario_key(e);
  }
}

// Runs each ω by itself on a pool of threads; a value whose run throws gives a row saying why.
std::vector<Row> run_values(const io::Scenario& sc, const SweepCliOptions& o) {
  const int n = o.sweep.n;
  std::vector<Row> rows(static_cast<std::size_t>(n));
  const auto one = [&](std::size_t i) {
    analysis::SweepOptions single = o.sweep;
    single.omega_from = single.omega_to =
        n == 1 ? o.sweep.omega_from
               : o.sweep.omega_from +
                     (o.sweep.omega_to - o.sweep.omega_from) * static_cast<int>(i) / (n - 1);
    single.n = 1;
    single.threads = 1;
    rows[i].point.omega = single.omega_from;
    try {
      rows[i].point = analysis::sweep_omega(*sc.model, sc.initial, sc.options, single).at(0);
    } catch (const std::exception& e) {
      rows[i].error = e.what();
    }
  };
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i = next++; i < rows.size(); i = next++) one(i);
  };
  std::vector<std::thread> pool;
  const int threads = std::min(o.sweep.threads, n);
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return rows;
}

std::string csv_field(const std::string& s) {
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

int run_sweep_cli(SweepCliOptions o) {
  // the sweep sets ω itself: the scenario's surface motion is not checked here
  const io::Scenario sc = load_scenario_checked(o.scenario, false);
  validate_cli(o, sc);
  o.sweep.omega_from = o.omega[0];
  o.sweep.omega_to = o.omega[1];
  o.sweep.n = static_cast<int>(o.omega[2]);
  analysis::validate(o.sweep);
  const std::filesystem::path dir =
      o.out.empty() ? output_folder("", sc.name + "_sweep", "name") : std::filesystem::path(o.out);

  std::vector<Row> rows;
  if (o.sweep.continuation) {
    // each value starts from the previous final state: one failure ends the chain
    for (analysis::SweepPoint& p :
         analysis::sweep_omega(*sc.model, sc.initial, sc.options, o.sweep))
      rows.push_back({std::move(p), {}});
  } else {
    rows = run_values(sc, o);
  }

  std::ostringstream csv, table;
  csv.precision(12);
  table.precision(12);
  csv << "omega,y_apex\n";
  table << "omega,distinct,samples,reason,message\n";
  nlohmann::json json_rows = nlohmann::json::array();
  int failed = 0;
  for (const Row& row : rows) {
    const analysis::SweepPoint& p = row.point;
    const std::string reason = row.error.empty() ? hybrid::to_string(p.reason) : "error";
    failed += row.error.empty() ? 0 : 1;
    for (const double y : p.apex_heights) csv << p.omega << ',' << y << '\n';
    table << p.omega << ',' << p.distinct << ',' << p.apex_heights.size() << ',' << reason << ','
          << (row.error.empty() ? std::string() : csv_field(row.error)) << '\n';
    json_rows.push_back(
        {{"omega", p.omega},
         {"distinct", p.distinct},
         {"samples", p.apex_heights.size()},
         {"reason", reason},
         {"message", row.error.empty() ? nlohmann::json() : nlohmann::json(row.error)}});
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
                            {"failed", failed},
                            {"points", json_rows},
                            {"files",
                             {{"data", data.string()},
                              {"summary", per_omega.string()},
                              {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}}}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, csv.str());
  files.write(per_omega, table.str());
  files.write(js, summary.dump(2) + "\n");
  if (o.plot) {
    files.draw(png, js, [&] {
      run_plot_script("sweep.py",
                      {"--data", files.temporary(data).string(), "--summary",
                       files.temporary(per_omega).string(), "--out", files.temporary(png).string(),
                       "--title", sc.name + ": " + sc.description},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary.dump(2) << "\n";
  if (failed > 0) {
    std::cerr << "clatter: sweep: " << failed << " of " << rows.size()
              << " omega values failed (reason \"error\" in summary.csv, with the message)\n";
    return 3;
  }
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
