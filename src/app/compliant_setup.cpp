#include "compliant_setup.hpp"
#include "json_views.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "clatter/compliant/presets.hpp"
#include "clatter/core/error.hpp"

namespace clatter::app::detail {

using namespace clatter::compliant;

std::string fmt10(double x) {
  std::ostringstream s;
  s.precision(10);
  s << x;
  return s.str();
}

namespace {
const auto& fmt = fmt10;
}  // namespace

CompliantSetup make_setup(const CompliantBody& o) {
  CompliantSetup s;
  s.body = o.body;
  require(!(o.theta && o.theta_deg), "theta", "give theta or theta_deg, not both");
  if (o.theta) require_finite(*o.theta, "theta");
  if (o.theta_deg) require_finite(*o.theta_deg, "theta_deg");
  require(std::isfinite(o.mass) && o.mass > 0.0 && o.mass <= 1e12, "mass",
          "must be a finite mass in (0, 1e12] [kg]", o.mass);
  require(std::isfinite(o.radius) && o.radius >= 0.0 && o.radius <= 1e6, "radius",
          "must be finite, in [0, 1e6] [m]", o.radius);
  require(std::isfinite(o.length) && o.length > 0.0 && o.length <= 1e6, "length",
          "must be finite, in (0, 1e6] [m]", o.length);
  require(std::isfinite(o.V0) && o.V0 > 0.0, "V0", "must be a finite speed > 0 [m/s]", o.V0);
  require(o.lean == 1 || o.lean == -1, "lean", "must be +1 or -1", o.lean);
  const bool has_theta = o.theta.has_value() || o.theta_deg.has_value();
  const double theta = o.theta.value_or(o.theta_deg.value_or(0.0) * std::numbers::pi / 180.0);
  s.model.mu = o.mu;
  s.model.eta = o.eta;
  s.model.k3 = o.k3;
  const auto velocity = [&] {
    require(o.v.size() == 2, "v", "required for this body: v = (XDOT, ZDOT)");
    s.x_dot0 = o.v[0];
    s.z_dot0 = o.v[1];
  };
  if (o.body == "sphere") {
    s.model.W = sphere_W(o.mass, o.radius);
    velocity();
    s.t_ref = std::sqrt(o.mass / o.k3);
    s.t_unit = "1/omega_o = sqrt(m/k3)";
  } else if (o.body == "rod") {
    require(has_theta, "theta", "required for the rod: theta or theta_deg");
    s.theta = theta;
    s.model.W = rod_W(o.mass, theta, o.lean);
    velocity();
    s.t_ref = std::sqrt(o.mass / o.k3);
    s.t_unit = "1/omega_o = sqrt(m/k3)";
  } else if (o.body == "pendulum") {
    require(has_theta, "theta", "required for the pendulum: theta or theta_deg");
    require(o.v.empty(), "v", "the pendulum's velocity is -V0 (cos theta, sin theta): give V0");
    s.theta = theta;
    s.model.W = physical_pendulum_W(o.mass, o.radius, o.length, theta);
    const Vec2 v = physical_pendulum_velocity(theta, o.V0);
    s.x_dot0 = v.x();
    s.z_dot0 = v.y();
    s.t_ref = 1.0 / std::sqrt(physical_pendulum_K(o.mass, o.radius, o.length) * o.k3);
    s.t_unit = "1/sqrt(K k3)";
  } else if (o.body == "custom") {
    require(o.W.size() == 3, "W", "required for a custom body: W = (A11, A13, A33)");
    s.model.W = {o.W[0], o.W[1], o.W[2]};
    velocity();
    validate(s.model);
    s.t_ref = 1.0 / std::sqrt(o.k3 * s.model.W.C);
    s.t_unit = "1/sqrt(k3 a33)";
  } else {
    throw InvalidArgument("body", "must be sphere, rod, pendulum or custom, got '" + o.body + "'");
  }
  validate(s.model);
  require(std::isfinite(s.x_dot0), "v", "XDOT must be finite");
  require(std::isfinite(s.z_dot0) && s.z_dot0 < 0.0, "v", "ZDOT must be finite and < 0");
  s.v_ref = std::abs(s.z_dot0);
  s.u_ref = s.v_ref * s.t_ref;
  s.F_ref = s.model.k3 * s.u_ref;
  s.P_ref = s.v_ref / s.model.W.C;
  return s;
}

nlohmann::json result_json(const CompliantSetup& s, const Result& r, const WorkAccount& L) {
  const double t = s.t_ref;
  nlohmann::json j;
  j["body"] = s.body;
  j["W"] = {s.model.W.A, s.model.W.B, s.model.W.C};
  j["k3"] = s.model.k3;
  j["k1"] = s.model.k1();
  j["eta"] = s.model.eta;
  j["mu"] = s.model.mu;
  j["v_pre"] = {s.x_dot0, s.z_dot0};
  j["initial_ratio"] = s.x_dot0 / s.z_dot0;
  j["initial_mode"] = to_string(r.phases[0].mode);
  j["outcome"] = to_string(r.outcome);
  j["status"] = to_string(r.status);
  j["time_unit"] = s.t_unit;
  j["time_unit_seconds"] = t;
  nlohmann::json phases = nlohmann::json::array();
  for (int i = 0; i < r.n_phases; ++i) {
    const Phase& p = r.phases[i];
    phases.push_back({{"mode", to_string(p.mode)},
                      {"slip_sign", p.slip_sign},
                      {"t_start", p.t_start},
                      {"t_end", json_number(p.t_end)},
                      {"t_start_norm", p.t_start / t},
                      {"t_end_norm", json_number(p.t_end / t)},
                      {"end", to_string(p.end)},
                      {"diverges", p.diverges}});
  }
  j["phases"] = phases;
  nlohmann::json times;
  for (const auto& [name, value] :
       {std::pair{"t_sigma", r.t_sigma}, std::pair{"t_lt", r.t_lt}, std::pair{"t_tl", r.t_tl},
        std::pair{"t_c", r.t_c}, std::pair{"t_f", r.t_f}, std::pair{"t_wedge", r.t_wedge},
        std::pair{"t_lock", r.t_lock}}) {
    times[name] = json_number(value);
    times[std::string(name) + "_norm"] = json_number(value / t);
  }
  j["times"] = times;
  j["contact_permanent"] = r.contact_permanent;
  j["thesis_wedge"] = r.thesis_wedge;
  const State& f = r.final_state;
  j["v_post"] = {f.x_dot, f.z_dot};
  j["v_post_over_v_pre"] = std::hypot(f.x_dot, f.z_dot) / std::hypot(s.x_dot0, s.z_dot0);
  j["impulse"] = {f.P1, f.P3};
  j["final_springs"] = {f.u1, f.u3};
  const double E0 = L.kinetic_energy_pre;
  nlohmann::json friction = nlohmann::json::array();
  for (int i = 0; i < r.n_phases; ++i) friction.push_back(L.friction_work_phase[i]);
  j["energy"] = {{"kinetic_energy_pre", E0},
                 {"kinetic_energy_change", L.kinetic_energy_change},
                 {"spring_energy_end", L.spring_energy_end},
                 {"friction_work", L.friction_work},
                 {"friction_work_per_phase", friction},
                 {"work1_c", L.work1_c},
                 {"work1_r", L.work1_r},
                 {"work3_c", L.work3_c},
                 {"work3_r", L.work3_r},
                 {"loss_fraction", -L.kinetic_energy_change / E0},
                 {"residual", L.residual},
                 {"residual_relative", L.residual / E0}};
  return j;
}

std::string history_header() {
  return "curve,t,t_norm,u1,u3,u1_dot,u3_dot,x_dot,z_dot,s,F1,F3,mu_F3,P1,P3,mode,slip_sign\n";
}

std::string history_rows(const CompliantSetup& s, const Result& r, const std::string& curve,
                         int n) {
  const Model& m = s.model;
  double t_end = r.t_f;
  if (!std::isfinite(t_end)) {
    const double t_last = r.last().t_start;
    t_end = t_last + 0.5 * (t_last > 0.0 ? t_last : 1.0);
  }
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(n) + 4 * kMaxPhases);
  for (int i = 0; i <= n; ++i) times.push_back(t_end * i / n);
  for (int i = 0; i < r.n_phases; ++i) {
    const double b = r.phases[i].t_end;
    if (std::isfinite(b) && b < t_end) {
      times.push_back(b * (1.0 - 1e-12));
      times.push_back(b * (1.0 + 1e-12));
    }
  }
  std::sort(times.begin(), times.end());
  std::string out;
  for (double t : times) {
    const State st = state_at(m, r, t);
    // the phase at t (for the mode column)
    int k = 0;
    while (k + 1 < r.n_phases && t > r.phases[k].t_end) ++k;
    const Phase& ph = r.phases[k];
    out += curve + "," + fmt(t) + "," + fmt(t / s.t_ref) + "," + fmt(st.u1 / s.u_ref) + "," +
           fmt(st.u3 / s.u_ref) + "," + fmt(st.u1_dot / s.v_ref) + "," + fmt(st.z_dot / s.v_ref) +
           "," + fmt(st.x_dot / s.v_ref) + "," + fmt(st.z_dot / s.v_ref) + "," +
           fmt(st.slip_velocity() / s.v_ref) + "," + fmt(st.F1(m) / s.F_ref) + "," +
           fmt(st.F3(m) / s.F_ref) + "," + fmt(m.mu * st.F3(m) / s.F_ref) + "," +
           fmt(st.P1 / s.P_ref) + "," + fmt(st.P3 / s.P_ref) + "," + to_string(ph.mode) + "," +
           std::to_string(ph.slip_sign) + "\n";
  }
  return out;
}

}  // namespace clatter::app::detail
