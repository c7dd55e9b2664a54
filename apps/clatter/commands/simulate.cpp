// `clatter simulate SCENARIO`: runs an event-driven simulation described by a scenario file
// (io/scenario.hpp): the options of app::SimulateRequest (app/simulate.hpp: the defaults, the
// options of the run and the files timeseries.csv, events.csv, summary.json, also on stdout),
// written atomically with plot.png ([BP] Fig. 5 style for the rod, height against time for a
// ball, the generic panels otherwise). Samples and events are streamed to temporaries as the run
// goes (memory does not grow with t_end) and all four files are renamed into place together at
// the end (output_set.hpp); an interrupted run leaves the previous complete output. Nothing is
// written if the scenario or an option is invalid (exit 2).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>

#include "clatter/app/simulate.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"
#include "commands/scenario_input.hpp"

namespace clatter::cli {

namespace {

struct SimulateOptions {
  std::string scenario;
  std::string out;
  std::optional<double> t_end, output_dt, wall_limit;
  int precision{10};
  bool plot{true};
};

// The writer of the files (app::SimulationWriter) with a progress line on a terminal (at most 4
// times a second).
class ProgressWriter final : public hybrid::Recorder {
 public:
  ProgressWriter(const io::Scenario& sc, const hybrid::SimulationOptions& o,
                 app::SimulationWriter& w)
      : sc_(sc),
        t1_(o.t_end),
        w_(w),
        progress_(::isatty(STDERR_FILENO) == 1),
        start_(std::chrono::steady_clock::now()),
        last_report_(start_) {}

  void on_sample(const hybrid::Sample& s) override {
    w_.on_sample(s);
    tick();
  }
  void on_event(const hybrid::EventRecord& e) override {
    w_.on_event(e);
    tick();
  }

  /// Clears the progress line (if one was drawn).
  void finish() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }

 private:
  void tick() {
    if (!progress_) return;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_report_).count() < 0.25) return;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    last_report_ = now;
    const double t0 = sc_.initial.t;
    const double fraction = t1_ > t0 ? std::clamp((w_.last_t() - t0) / (t1_ - t0), 0.0, 1.0) : 1.0;
    std::ostringstream line;
    line.precision(6);
    line << "\rsimulate " << sc_.name << ": t = " << w_.last_t() << " of " << t1_ << " s ("
         << std::fixed << std::setprecision(1) << 100.0 * fraction << " %), " << w_.events()
         << " events, " << std::setprecision(0) << elapsed << " s\033[K";
    std::cerr << line.str() << std::flush;
    drawn_ = true;
  }

  const io::Scenario& sc_;
  double t1_;
  app::SimulationWriter& w_;
  bool progress_;
  bool drawn_{false};
  std::chrono::steady_clock::time_point start_, last_report_;
};

int run_simulate(const SimulateOptions& o) {
  io::Scenario sc = load_scenario_checked(o.scenario, !o.t_end.has_value());
  const app::SimulateRequest request{o.t_end, o.output_dt, o.wall_limit, o.precision};
  try {
    sc.options =
        app::simulation_options(sc.options, sc.initial.t, sc.chatter_horizon_given, request);
  } catch (const InvalidArgument& e) {
    // an option given on the command line is named by main.cpp (--t-end); else the TOML key
    const std::string& f = e.field();
    const bool given = (f == "t_end" && o.t_end) || (f == "output_dt" && o.output_dt) ||
                       f == "precision" || f == "wall_limit";
    if (given) throw;
    throw with_scenario_key(e);
  }
  if (o.t_end) check_surface(sc, *o.t_end);
  const std::filesystem::path dir = output_folder(o.out, sc.name, "name");

  const auto ts = dir / "timeseries.csv";
  const auto ev = dir / "events.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "plot.png";
  OutputSet files;
  files.also_replaces(png);
  app::SimulationWriter writer(*sc.model, files.open(ts), files.open(ev), o.precision);
  ProgressWriter rec(sc, sc.options, writer);
  const auto start = std::chrono::steady_clock::now();
  hybrid::SimulationResult r;
  std::optional<double> non_finite;
  try {
    r = hybrid::simulate(*sc.model, sc.initial, sc.options, &rec);
  } catch (const app::NonFiniteSample& e) {
    non_finite = e.t;
  } catch (...) {
    rec.finish();
    throw;
  }
  rec.finish();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string summary =
      app::simulation_summary(*sc.model, {sc.name, sc.description, sc.kind}, sc.options, r, writer,
                              wall, non_finite, dir, o.plot);
  files.write(js, summary);
  if (o.plot) {
    // the plot reads the temporaries and writes its own; all are renamed together below
    files.draw(png, js, [&] {
      run_plot_script("simulate.py",
                      {"--style", sc.plot, "--timeseries", files.temporary(ts).string(), "--events",
                       files.temporary(ev).string(), "--out", files.temporary(png).string(),
                       "--title", sc.name + ": " + sc.description},
                      "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary;
  if (non_finite || r.reason != hybrid::StopReason::kEndTime) {
    std::cerr << "clatter: simulate stopped before t_end: "
              << nlohmann::json::parse(summary)["message"].get<std::string>() << "\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_simulate(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* sub = app.add_subcommand(
      "simulate", "Run an event-driven simulation from a scenario file; write CSV, JSON and PNG");
  sub->add_option("scenario", o->scenario, "scenario file (TOML), e.g. examples/rod_fig5.toml")
      ->required();
  sub->add_option("--out", o->out, "output directory (default out/<scenario name>)");
  sub->add_option("--t-end", o->t_end, "override simulation.t_end [s]");
  sub->add_option("--output-dt", o->output_dt, "override simulation.output_dt [s]");
  sub->add_option("--precision", o->precision,
                  "significant digits of timeseries.csv (17: full double precision)")
      ->capture_default_str();
  sub->add_option("--wall-limit", o->wall_limit,
                  "stop cleanly after this many seconds of wall-clock time (exit 3; the engine's "
                  "simulation.max_wall_time, reason wall_time)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  sub->footer(
      "Exit status: 0 when the run reached t_end, 3 when it stopped early (max events, Zeno "
      "guard, Painleve, --wall-limit, ...: see summary.json 'reason' and 'message', also on "
      "stderr), 2 for bad input. Progress is shown on stderr when it is a terminal.");
  return [o] { return run_simulate(*o); };
}

}  // namespace clatter::cli
