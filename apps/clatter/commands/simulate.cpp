// `clatter simulate SCENARIO`: runs an event-driven simulation described by a scenario file
// (io/scenario.hpp) and writes, atomically, into the output directory:
//   timeseries.csv  samples every output_dt: t, q, q̇, energy, surface height and belt velocity
//                   u(t) (surface_h, surface_u), and per contact
//                   its point (x, y), gap and mode
//   events.csv      every event: time, kind, contact, mode after, region/case, status, v⁻, v⁺, Λ,
//                   ΔE of the law, energy after, predicted chatter end, q, q̇⁻, q̇⁺
//   summary.json    why the run stopped, counts, energy ledger and its balance, constraint drift,
//                   wall time (also printed on stdout)
//   plot.png        [BP] Fig. 5 style for the rod (θ mod 2π; end points against the floor),
//                   height against time for a ball
// Samples and events are streamed to temporaries as the run goes (memory does not grow with
// t_end) and all four files are renamed into place together at the end (output_set.hpp); an
// interrupted run leaves the previous complete output. Nothing is written if the scenario or an
// option is invalid (exit 2).

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

// thrown by the recorder to stop a run at the wall-clock limit
// thrown by the recorder when a sample is not finite: never written as a result
struct NonFiniteSample {
  double t;
};

// Streams samples and events to their (temporary) files as the run goes, so memory does not grow
// with the end time, keeps the counts summary.json needs, and shows progress on a terminal.
class StreamingRecorder final : public hybrid::Recorder {
 public:
  StreamingRecorder(const io::Scenario& sc, std::ofstream& timeseries, std::ofstream& events,
                    int precision)
      : sc_(sc),
        ts_(timeseries),
        ev_(events),
        progress_(::isatty(STDERR_FILENO) == 1),
        planar_(dynamic_cast<const model::PlanarBodyModel*>(sc.model.get())),
        start_(std::chrono::steady_clock::now()),
        last_report_(start_) {
    // columns: t, q (the model's coordinate names), q̇ ("<name>dot"), auxiliary states, energy,
    // and per contact its gap and mode; planar bodies add the surface motion and contact points
    const model::System& m = *sc.model;
    ts_.precision(precision);
    ev_.precision(17);
    const std::vector<std::string> names = m.coordinate_names();
    ts_ << 't';
    for (const std::string& n : names) ts_ << ',' << n;
    for (const std::string& n : names) ts_ << ',' << n << "dot";
    for (const std::string& n : m.aux_names()) ts_ << ',' << n;
    ts_ << ",energy";
    if (planar_) ts_ << ",surface_h,surface_u";
    for (int c = 0; c < m.num_contacts(); ++c) {
      const std::string& n = m.contact(c).name;
      if (planar_) ts_ << ',' << n << "_x," << n << "_y";
      ts_ << ',' << n << "_gap," << n << "_mode";
    }
    ts_ << '\n';
    ev_ << "t,kind,contact,other,mode_after,region,brach_case,status,v_T_pre,v_N_pre,v_T_post,"
           "v_N_post,Lambda_T,Lambda_N,delta_energy,energy,t_accumulation";
    for (const std::string& n : names) ev_ << ',' << n;
    for (const std::string& n : names) ev_ << ',' << n << "dot_pre";
    for (const std::string& n : names) ev_ << ',' << n << "dot_post";
    ev_ << '\n';
  }

