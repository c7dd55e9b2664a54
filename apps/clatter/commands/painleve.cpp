// `clatter painleve --preset fig6.7a|fig6.7b|fig6.8a|fig6.8b [--out DIR]` or custom
// (--theta --phi --belt-velocity --e --mu0 --mu-p ... ): [B]'s Painlevé experiment on the double
// pendulum against the belt (analysis/friction_jump.hpp, on the general engine): at t_jump the
// friction jumps from μ₀ to each μ_p; past μ_c the sliding contact takes an impact without
// collision. Writes, atomically, into the output directory:
//   timeseries.csv  mu_p,t,theta,phi,theta_dot,phi_dot,gap,gap_rate,slip,lambda_N,phase
//   events.csv      mu_p,t,kind,region,v_T_pre,v_N_pre,v_T_post,v_N_post,Lambda_T,Lambda_N,
//                   delta_energy
//   summary.json    W, μ_c, per μ_p the events and the stop reason (also on stdout)
//   plot.png        ċ₂, θ and φ, θ̇ and φ̇ against t ([B] Figs 6.7–6.10 style)

#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/analysis/friction_jump.hpp"
#include "clatter/core/error.hpp"
#include "commands/commands.hpp"
#include "commands/output_set.hpp"
#include "commands/plotting.hpp"

