// `clatter simulate SCENARIO`: runs an event-driven simulation described by a scenario file
// (io/scenario.hpp) and writes, atomically, into the output directory:
//   timeseries.csv  samples every output_dt: t, q, q̇, energy, surface height, and per contact
//                   its point (x, y), gap and mode
//   events.csv      every event: time, kind, contact, mode after, region/case, status, v⁻, v⁺, Λ,
//                   ΔE of the law, energy after, predicted chatter end, q, q̇⁻, q̇⁺
//   summary.json    why the run stopped, counts, energy ledger and its balance, constraint drift,
//                   wall time (also printed on stdout)
//   plot.png        [BP] Fig. 5 style for the rod (θ mod 2π; end points against the floor),
//                   height against time for a ball
// Nothing is written if the scenario or an option is invalid (exit 2).

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>

#include "clatter/dynamics/planar_body_model.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/scenario.hpp"
#include "commands/commands.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct SimulateOptions {
  std::string scenario;
  std::string out;
  std::optional<double> t_end, output_dt;
  bool plot{true};
};

// columns: t, q (the model's coordinate names), q̇ ("<name>dot"), auxiliary states, energy, and
// per contact its gap and mode; planar bodies add the surface height and the contact points
std::string timeseries_csv(const io::Scenario& sc, const hybrid::TrajectoryRecorder& rec) {
  const model::System& m = *sc.model;
  const auto* planar = dynamic_cast<const dynamics::PlanarBodyModel*>(&m);
  std::ostringstream csv;
  csv.precision(17);
  csv << 't';
  for (const std::string& n : m.coordinate_names()) csv << ',' << n;
  for (const std::string& n : m.coordinate_names()) csv << ',' << n << "dot";
  for (const std::string& n : m.aux_names()) csv << ',' << n;
  csv << ",energy";
  if (planar) csv << ",surface_h";
  for (int c = 0; c < m.num_contacts(); ++c) {
    const std::string& n = m.contact(c).name;
    if (planar) csv << ',' << n << "_x," << n << "_y";
    csv << ',' << n << "_gap," << n << "_mode";
  }
  csv << '\n';
  model::ContactGeometry g;
  for (const hybrid::Sample& s : rec.samples) {
    csv << s.t;
    for (int i = 0; i < s.q.size(); ++i) csv << ',' << s.q(i);
    for (int i = 0; i < s.qd.size(); ++i) csv << ',' << s.qd(i);
    for (int i = 0; i < m.num_aux(); ++i) csv << ',' << (i < s.aux.size() ? s.aux(i) : 0.0);
    csv << ',' << s.energy;
    if (planar) csv << ',' << planar->surface().h(s.t);
    for (int c = 0; c < m.num_contacts(); ++c) {
      m.contact_geometry(c, s.t, s.q, s.qd, g);
      if (planar) {
        const dynamics::ContactKinematics k =
            planar->contact(c, s.t, Vec3(s.q(0), s.q(1), s.q(2)), Vec3(s.qd(0), s.qd(1), s.qd(2)));
        csv << ',' << s.q(0) + k.r.x() << ',' << s.q(1) + k.r.y();
      }
      csv << ',' << g.g_N << ',' << hybrid::to_string(s.modes[static_cast<std::size_t>(c)]);
    }
    csv << '\n';
  }
  return csv.str();
}

std::string events_csv(const io::Scenario& sc, const hybrid::TrajectoryRecorder& rec) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "t,kind,contact,other,mode_after,region,brach_case,status,v_T_pre,v_N_pre,v_T_post,"
         "v_N_post,Lambda_T,Lambda_N,delta_energy,energy,t_accumulation";
  const std::vector<std::string> names = sc.model->coordinate_names();
  for (const std::string& n : names) csv << ',' << n;
  for (const std::string& n : names) csv << ',' << n << "dot_pre";
  for (const std::string& n : names) csv << ',' << n << "dot_post";
  csv << '\n';
  const auto name = [&](int c) { return c < 0 ? std::string() : sc.model->contact(c).name; };
  for (const hybrid::EventRecord& e : rec.events) {
    csv << e.t << ',' << hybrid::to_string(e.kind) << ',' << name(e.contact) << ',' << name(e.other)
        << ',' << hybrid::to_string(e.mode_after) << ',';
    if (e.region >= 0) csv << e.region;
    csv << ',';
    if (e.brach_case >= 0) csv << e.brach_case;
    csv << ',' << to_string(e.status);
    for (const Vec2* v : {&e.v_pre, &e.v_post, &e.Lambda}) csv << ',' << v->x() << ',' << v->y();
    csv << ',' << e.delta_energy << ',' << e.energy << ',';
    if (e.kind == hybrid::EventKind::kClosure) csv << e.t_accumulation;
    for (const model::VecQ* v : {&e.q, &e.qd_pre, &e.qd_post})
      for (int i = 0; i < v->size(); ++i) csv << ',' << (*v)(i);
    csv << '\n';
  }
  return csv.str();
}