  void on_sample(const hybrid::Sample& s) override {
    const model::System& m = *sc_.model;
    bool finite = std::isfinite(s.t) && std::isfinite(s.energy);
    for (int i = 0; i < s.q.size(); ++i) finite = finite && std::isfinite(s.q(i));
    for (int i = 0; i < s.qd.size(); ++i) finite = finite && std::isfinite(s.qd(i));
    if (!finite) throw NonFiniteSample{s.t};
    ts_ << s.t;
    for (int i = 0; i < s.q.size(); ++i) ts_ << ',' << s.q(i);
    for (int i = 0; i < s.qd.size(); ++i) ts_ << ',' << s.qd(i);
    for (int i = 0; i < m.num_aux(); ++i) ts_ << ',' << (i < s.aux.size() ? s.aux(i) : 0.0);
    ts_ << ',' << s.energy;
    if (planar_) ts_ << ',' << planar_->surface().h(s.t) << ',' << planar_->surface().u(s.t);
    model::ContactGeometry g;
    for (int c = 0; c < m.num_contacts(); ++c) {
      m.contact_geometry(c, s.t, s.q, s.qd, g);
      if (planar_) {
        const model::ContactKinematics k =
            planar_->contact(c, s.t, Vec3(s.q(0), s.q(1), s.q(2)), Vec3(s.qd(0), s.qd(1), s.qd(2)));
        ts_ << ',' << s.q(0) + k.r.x() << ',' << s.q(1) + k.r.y();
      }
      ts_ << ',' << g.g_N << ',' << hybrid::to_string(s.modes[static_cast<std::size_t>(c)]);
    }
    ts_ << '\n';
    last_t_ = s.t;
    ++samples_;
    tick();
  }

  void on_event(const hybrid::EventRecord& e) override {
    const auto name = [&](int c) { return c < 0 ? std::string() : sc_.model->contact(c).name; };
    ev_ << e.t << ',' << hybrid::to_string(e.kind) << ',' << name(e.contact) << ',' << name(e.other)
        << ',' << hybrid::to_string(e.mode_after) << ',';
    if (e.region >= 0) ev_ << e.region;
    ev_ << ',';
    if (e.brach_case >= 0) ev_ << e.brach_case;
    ev_ << ',' << to_string(e.status);
    for (const Vec2* v : {&e.v_pre, &e.v_post, &e.Lambda}) ev_ << ',' << v->x() << ',' << v->y();
    ev_ << ',' << e.delta_energy << ',' << e.energy << ',';
    if (e.kind == hybrid::EventKind::kClosure) ev_ << e.t_accumulation;
    for (int i = 0; i < e.q.size(); ++i) ev_ << ',' << e.q(i);
    for (int i = 0; i < e.qd_pre.size(); ++i) ev_ << ',' << e.qd_pre(i);
    for (int i = 0; i < e.qd_post.size(); ++i) ev_ << ',' << e.qd_post(i);
    ev_ << '\n';
    ++by_kind_[hybrid::to_string(e.kind)];
    // the energy change of a collision: the impacts recorded at one instant (the contacts of a
    // multi-point impact each carry their share) add up
    if (e.kind == hybrid::EventKind::kImpact) {
      instant_gain_ = e.t == instant_t_ ? instant_gain_ + e.delta_energy : e.delta_energy;
      instant_t_ = e.t;
      max_gain_ = std::max(max_gain_, instant_gain_);
    }
    if (e.kind == hybrid::EventKind::kSymmetric && std::isnan(first_symmetric_))
      first_symmetric_ = e.t;
    last_t_ = std::max(last_t_, e.t);
    ++events_;
    tick();
  }