namespace clatter::cli {

namespace {

struct PainleveCliOptions {
  std::string preset;
  double theta{3.8572}, phi{4.1154};
  double belt_velocity{-0.96};
  double e{0.7};
  double mu0{0.7};
  std::vector<double> mu_p{0.8199, 0.82};
  std::optional<double> torque;  ///< default: [B]'s equilibrium torque
  double t_jump{1.25}, t_end{1.6};
  std::string out;
  bool plot{true};
  std::set<std::string> given;  ///< the options given on the command line ("--e", …)
};

// [B] §6.3 captions (spec/000_thesis.md §7); (a) panels compare μ_p just below and at μ_c
void apply_preset(PainleveCliOptions& o) {
  if (o.preset.empty()) return;
  const std::map<std::string, PainleveCliOptions> presets = [] {
    std::map<std::string, PainleveCliOptions> p;
    PainleveCliOptions a;  // Fig 6.7: θ = 3.8572, φ = 4.1154, V = −0.96, e = 0.7
    a.mu0 = 0.7;
    a.mu_p = {0.8199, 0.82};
    p["fig6.7a"] = a;
    a.mu_p = {0.82, 1.3};
    p["fig6.7b"] = a;
    PainleveCliOptions b;  // Fig 6.8: θ = 4.21, φ = 4.3, V = −0.98, e = 0.9
    b.theta = 4.21;
    b.phi = 4.3;
    b.belt_velocity = -0.98;
    b.e = 0.9;
    b.mu0 = 0.3;
    b.mu_p = {0.4594, 0.462};
    p["fig6.8a"] = b;
    b.mu0 = 0.7;
    b.mu_p = {0.462, 1.3};
    p["fig6.8b"] = b;
    return p;
  }();
  const auto it = presets.find(o.preset);
  require(it != presets.end(), "preset", "must be fig6.7a, fig6.7b, fig6.8a or fig6.8b");
  // the preset's values, except where an option was given: explicit values win
  const PainleveCliOptions& p = it->second;
  const auto take = [&o](const char* option, auto& field, const auto& value) {
    if (o.given.count(option) == 0) field = value;
  };
  take("--theta", o.theta, p.theta);
  take("--phi", o.phi, p.phi);
  take("--belt-velocity", o.belt_velocity, p.belt_velocity);
  take("--e", o.e, p.e);
  take("--mu0", o.mu0, p.mu0);
  take("--mu-p", o.mu_p, p.mu_p);
}

std::string num(double x) {
  std::ostringstream s;
  s.precision(12);
  s << x;
  return s.str();
}

// every option checked with the name the user typed, before any work
void validate_cli(const PainleveCliOptions& o) {
  require_finite(o.theta, "--theta");
  require_finite(o.phi, "--phi");
  require_finite(o.belt_velocity, "--belt-velocity");
  require(o.e >= 0.0 && o.e <= 1.0, "--e", "must lie in [0, 1]", o.e);
  require(std::isfinite(o.mu0) && o.mu0 >= 0.0 && o.mu0 <= 1e6, "--mu0", "must lie in [0, 1e6]",
          o.mu0);
  require(!o.mu_p.empty() && o.mu_p.size() <= 8, "--mu-p", "give 1 to 8 values");
  for (const double mu : o.mu_p)
    require(std::isfinite(mu) && mu >= 0.0 && mu <= 1e6, "--mu-p", "must lie in [0, 1e6]", mu);
  if (o.torque) require_finite(*o.torque, "--torque");
  require(std::isfinite(o.t_jump) && o.t_jump >= 0.0, "--t-jump", "must be a finite time >= 0",
          o.t_jump);
  require(std::isfinite(o.t_end) && o.t_end > o.t_jump && o.t_end <= 1e6, "--t-end",
          "must be finite, after --t-jump and at most 1e6 s", o.t_end);
}

int run_painleve_cli(PainleveCliOptions o) {
  apply_preset(o);
  validate_cli(o);
  const std::filesystem::path dir =
      output_folder(o.out, o.preset.empty() ? "painleve" : o.preset, "--preset");
  std::ostringstream ts, ev;
  ts << "mu_p,t,theta,phi,theta_dot,phi_dot,gap,gap_rate,slip,lambda_N,phase\n";
  ev << "mu_p,t,kind,region,v_T_pre,v_N_pre,v_T_post,v_N_post,Lambda_T,Lambda_N,delta_energy\n";
  nlohmann::json runs = nlohmann::json::array();
  nlohmann::json head;
  int exit_status = 0;
  for (const double mu_p : o.mu_p) {
    analysis::FrictionJump x;
    x.q0 = {o.theta, o.phi};
    x.model.belt_velocity = o.belt_velocity;
    x.e = o.e;
    x.mu0 = o.mu0;
    x.mu_p = mu_p;
    x.t_jump = o.t_jump;
    x.t_end = o.t_end;
    const auto eq = x.model.printed_equilibrium(x.q0, o.mu0);
    x.model.torque = o.torque ? *o.torque : eq.torque;
    require(std::isfinite(x.model.torque), o.torque ? "--torque" : "--mu0",
            "gives a non-finite top-joint torque (the equilibrium of [B] (6.29)-(6.30))");
    const analysis::BeltRunResult r = analysis::run_friction_jump(x);
    for (const analysis::BeltSample& s : r.samples) {
      ts << num(mu_p) << ',' << num(s.t) << ',' << num(s.q.x()) << ',' << num(s.q.y()) << ','
         << num(s.qd.x()) << ',' << num(s.qd.y()) << ',' << num(s.gap) << ',' << num(s.gap_rate)
         << ',' << num(s.slip) << ',' << num(s.lambda_N) << ',' << analysis::to_string(s.phase)
         << '\n';
    }
    nlohmann::json events = nlohmann::json::array();
    for (const hybrid::EventRecord& e : r.events) {
      ev << num(mu_p) << ',' << num(e.t) << ',' << hybrid::to_string(e.kind) << ',' << e.region
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
    if (r.result.reason != hybrid::StopReason::kEndTime) {
      std::cerr << "clatter: painleve: the run with mu_p = " << num(mu_p)
                << " stopped at t = " << num(r.result.t) << " ("
                << hybrid::to_string(r.result.reason) << ") before --t-end: " << r.result.message
                << "\n";
      exit_status = 3;
    }
    runs.push_back({{"mu_p", mu_p},
                    {"stop", hybrid::to_string(r.result.reason)},
                    {"message", r.result.message},
                    {"t_stop", r.result.t},
                    {"energy_balance", r.result.energy.balance()},
                    {"events", events}});
    head = {{"W", {r.W_jump.A, r.W_jump.B, r.W_jump.C}},
            {"mu_critical",
             std::isfinite(r.mu_critical) ? nlohmann::json(r.mu_critical) : nlohmann::json()},
            {"torque", x.model.torque},
            {"printed_equilibrium_lambda_N", eq.lambda_N}};
  }
  const auto data = dir / "timeseries.csv";
  const auto events = dir / "events.csv";
  const auto js = dir / "summary.json";
  const auto png = dir / "plot.png";
  nlohmann::json summary = {{"preset", o.preset},
                            {"theta", o.theta},
                            {"phi", o.phi},
                            {"belt_velocity", o.belt_velocity},
                            {"e", o.e},
                            {"mu0", o.mu0},
                            {"t_jump", o.t_jump},
                            {"t_end", o.t_end},
                            {"contact", head},
                            {"runs", runs},
                            {"files",
                             {{"timeseries", data.string()},
                              {"events", events.string()},
                              {"plot", o.plot ? nlohmann::json(png.string()) : nlohmann::json()}}}};
  OutputSet files;
  files.also_replaces(png);
  files.write(data, ts.str());
  files.write(events, ev.str());
  files.write(js, summary.dump(2) + "\n");
  if (o.plot) {
    std::ostringstream title;
    title << (o.preset.empty() ? "double pendulum on the belt" : o.preset)
          << ": theta = " << o.theta << ", phi = " << o.phi << ", V = " << o.belt_velocity
          << ", e = " << o.e << ", mu0 = " << o.mu0 << ", mu_c = " << std::setprecision(6);
    if (head["mu_critical"].is_number()) {
      title << head["mu_critical"].get<double>();
    } else {
      title << "none";
    }
    files.draw(png, js, [&] {
      run_plot_script(
          "painleve.py",
          {"--data", files.temporary(data).string(), "--events", files.temporary(events).string(),
           "--out", files.temporary(png).string(), "--title", title.str()},
          "the CSV and JSON files are complete");
    });
  }
  files.commit(js);
  std::cout << summary.dump(2) << "\n";
  return exit_status;
}

}  // namespace

Run add_painleve(CLI::App& app) {
  auto o = std::make_shared<PainleveCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "painleve",
      "Painleve on a belt: double pendulum, friction jump, impact without collision ([B] ch. 6)");
  sub->add_option("--preset", o->preset,
                  "fig6.7a, fig6.7b, fig6.8a or fig6.8b: [B]'s values of the options below "
                  "that are not given");
  sub->add_option("--theta", o->theta, "upper arm angle [rad]")->capture_default_str();
  sub->add_option("--phi", o->phi, "lower arm angle [rad]")->capture_default_str();
  sub->add_option("--belt-velocity", o->belt_velocity, "V along the belt [m/s]")
      ->capture_default_str();
  sub->add_option("--e", o->e, "Stronge's e* in [0, 1]")->capture_default_str();
  sub->add_option("--mu0", o->mu0, "friction before the jump (sets T by [B] (6.29)-(6.30))")
      ->capture_default_str();
  sub->add_option("--mu-p", o->mu_p, "friction after the jump (1 to 8 values)")
      ->capture_default_str();
  sub->add_option("--torque", o->torque, "top-joint torque T [N m] (default: [B]'s equilibrium)");
  sub->add_option("--t-jump", o->t_jump, "time of the jump [s]")->capture_default_str();
  sub->add_option("--t-end", o->t_end, "end of the run [s]")->capture_default_str();
  sub->add_option("--out", o->out, "output directory (default out/<preset> or out/painleve)");
  sub->add_flag("!--no-plot", o->plot, "write the CSV and JSON files only");
  return [o, sub] {
    for (const CLI::Option* opt : sub->get_options())
      if (opt->count() > 0) o->given.insert(opt->get_name());
    return run_painleve_cli(*o);
  };
}

}  // namespace clatter::cli
