#include "clatter/app/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "clatter/core/error.hpp"
#include "clatter/io/schema.hpp"

namespace clatter::app {

hybrid::SimulationOptions simulation_options(const hybrid::SimulationOptions& base, double t0,
                                             bool chatter_horizon_given, const SimulateRequest& r) {
  hybrid::SimulationOptions o = base;
  if (r.t_end) {
    require(std::isfinite(*r.t_end), "t_end", "must be finite [s]", *r.t_end);
    o.t_end = *r.t_end;
  }
  if (r.output_dt) {
    require(std::isfinite(*r.output_dt) && *r.output_dt >= 0.0, "output_dt",
            "must be a finite number >= 0 (0: 2000 samples)", *r.output_dt);
    o.output_dt = *r.output_dt;
  }
  require(r.precision >= 1 && r.precision <= 17, "precision",
          "must be an integer in [1, 17] (significant digits)", r.precision);
  if (r.wall_limit) {
    require(std::isfinite(*r.wall_limit) && *r.wall_limit > 0.0, "wall_limit",
            "must be a finite number of seconds > 0", *r.wall_limit);
    // the engine's own limit: it stops with reason wall_time and its state at the stop, as for a
    // scenario that sets simulation.max_wall_time itself
    o.max_wall_time =
        o.max_wall_time > 0.0 ? std::min(o.max_wall_time, *r.wall_limit) : *r.wall_limit;
  }
  hybrid::validate(o, t0);
  if (o.output_dt == 0.0) o.output_dt = (o.t_end - t0) / 2000.0;
  if (!chatter_horizon_given) o.chatter_horizon = o.output_dt;
  // a sample period that would give more rows than any file system holds is refused up front
  require((o.t_end - t0) / o.output_dt <= 1e9, "output_dt",
          "gives more than 1e9 samples for this t_end; choose a larger output_dt, got " +
              format_number(o.output_dt));
  return o;
}

SimulationWriter::SimulationWriter(const model::System& m, std::ostream& timeseries,
                                   std::ostream& events, int precision)
    : m_(m),
      ts_(timeseries),
      ev_(events),
      planar_(dynamic_cast<const model::PlanarBodyModel*>(&m)) {
  ts_.precision(precision);
  ev_.precision(17);
  io::SchemaNames names;
  names.coordinates = m.coordinate_names();
  names.aux = m.aux_names();
  for (int c = 0; c < m.num_contacts(); ++c) names.contacts.push_back(m.contact(c).name);
  names.planar_body = planar_ != nullptr;
  ts_ << io::csv_header(io::schema(io::RecordKind::kSample), names) << '\n';
  ev_ << io::csv_header(io::schema(io::RecordKind::kEvent), names) << '\n';
}

void SimulationWriter::on_sample(const hybrid::Sample& s) {
  bool finite = std::isfinite(s.t) && std::isfinite(s.energy);
  for (int i = 0; i < s.q.size(); ++i) finite = finite && std::isfinite(s.q(i));
  for (int i = 0; i < s.qd.size(); ++i) finite = finite && std::isfinite(s.qd(i));
  if (!finite) throw NonFiniteSample{s.t};
  ts_ << s.t;
  for (int i = 0; i < s.q.size(); ++i) ts_ << ',' << s.q(i);
  for (int i = 0; i < s.qd.size(); ++i) ts_ << ',' << s.qd(i);
  for (int i = 0; i < m_.num_aux(); ++i) ts_ << ',' << (i < s.aux.size() ? s.aux(i) : 0.0);
  ts_ << ',' << s.energy;
  if (planar_) ts_ << ',' << planar_->surface().h(s.t) << ',' << planar_->surface().u(s.t);
  model::ContactGeometry g;
  for (int c = 0; c < m_.num_contacts(); ++c) {
    m_.contact_geometry(c, s.t, s.q, s.qd, g);
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
}

void SimulationWriter::on_event(const hybrid::EventRecord& e) {
  const auto name = [&](int c) { return c < 0 ? std::string() : m_.contact(c).name; };
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
}

std::string simulation_summary(const model::System& m, const RunLabel& label,
                               const hybrid::SimulationOptions& options,
                               const hybrid::SimulationResult& r, const SimulationWriter& w,
                               double wall_time, std::optional<double> non_finite_t,
                               const std::filesystem::path& folder, bool plot) {
  nlohmann::json modes = nlohmann::json::object();
  for (int c = 0; c < m.num_contacts(); ++c)
    modes[m.contact(c).name] = hybrid::to_string(r.modes[static_cast<std::size_t>(c)]);
  nlohmann::json q = nlohmann::json::array(), qd = nlohmann::json::array();
  for (int i = 0; i < r.q.size(); ++i) q.push_back(r.q(i));
  for (int i = 0; i < r.qd.size(); ++i) qd.push_back(r.qd(i));
  const EnergyLedger& L = r.energy;
  nlohmann::json j = {{"scenario", label.name},
                      {"description", label.description},
                      {"kind", label.kind},
                      {"reason", hybrid::to_string(r.reason)},
                      {"message", r.message},
                      {"t_final", r.t},
                      {"q", q},
                      {"qdot", qd},
                      {"modes", modes},
                      {"integrator",
                       {{"requested", hybrid::to_string(options.integrator)},
                        {"used", hybrid::integrators_used(r)}}},
                      {"counts",
                       {{"events", r.events},
                        {"impacts", r.impacts},
                        {"chatter_sequences", r.chatter_sequences},
                        {"multipoint_fallbacks", r.multipoint_fallbacks},
                        {"rk_steps", r.rk_steps},
                        {"rk_steps_dop853", r.dop853_steps},
                        {"rhs_evaluations", r.rhs_evaluations},
                        {"samples", w.samples()},
                        {"by_kind", w.by_kind()}}},
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
      std::isfinite(w.max_gain()) ? nlohmann::json(w.max_gain()) : nlohmann::json();
  j["first_symmetric_t"] =
      std::isnan(w.first_symmetric()) ? nlohmann::json() : nlohmann::json(w.first_symmetric());
  if (non_finite_t) {
    j["reason"] = "non_finite";
    j["message"] = "the state became NaN or infinite at t = " + format_number(*non_finite_t) +
                   "; the files hold the run up to the last finite sample";
    j["t_final"] = w.last_t();
    j["counts"]["events"] = w.events();
    for (const char* k : {"q", "qdot", "modes", "energy"}) j[k] = nullptr;
  }
  j["files"] = {{"timeseries", (folder / "timeseries.csv").string()},
                {"events", (folder / "events.csv").string()},
                {"summary", (folder / "summary.json").string()},
                {"plot", plot ? nlohmann::json((folder / "plot.png").string()) : nlohmann::json()}};
  return j.dump(2) + "\n";
}

}  // namespace clatter::app
