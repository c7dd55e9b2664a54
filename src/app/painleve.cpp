#include "clatter/app/painleve.hpp"

#include <cmath>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "clatter/core/error.hpp"

namespace clatter::app {

namespace {

struct Values {
  double theta{3.8572}, phi{4.1154}, belt_velocity{-0.96}, e{0.7}, mu0{0.7};
  std::vector<double> mu_p{0.8199, 0.82};
};

// [B] §6.3 captions (spec/000_thesis.md §7); (a) panels compare μ_p just below and at μ_c
Values preset_values(const std::string& preset) {
  Values v;
  if (preset.empty()) return v;
  if (preset == "fig6.7a") return v;  // Fig 6.7: θ = 3.8572, φ = 4.1154, V = −0.96, e = 0.7
  if (preset == "fig6.7b") {
    v.mu_p = {0.82, 1.3};
    return v;
  }
  // Fig 6.8: θ = 4.21, φ = 4.3, V = −0.98, e = 0.9
  v.theta = 4.21;
  v.phi = 4.3;
  v.belt_velocity = -0.98;
  v.e = 0.9;
  if (preset == "fig6.8a") {
    v.mu0 = 0.3;
    v.mu_p = {0.4594, 0.462};
    return v;
  }
  require(preset == "fig6.8b", "preset", "must be fig6.7a, fig6.7b, fig6.8a or fig6.8b");
  v.mu0 = 0.7;
  v.mu_p = {0.462, 1.3};
  return v;
}

std::string num(double x) {
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

}  // namespace

Painleve run_painleve(const PainleveRequest& r) {
  // the preset's values, except where a field was given: given values win
  const Values v = preset_values(r.preset);
  Painleve out;
  out.theta = r.theta.value_or(v.theta);
  out.phi = r.phi.value_or(v.phi);
  out.belt_velocity = r.belt_velocity.value_or(v.belt_velocity);
  out.e = r.e.value_or(v.e);
  out.mu0 = r.mu0.value_or(v.mu0);
  out.mu_p = r.mu_p.value_or(v.mu_p);
  require_finite(out.theta, "theta");
  require_finite(out.phi, "phi");
  require_finite(out.belt_velocity, "belt_velocity");
  require(out.e >= 0.0 && out.e <= 1.0, "e", "must lie in [0, 1]", out.e);
  require(std::isfinite(out.mu0) && out.mu0 >= 0.0 && out.mu0 <= 1e6, "mu0", "must lie in [0, 1e6]",
          out.mu0);
  require(!out.mu_p.empty() && out.mu_p.size() <= 8, "mu_p", "give 1 to 8 values");
  for (const double mu : out.mu_p)
    require(std::isfinite(mu) && mu >= 0.0 && mu <= 1e6, "mu_p", "must lie in [0, 1e6]", mu);
  if (r.torque) require_finite(*r.torque, "torque");
  require(std::isfinite(r.t_jump) && r.t_jump >= 0.0, "t_jump", "must be a finite time >= 0",
          r.t_jump);
  require(std::isfinite(r.t_end) && r.t_end > r.t_jump && r.t_end <= 1e6, "t_end",
          "must be finite, after t_jump and at most 1e6 s", r.t_end);
  for (const double mu_p : out.mu_p) {
    analysis::FrictionJump x;
    x.q0 = {out.theta, out.phi};
    x.model.belt_velocity = out.belt_velocity;
    x.e = out.e;
    x.mu0 = out.mu0;
    x.mu_p = mu_p;
    x.t_jump = r.t_jump;
    x.t_end = r.t_end;
    const auto eq = x.model.printed_equilibrium(x.q0, out.mu0);
    x.model.torque = r.torque ? *r.torque : eq.torque;
    require(std::isfinite(x.model.torque), r.torque ? "torque" : "mu0",
            "gives a non-finite top-joint torque (the equilibrium of [B] (6.29)-(6.30))");
    out.runs.push_back({mu_p, x.model.torque, eq.lambda_N, analysis::run_friction_jump(x)});
  }
  return out;
}

bool all_reached_the_end(const Painleve& p) {
  for (const PainleveRun& run : p.runs)
    if (run.result.result.reason != hybrid::StopReason::kEndTime) return false;
  return true;
}

std::vector<OutputFile> painleve_files(const PainleveRequest& r, const Painleve& p,
                                       const std::filesystem::path& folder, bool plot) {
  std::ostringstream ts, ev;
  ts << "mu_p,t,theta,phi,theta_dot,phi_dot,gap,gap_rate,slip,lambda_N,phase\n";
  ev << "mu_p,t,kind,region,v_T_pre,v_N_pre,v_T_post,v_N_post,Lambda_T,Lambda_N,delta_energy\n";
  nlohmann::json runs = nlohmann::json::array();
  nlohmann::json head;
  for (const PainleveRun& run : p.runs) {
    const analysis::BeltRunResult& res = run.result;
    for (const analysis::BeltSample& s : res.samples)
      ts << num(run.mu_p) << ',' << num(s.t) << ',' << num(s.q.x()) << ',' << num(s.q.y()) << ','
         << num(s.qd.x()) << ',' << num(s.qd.y()) << ',' << num(s.gap) << ',' << num(s.gap_rate)
         << ',' << num(s.slip) << ',' << num(s.lambda_N) << ',' << analysis::to_string(s.phase)
         << '\n';
    nlohmann::json events = nlohmann::json::array();
    for (const hybrid::EventRecord& e : res.events) {
      ev << num(run.mu_p) << ',' << num(e.t) << ',' << hybrid::to_string(e.kind) << ',' << e.region
         << ',' << num(e.v_pre.x()) << ',' << num(e.v_pre.y()) << ',' << num(e.v_post.x()) << ','
         << num(e.v_post.y()) << ',' << num(e.Lambda.x()) << ',' << num(e.Lambda.y()) << ','
         << num(e.delta_energy) << '\n';
      events.push_back({{"t", e.t},
                        {"kind", hybrid::to_string(e.kind)},
                        {"region", e.region},
                        {"v_post", {e.v_post.x(), e.v_post.y()}},
                        {"Lambda", {e.Lambda.x(), e.Lambda.y()}},
                        {"delta_energy", e.delta_energy}});
    }
    runs.push_back({{"mu_p", run.mu_p},
                    {"stop", hybrid::to_string(res.result.reason)},
                    {"message", res.result.message},
                    {"t_stop", res.result.t},
                    {"energy_balance", res.result.energy.balance()},
                    {"events", events}});
    head = {{"W", {res.W_jump.A, res.W_jump.B, res.W_jump.C}},
            {"mu_critical",
             std::isfinite(res.mu_critical) ? nlohmann::json(res.mu_critical) : nlohmann::json()},
            {"torque", run.torque},
            {"printed_equilibrium_lambda_N", run.printed_lambda_N}};
  }
  const auto data = folder / "timeseries.csv";
  const auto events = folder / "events.csv";
  const auto js = folder / "summary.json";
  const nlohmann::json summary = {
      {"preset", r.preset},
      {"theta", p.theta},
      {"phi", p.phi},
      {"belt_velocity", p.belt_velocity},
      {"e", p.e},
      {"mu0", p.mu0},
      {"t_jump", r.t_jump},
      {"t_end", r.t_end},
      {"contact", head},
      {"runs", runs},
      {"files",
       {{"timeseries", data.string()},
        {"events", events.string()},
        {"plot", plot ? nlohmann::json((folder / "plot.png").string()) : nlohmann::json()}}}};
  return {{data, ts.str()}, {events, ev.str()}, {js, summary.dump(2) + "\n"}};
}

std::string painleve_title(const PainleveRequest& r, const Painleve& p) {
  std::ostringstream title;
  title << (r.preset.empty() ? "double pendulum on the belt" : r.preset) << ": theta = " << p.theta
        << ", phi = " << p.phi << ", V = " << p.belt_velocity << ", e = " << p.e
        << ", mu0 = " << p.mu0 << ", mu_c = " << std::setprecision(6);
  const double mu_c = p.runs.empty() ? NAN : p.runs.back().result.mu_critical;
  if (std::isfinite(mu_c)) {
    title << mu_c;
  } else {
    title << "none";
  }
  return title.str();
}

}  // namespace clatter::app