  /// Clears the progress line (if one was drawn).
  void finish() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }

  [[nodiscard]] double last_t() const { return last_t_; }
  [[nodiscard]] long samples() const { return samples_; }
  [[nodiscard]] long events() const { return events_; }
  [[nodiscard]] const std::map<std::string, long>& by_kind() const { return by_kind_; }
  [[nodiscard]] double max_gain() const { return max_gain_; }
  [[nodiscard]] double first_symmetric() const { return first_symmetric_; }

 private:
  // progress (a terminal only, at most 4 times a second)
  void tick() {
    if (!progress_) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (std::chrono::duration<double>(now - last_report_).count() < 0.25) return;
    last_report_ = now;
    const double t0 = sc_.initial.t, t1 = sc_.options.t_end;
    const double fraction = t1 > t0 ? std::clamp((last_t_ - t0) / (t1 - t0), 0.0, 1.0) : 1.0;
    std::ostringstream line;
    line.precision(6);
    line << "\rsimulate " << sc_.name << ": t = " << last_t_ << " of " << t1 << " s (" << std::fixed
         << std::setprecision(1) << 100.0 * fraction << " %), " << events_ << " events, "
         << std::setprecision(0) << elapsed << " s\033[K";
    std::cerr << line.str() << std::flush;
    drawn_ = true;
  }

  const io::Scenario& sc_;
  std::ofstream& ts_;
  std::ofstream& ev_;
  bool progress_;
  const model::PlanarBodyModel* planar_;  ///< the planar body's extra columns, or null
  bool drawn_{false};
  std::chrono::steady_clock::time_point start_, last_report_;
  double last_t_{0.0};
  long samples_{0}, events_{0};
  std::map<std::string, long> by_kind_;
  double max_gain_{-std::numeric_limits<double>::infinity()};
  double instant_gain_{0.0};
  double instant_t_{std::numeric_limits<double>::quiet_NaN()};
  double first_symmetric_{std::numeric_limits<double>::quiet_NaN()};
};

nlohmann::json summary_json(const io::Scenario& sc, const hybrid::SimulationResult& r,
                            const StreamingRecorder& rec, double wall_time) {
  nlohmann::json modes = nlohmann::json::object();
  for (int c = 0; c < sc.model->num_contacts(); ++c)
    modes[sc.model->contact(c).name] = hybrid::to_string(r.modes[static_cast<std::size_t>(c)]);
  nlohmann::json q = nlohmann::json::array(), qd = nlohmann::json::array();
  for (int i = 0; i < r.q.size(); ++i) q.push_back(r.q(i));
  for (int i = 0; i < r.qd.size(); ++i) qd.push_back(r.qd(i));
  const hybrid::EnergyLedger& L = r.energy;
  nlohmann::json j = {{"scenario", sc.name},
                      {"description", sc.description},
                      {"kind", sc.kind},
                      {"reason", hybrid::to_string(r.reason)},
                      {"message", r.message},
                      {"t_final", r.t},
                      {"q", q},
                      {"qdot", qd},
                      {"modes", modes},
                      {"integrator",
                       {{"requested", hybrid::to_string(sc.options.integrator)},
                        {"used", hybrid::integrators_used(r)}}},
                      {"counts",
                       {{"events", r.events},
                        {"impacts", r.impacts},
                        {"chatter_sequences", r.chatter_sequences},
                        {"multipoint_fallbacks", r.multipoint_fallbacks},
                        {"rk_steps", r.rk_steps},
                        {"rk_steps_dop853", r.dop853_steps},
                        {"rhs_evaluations", r.rhs_evaluations},
                        {"samples", rec.samples()},
                        {"by_kind", rec.by_kind()}}},
                      {"energy",
                       {{"initial", L.initial},
                        {"applied_work", L.applied_work},
                        {"final", L.total()},
                        {"kinetic", L.kinetic},
                        {"potential", L.potential},
                        {"surface_work", L.surface_work},
                        {"impact_loss", L.impact_loss},
                        {"friction_loss", L.friction_loss},
                        {"reset", L.reset},
                        {"balance", L.balance()}}},
                      {"max_gap_drift", r.max_gap_drift},
                      {"max_velocity_drift", r.max_velocity_drift},
                      {"wall_time_s", wall_time}};
  j["max_impact_delta_energy"] =
      std::isfinite(rec.max_gain()) ? nlohmann::json(rec.max_gain()) : nlohmann::json();
  j["first_symmetric_t"] =
      std::isnan(rec.first_symmetric()) ? nlohmann::json() : nlohmann::json(rec.first_symmetric());
  return j;
}