nlohmann::json summary_json(const io::Scenario& sc, const hybrid::SimulationResult& r,
                            const hybrid::TrajectoryRecorder& rec, double wall_time) {
  std::map<std::string, long> by_kind;
  double max_gain = -std::numeric_limits<double>::infinity();
  double first_symmetric = std::numeric_limits<double>::quiet_NaN();
  for (const hybrid::EventRecord& e : rec.events) {
    ++by_kind[hybrid::to_string(e.kind)];
    if (e.kind == hybrid::EventKind::kImpact) max_gain = std::max(max_gain, e.delta_energy);
    if (e.kind == hybrid::EventKind::kSymmetric && std::isnan(first_symmetric))
      first_symmetric = e.t;
  }
  nlohmann::json modes = nlohmann::json::object();
  for (int c = 0; c < sc.model->num_contacts(); ++c)
    modes[sc.model->contact(c).name] = hybrid::to_string(r.modes[static_cast<std::size_t>(c)]);
  const hybrid::EnergyLedger& L = r.energy;
  nlohmann::json j = {{"scenario", sc.name},
                      {"description", sc.description},
                      {"reason", hybrid::to_string(r.reason)},
                      {"message", r.message},
                      {"t_final", r.t},
                      {"kind", sc.kind},
                      {"q", std::vector<double>(r.q.data(), r.q.data() + r.q.size())},
                      {"qdot", std::vector<double>(r.qd.data(), r.qd.data() + r.qd.size())},
                      {"modes", modes},
                      {"counts",
                       {{"events", r.events},
                        {"impacts", r.impacts},
                        {"chatter_sequences", r.chatter_sequences},
                        {"multipoint_fallbacks", r.multipoint_fallbacks},
                        {"rk_steps", r.rk_steps},
                        {"rhs_evaluations", r.rhs_evaluations},
                        {"by_kind", by_kind}}},
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
      std::isfinite(max_gain) ? nlohmann::json(max_gain) : nlohmann::json();
  j["first_symmetric_t"] =
      std::isnan(first_symmetric) ? nlohmann::json() : nlohmann::json(first_symmetric);
  return j;
}

int run_simulate(const SimulateOptions& o) {
  io::Scenario sc = io::load_scenario(o.scenario);
  if (o.t_end) sc.options.t_end = *o.t_end;
  if (o.output_dt) sc.options.output_dt = *o.output_dt;
  hybrid::validate(sc.options, sc.initial.t);
  if (sc.options.output_dt == 0.0)
    sc.options.output_dt = (sc.options.t_end - sc.initial.t) / 2000.0;
  require(!o.out.empty() || !sc.name.empty(), "out", "give --out DIR");
  const std::filesystem::path dir =
      o.out.empty() ? std::filesystem::path("out") / sc.name : std::filesystem::path(o.out);

  hybrid::TrajectoryRecorder rec;
  const auto start = std::chrono::steady_clock::now();
  const hybrid::SimulationResult r = hybrid::simulate(*sc.model, sc.initial, sc.options, &rec);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  nlohmann::json summary = summary_json(sc, r, rec, wall);
  const auto ts = dir / "timeseries.csv";
  const auto ev = dir / "events.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "plot.png";
  summary["files"] = {{"timeseries", ts.string()},
                      {"events", ev.string()},
                      {"summary", js.string()},
                      {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}};
  io::write_file_atomic(ts, timeseries_csv(sc, rec));
  io::write_file_atomic(ev, events_csv(sc, rec));
  io::write_file_atomic(js, summary.dump(2) + "\n");
  if (o.plot) {
    run_plot_script("simulate.py",
                    {"--style", sc.plot, "--timeseries", ts.string(), "--events", ev.string(),
                     "--out", png.string(), "--title", sc.name + ": " + sc.description},
                    "the CSV and JSON files are complete");
  }
  std::cout << summary.dump(2) << "\n";
  return r.reason == hybrid::StopReason::kEndTime ? 0 : 3;
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
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  sub->footer(
      "Exit status: 0 when the run reached t_end, 3 when it stopped early (max events, Zeno "
      "guard, Painleve, ...: see summary.json 'reason' and 'message'), 2 for bad input.");
  return [o] { return run_simulate(*o); };
}

}  // namespace clatter::cli