int run_simulate(const SimulateOptions& o) {
  io::Scenario sc = load_scenario_checked(o.scenario, !o.t_end.has_value());
  if (o.t_end) {
    require_finite(*o.t_end, "--t-end");
    sc.options.t_end = *o.t_end;
  }
  if (o.output_dt) {
    require(std::isfinite(*o.output_dt) && *o.output_dt >= 0.0, "--output-dt",
            "must be a finite number >= 0 (0: 2000 samples)", *o.output_dt);
    sc.options.output_dt = *o.output_dt;
  }
  require(o.precision >= 1 && o.precision <= 17, "--precision",
          "must be an integer in [1, 17] (significant digits)", o.precision);
  if (o.wall_limit) {
    require(std::isfinite(*o.wall_limit) && *o.wall_limit > 0.0, "--wall-limit",
            "must be a finite number of seconds > 0", *o.wall_limit);
    // the engine's own limit (simulation.max_wall_time): it stops with reason wall_time and its
    // state at the stop, as for a scenario that sets the limit itself
    sc.options.max_wall_time = sc.options.max_wall_time > 0.0
                                   ? std::min(sc.options.max_wall_time, *o.wall_limit)
                                   : *o.wall_limit;
  }
  try {
    hybrid::validate(sc.options, sc.initial.t);
  } catch (const InvalidArgument& e) {
    // an option given on the command line is named by main.cpp (--t-end); else the TOML key
    const bool given =
        (e.field() == "t_end" && o.t_end) || (e.field() == "output_dt" && o.output_dt);
    if (given) throw;
    throw with_scenario_key(e);
  }
  if (o.t_end) check_surface(sc, *o.t_end);
  if (sc.options.output_dt == 0.0)
    sc.options.output_dt = (sc.options.t_end - sc.initial.t) / 2000.0;
  // bounces of a chatter longer than a sample step are simulated, so that the timeseries, the
  // event count and the plot show the motion before the accumulation point (issue 9)
  if (!sc.chatter_horizon_given) sc.options.chatter_horizon = sc.options.output_dt;
  // a sample period that would give more rows than any file system holds is refused up front
  const double rows = (sc.options.t_end - sc.initial.t) / sc.options.output_dt;
  require(rows <= 1e9, "--output-dt",
          "gives more than 1e9 samples for this t_end; choose a larger output_dt, got " +
              format_number(sc.options.output_dt));
  const std::filesystem::path dir = output_folder(o.out, sc.name, "name");

  const auto ts = dir / "timeseries.csv";
  const auto ev = dir / "events.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "plot.png";
  OutputSet files;
  files.also_replaces(png);
  StreamingRecorder rec(sc, files.open(ts), files.open(ev), o.precision);
  const auto start = std::chrono::steady_clock::now();
  hybrid::SimulationResult r;
  std::optional<double> non_finite;
  try {
    r = hybrid::simulate(*sc.model, sc.initial, sc.options, &rec);
  } catch (const NonFiniteSample& e) {
    non_finite = e.t;
  } catch (...) {
    rec.finish();
    throw;
  }
  rec.finish();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::json summary = summary_json(sc, r, rec, wall);
  if (non_finite) {
    summary["reason"] = "non_finite";
    summary["message"] = "the state became NaN or infinite at t = " + format_number(*non_finite) +
                         "; the files hold the run up to the last finite sample";
    summary["t_final"] = rec.last_t();
    summary["counts"]["events"] = rec.events();
    for (const char* k : {"q", "qdot", "modes", "energy"}) summary[k] = nullptr;
  }
  summary["files"] = {{"timeseries", ts.string()},
                      {"events", ev.string()},
                      {"summary", js.string()},
                      {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}};
  files.write(js, summary.dump(2) + "\n");
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
  std::cout << summary.dump(2) << "\n";
  if (non_finite || r.reason != hybrid::StopReason::kEndTime) {
    std::cerr << "clatter: simulate stopped before t_end: " << summary["message"].get<std::string>()
              << "\n";
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
