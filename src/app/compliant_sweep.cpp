// `clatter compliant-sweep` (app/compliant_sweep.hpp): the presets' curves and files.
//
// Normalisation: see app/compliant.hpp (times in the thesis's units; velocities / |ż0|).

#include <Eigen/Eigenvalues>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "clatter/app/compliant_sweep.hpp"
#include "clatter/compliant/pendulum_rigid.hpp"
#include "clatter/compliant/presets.hpp"
#include "clatter/compliant/slip_direction_flow.hpp"
#include "clatter/compliant/wedging.hpp"
#include "clatter/core/error.hpp"
#include "compliant_setup.hpp"

namespace clatter::app {

namespace {

using namespace clatter::compliant;
using detail::CompliantSetup;
using detail::history_header;
using detail::history_rows;
using detail::make_setup;
using detail::result_json;

constexpr double kDeg = std::numbers::pi / 180.0;

const auto& fmt = detail::fmt10;

// what a preset produces: files (name → content), the plot kind and title, a JSON summary
struct Output {
  std::map<std::string, std::string> files;
  std::string kind, title;
  nlohmann::json summary;
};

CompliantBody sphere(double r) {
  CompliantBody b;
  b.body = "sphere";
  b.radius = 1.0;
  b.v = {r, -1.0};
  return b;
}

CompliantBody rod(double r) {
  CompliantBody b;
  b.body = "rod";
  b.theta_deg = 45.0;
  b.lean = -1;
  b.mu = 0.6;
  b.v = {r, -1.0};
  return b;
}

CompliantBody pendulum(double theta_deg, double mu, double eta) {
  CompliantBody b;
  b.body = "pendulum";
  b.theta_deg = theta_deg;
  b.mu = mu;
  b.eta = eta;
  b.k3 = 1.5e7;  // [Bi] Tables 4.3–4.4 (results do not depend on it)
  return b;
}

// one or more time histories
Output histories(const std::vector<std::pair<std::string, CompliantBody>>& cases, int n,
                 const std::string& kind, const std::string& title) {
  Output out;
  out.kind = kind;
  out.title = title;
  std::string csv = history_header();
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& [label, body] : cases) {
    const CompliantSetup s = make_setup(body);
    const Result r = solve(s.model, s.x_dot0, s.z_dot0);
    csv += history_rows(s, r, label, n);
    nlohmann::json j = result_json(s, r, work_account(s.model, r));
    j["curve"] = label;
    runs.push_back(j);
  }
  out.files["history.csv"] = csv;
  out.summary["runs"] = runs;
  return out;
}

// final velocity and dissipation of one impact, as a sweep.csv row
std::string sweep_row(const std::string& group, const std::string& curve, double x,
                      const CompliantBody& body) {
  const CompliantSetup s = make_setup(body);
  const Result r = solve(s.model, s.x_dot0, s.z_dot0);
  const State& f = r.final_state;
  const bool wedge = r.outcome == Outcome::kWedge;
  const double V_f = wedge ? 0.0 : std::hypot(f.x_dot, f.z_dot) / std::hypot(s.x_dot0, s.z_dot0);
  const WorkAccount L = work_account(s.model, r);
  return group + "," + curve + "," + fmt(x) + "," + fmt(f.x_dot / s.v_ref) + "," +
         fmt(f.z_dot / s.v_ref) + "," + fmt(V_f) + "," +
         fmt(-L.kinetic_energy_change / L.kinetic_energy_pre) + "," + to_string(r.outcome) + "," +
         fmt(r.t_f / s.t_ref) + "\n";
}

const char* kSweepHeader = "group,curve,x,x_dot_f,z_dot_f,V_f,loss,outcome,t_f_norm\n";

// V_f and loss of the pendulum against μ (one curve per θ, or per η)
Output pendulum_vs_mu(const std::vector<double>& thetas, const std::vector<double>& etas,
                      double mu_max, int n, const std::string& title) {
  Output out;
  out.kind = "sweep";
  out.title = title;
  out.summary["x"] = "mu";
  std::string csv = kSweepHeader;
  for (double th : thetas) {
    for (double eta : etas) {
      const std::string group = "theta = " + fmt(th) + " deg";
      const std::string curve = "eta = " + fmt(eta);
      for (int i = 1; i <= n; ++i) {
        const double mu = mu_max * i / n;
        csv += sweep_row(group, curve, mu, pendulum(th, mu, eta));
      }
    }
  }
  out.files["sweep.csv"] = csv;
  return out;
}

Output sphere_fig36(int n) {
  Output out;
  out.kind = "sweep";
  out.title = "Fig 3.6: sphere, final vs initial tangential velocity (mu = 0.5, eta = 1.21)";
  out.summary["x"] = "x_dot0/|z_dot0|";
  std::string csv = kSweepHeader;
  for (int i = 0; i <= n; ++i) {
    const double r = 6.0 * i / n;
    csv += sweep_row("sphere", "compliant", r, sphere(r));
    // rigid Coulomb with e = 1: ẋ_f = r − 7μ when it slips throughout, else 0
    const double rigid = std::max(r - 3.5, 0.0);
    csv += "sphere,rigid," + fmt(r) + "," + fmt(rigid) + ",1,nan,nan,rigid,nan\n";
  }
  out.files["sweep.csv"] = csv;
  return out;
}

Output pendulum_vs_theta(int n) {
  Output out;
  out.kind = "sweep";
  out.title = "Pendulum: final velocity and dissipation against theta (eta = 1.21)";
  out.summary["x"] = "theta_deg";
  std::string csv = kSweepHeader;
  for (double mu : {0.1, 0.3, 0.5, 1.0}) {
    for (int i = 1; i < n; ++i) {
      const double th = 90.0 * i / n;
      csv += sweep_row("eta = 1.21", "mu = " + fmt(mu), th, pendulum(th, mu, 1.21));
    }
  }
  out.files["sweep.csv"] = csv;
  return out;
}

Output fig413(int n) {
  Output out;
  out.kind = "sweep";
  out.title = "Fig 4.13: compliant (several eta) against rigid theory";
  out.summary["x"] = "mu";
  std::string csv = kSweepHeader;
  for (double th : {10.0, 30.0, 60.0}) {
    const std::string group = "theta = " + fmt(th) + " deg";
    const double mu_max = th == 10.0 ? 0.3 : 1.0;
    for (double eta : {1.21, 0.1, 0.01, 0.001}) {
      for (int i = 1; i <= n; ++i) {
        const double mu = mu_max * i / n;
        csv += sweep_row(group, "eta = " + fmt(eta), mu, pendulum(th, mu, eta));
      }
    }
    for (int i = 1; i <= n; ++i) {
      const double mu = mu_max * i / n;
      csv += group + ",rigid energetic," + fmt(mu) + ",nan,nan," +
             fmt(rigid_energetic_rebound(th * kDeg, mu)) + ",nan,rigid,nan\n";
      csv += group + ",printed Eq. 4.69," + fmt(mu) + ",nan,nan," +
             fmt(thesis_eq_4_69_rebound(th * kDeg, mu)) + ",nan,rigid,nan\n";
    }
  }
  out.files["sweep.csv"] = csv;
  return out;
}

Output wedge_window(double theta_deg, double eta, double mu_max, int n, const std::string& title) {
  Output out = pendulum_vs_mu({theta_deg}, {eta}, mu_max, n, title);
  const WedgeWindows w = wedge_mu_windows(theta_deg * kDeg, eta, 1e-6, mu_max);
  std::string markers = "name,x\n";
  nlohmann::json windows = nlohmann::json::array();
  for (int i = 0; i < w.n; ++i) {
    markers += "wedge_begin," + fmt(w.mu_begin[i]) + "\nwedge_end," + fmt(w.mu_end[i]) + "\n";
    windows.push_back({w.mu_begin[i], w.mu_end[i]});
  }
  markers += "rigid tan(theta)," + fmt(std::tan(theta_deg * kDeg)) + "\n";
  out.files["markers.csv"] = markers;
  out.summary["wedge_mu_windows"] = windows;
  out.summary["rigid_mu_wedge_from"] = std::tan(theta_deg * kDeg);
  return out;
}

Output fig414(int n) {
  Output out;
  out.kind = "theta-cr";
  out.title = "Fig 4.14: critical angle against mu for several eta = k3/k1";
  std::string csv = "eta,mu,theta_cr_deg,transitions\n";
  nlohmann::json at_one;
  for (double eta : {1.21, 0.5, 0.1, 0.01}) {
    for (int i = 1; i <= n; ++i) {
      const double mu = 2.0 * i / n;
      const CriticalAngle c = critical_angle(mu, eta, 400);
      csv += fmt(eta) + "," + fmt(mu) + "," + fmt(c.theta_cr / kDeg) + "," +
             std::to_string(c.transitions) + "\n";
    }
    at_one[fmt(eta)] = critical_angle(1.0, eta).theta_cr / kDeg;
  }
  for (int i = 1; i <= n; ++i) {
    const double mu = 2.0 * i / n;
    csv += "rigid," + fmt(mu) + "," + fmt(rigid_critical_angle(mu) / kDeg) + ",1\n";
  }
  out.files["theta_cr.csv"] = csv;
  out.summary["theta_cr_deg_at_mu_1"] = at_one;
  return out;
}

Output rigid_limit() {
  Output out;
  out.kind = "rigid-limit";
  out.title =
      "Rigid limit: compliant $V_f \\to \\sqrt{(\\tan\\theta - \\mu)/(\\tan\\theta + \\mu)}$ as "
      "$\\eta \\to 0$";
  std::string csv = "case,eta,V_f,V_rigid,error\n";
  nlohmann::json rates = nlohmann::json::array();
  struct Case {
    double theta, mu;
  };
  for (const Case c : {Case{30, 0.5}, Case{45, 0.5}, Case{60, 1.0}, Case{10, 0.1}}) {
    const std::string label = "theta = " + fmt(c.theta) + " deg; mu = " + fmt(c.mu);
    const double rigid = rigid_energetic_rebound(c.theta * kDeg, c.mu);
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    double last_ratio = 0.0;
    for (int k = 0; k <= 24; ++k) {
      const double eta = std::pow(10.0, -0.25 * k);
      const CompliantSetup s = make_setup(pendulum(c.theta, c.mu, eta));
      const Result r = solve(s.model, s.x_dot0, s.z_dot0);
      const double V = r.outcome == Outcome::kWedge ? 0.0 : r.final_state.z_dot / std::sin(s.theta);
      const double err = V - rigid;
      csv += label + "," + fmt(eta) + "," + fmt(V) + "," + fmt(rigid) + "," + fmt(err) + "\n";
      if (eta <= 1e-3 && err > 0.0) {
        const double lx = std::log10(eta), ly = std::log10(err);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, ++m;
        last_ratio = err / eta;
      }
    }
    const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    rates.push_back({{"case", label}, {"order", slope}, {"error_over_eta_at_1e-6", last_ratio}});
  }
  out.files["rigid_limit.csv"] = csv;
  out.summary["convergence"] = rates;
  return out;
}

Output slip_flow(int n, const Mat3& B, double mu, const std::string& title) {
  Output out;
  out.kind = "flow";
  out.title = title;
  std::string field = "V1,V2,dV1,dV2\n";
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) {
      const Vec2 V(-1.0 + 2.0 * i / n, -1.0 + 2.0 * j / n);
      const Vec2 d = stretched_rate(B, mu, V);
      field += fmt(V.x()) + "," + fmt(V.y()) + "," + fmt(d.x()) + "," + fmt(d.y()) + "\n";
    }
  }
  const SlipDirectionFlow f = slip_direction_flow(B, mu);
  std::string lines = "kind,phi,r_s,r_phi,type\n";
  nlohmann::json inv = nlohmann::json::array(), fc = nlohmann::json::array();
  for (int i = 0; i < f.n_invariant; ++i) {
    const InvariantDirection& d = f.invariant[i];
    lines += "invariant," + fmt(d.phi) + "," + fmt(d.r_s) + "," + fmt(d.r_phi) + "," +
             to_string(d.type) + "\n";
    inv.push_back(
        {{"phi", d.phi}, {"r_s", d.r_s}, {"r_phi", d.r_phi}, {"type", to_string(d.type)}});
  }
  for (int i = 0; i < f.n_flow_change; ++i) {
    lines += "flow_change," + fmt(f.flow_change[i]) + ",nan,nan,\n";
    fc.push_back(f.flow_change[i]);
  }
  // trajectories of the stretched flow (RK4 in τ) from 16 directions on the unit circle
  std::string traj = "start,V1,V2\n";
  for (int k = 0; k < 16; ++k) {
    const double phi = 2.0 * std::numbers::pi * (k + 0.5) / 16;
    Vec2 V(std::cos(phi), std::sin(phi));
    const double h = 0.01;
    for (int i = 0; i < 800 && V.norm() > 1e-3 && V.norm() < 1.5; ++i) {
      traj += std::to_string(k) + "," + fmt(V.x()) + "," + fmt(V.y()) + "\n";
      const Vec2 k1 = stretched_rate(B, mu, V), k2 = stretched_rate(B, mu, V + 0.5 * h * k1);
      const Vec2 k3 = stretched_rate(B, mu, V + 0.5 * h * k2),
                 k4 = stretched_rate(B, mu, V + h * k3);
      V += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
  }
  out.files["flow_field.csv"] = field;
  out.files["flow_lines.csv"] = lines;
  out.files["flow_trajectories.csv"] = traj;
  out.summary["invariant_directions"] = inv;
  out.summary["flow_change_directions"] = fc;
  return out;
}

using Builder = std::function<Output(int n)>;

const std::map<std::string, Builder>& presets() {
  static const std::map<std::string, Builder> p = {
      {"sphere-fig3.4",
       [](int n) {
         return histories(
             {{"x0/z0 = -0.2", sphere(0.2)}}, n, "history",
             "Fig 3.4: sphere, mu = 0.5, xdot0/|zdot0| = 0.2, eta = 1.21 (initial stick)");
       }},
      {"sphere-fig3.5",
       [](int n) {
         return histories(
             {{"x0/z0 = -1", sphere(1.0)}}, n, "history",
             "Fig 3.5: sphere, mu = 0.5, xdot0/|zdot0| = 1, eta = 1.21 (initial slip)");
       }},
      {"sphere-fig3.6", [](int n) { return sphere_fig36(n); }},
      {"rod-fig3.8",
       [](int n) {
         return histories(
             {{"r = 0.6", rod(0.6)}}, n, "history",
             "Fig 3.8: rod, theta = 45 deg, mu = 0.6, eta = 1.21, xdot0/|zdot0| = 0.6");
       }},
      {"rod-fig3.9",
       [](int n) {
         return histories(
             {{"r = 0.8", rod(0.8)}}, n, "history",
             "Fig 3.9: rod, theta = 45 deg, mu = 0.6, eta = 1.21, xdot0/|zdot0| = 0.8");
       }},
      {"pendulum-fig4.5",
       [](int n) {
         return histories({{"theta = 70", pendulum(70, 0.5, 1.21)}}, n, "history",
                          "Fig 4.5: pendulum, theta = 70 deg, mu = 0.5, eta = 1.21 (gross stick)");
       }},
      {"pendulum-fig4.6",
       [](int n) {
         return histories({{"theta = 30", pendulum(30, 0.5, 1.21)}}, n, "history",
                          "Fig 4.6: pendulum, theta = 30 deg, mu = 0.5, eta = 1.21 (initial slip)");
       }},
      {"pendulum-fig4.7",
       [](int n) {
         std::vector<std::pair<std::string, CompliantBody>> c;
         for (double mu : {0.1, 0.3, 0.5, 0.8, 1.0})
           c.push_back({"mu = " + fmt(mu), pendulum(30, mu, 1.21)});
         return histories(c, n, "impulse",
                          "Fig 4.7: pendulum, theta = 30 deg, eta = 1.21, several mu");
       }},
      {"pendulum-fig4.8",
       [](int n) {
         std::vector<std::pair<std::string, CompliantBody>> c;
         for (double th : {20.0, 30.0, 50.0, 60.0, 80.0})
           c.push_back({"theta = " + fmt(th), pendulum(th, 0.5, 1.21)});
         return histories(c, n, "impulse",
                          "Fig 4.8: pendulum, mu = 0.5, eta = 1.21, several theta");
       }},
      {"pendulum-fig4.11",
       [](int n) {
         return pendulum_vs_mu({30, 45, 60}, {1.21}, 1.5, n,
                               "Fig 4.11: final velocity and dissipation against mu, eta = 1.21");
       }},
      {"pendulum-fig4.12",
       [](int n) {
         return pendulum_vs_mu({30, 45}, {0.01}, 1.0, n,
                               "Fig 4.12: final velocity and dissipation against mu, eta = 0.01");
       }},
      {"pendulum-theta", [](int n) { return pendulum_vs_theta(n); }},
      {"pendulum-fig4.13", [](int n) { return fig413(n); }},
      {"pendulum-fig4.14", [](int n) { return fig414(n); }},
      {"pendulum-fig4.15",
       [](int n) {
         return histories({{"theta = 36.08 (rebound)", pendulum(36.08, 1.0, 0.1)},
                           {"theta = 36.07 (wedge)", pendulum(36.07, 1.0, 0.1)}},
                          n, "impulse",
                          "Fig 4.15: mu = 1, eta = 0.1, just above and below theta_cr");
       }},
      {"pendulum-fig4.16",
       [](int n) {
         return wedge_window(13.0, 1.21, 1.2, n,
                             "Fig 4.16: wedging window in mu, theta = 13 deg, eta = 1.21");
       }},
      {"pendulum-fig4.17",
       [](int n) {
         return wedge_window(26.0, 0.01, 1.2, n,
                             "Fig 4.17: wedging window in mu, theta = 26 deg, eta = 0.01");
       }},
      {"rigid-limit", [](int) { return rigid_limit(); }},
      {"flow-fig4.2",
       [](int n) {
         return slip_flow(n, point_pendulum_B(1.0, 1.0, 60.0 * kDeg), 1.0,
                          "Fig 4.2: slip-direction flow of the 3-D pendulum, theta = 60 deg, "
                          "mu = 1");
       }},
  };
  return p;
}

// `--preset flow`: the slip-direction flow of the 3-D point pendulum at --theta-deg, or of any
// body given by its contact matrix --B (symmetric, positive semi-definite), at friction --mu
Output flow_from_options(const CompliantSweepRequest& o, int n) {
  require(o.mu.has_value(), "mu", "required for preset flow (> 0)");
  require(std::isfinite(*o.mu) && *o.mu > 0.0 && *o.mu <= 1e3, "mu", "must lie in (0, 1e3]", *o.mu);
  require(o.B.empty() != !o.theta_deg.has_value(), "theta_deg",
          "give theta_deg (the 3-D point pendulum) or B (any body), one of them");
  Mat3 B;
  std::ostringstream title;
  title << "slip-direction flow, mu = " << *o.mu << ", ";
  if (o.theta_deg) {
    require(std::isfinite(*o.theta_deg) && *o.theta_deg > 0.0 && *o.theta_deg < 90.0, "theta_deg",
            "must lie in (0, 90) [deg]", *o.theta_deg);
    B = point_pendulum_B(1.0, 1.0, *o.theta_deg * kDeg);
    title << "3-D point pendulum, theta = " << *o.theta_deg << " deg";
  } else {
    require(o.B.size() == 6, "B", "give b11 b12 b13 b22 b23 b33 (B symmetric)");
    for (const double b : o.B) require_finite(b, "B");
    B << o.B[0], o.B[1], o.B[2], o.B[1], o.B[3], o.B[4], o.B[2], o.B[4], o.B[5];
    const Eigen::SelfAdjointEigenSolver<Mat3> es(B);
    require(es.eigenvalues().minCoeff() >= -1e-12 * es.eigenvalues().maxCoeff() &&
                es.eigenvalues().maxCoeff() > 0.0 && B(2, 2) > 0.0,
            "B", "must be positive semi-definite with b33 > 0");
    title << "B = [" << o.B[0] << ", " << o.B[1] << ", " << o.B[2] << "; " << o.B[3] << ", "
          << o.B[4] << "; " << o.B[5] << "]";
  }
  return slip_flow(n, B, *o.mu, title.str());
}

int default_samples(const std::string& preset) {
  if (preset == "flow-fig4.2") return 24;
  if (preset == "pendulum-fig4.14") return 100;
  if (preset.rfind("sphere-fig3.6", 0) == 0) return 240;
  const std::string sweeps[] = {"pendulum-fig4.11", "pendulum-fig4.12", "pendulum-theta",
                                "pendulum-fig4.13", "pendulum-fig4.16", "pendulum-fig4.17"};
  for (const auto& s : sweeps) {
    if (preset == s) return 300;
  }
  return 1500;
}

}  // namespace

std::vector<std::string> compliant_presets() {
  std::vector<std::string> names;
  for (const auto& [k, v] : presets()) names.push_back(k);
  return names;
}

CompliantSweep run_compliant_sweep(const CompliantSweepRequest& o, const std::filesystem::path& dir,
                                   bool plot) {
  std::string names;
  for (const auto& [k, v] : presets()) names += (names.empty() ? "" : ", ") + k;
  const auto it = presets().find(o.preset);
  require(it != presets().end() || o.preset == "flow", "preset",
          "unknown preset '" + o.preset + "' (allowed: flow, " + names + ")");
  require(o.preset == "flow" || (!o.theta_deg && !o.mu && o.B.empty()), "preset",
          "theta_deg, mu and B apply to preset flow only");
  require(o.n >= 0 && o.n <= 100000, "n", "must lie in [1, 100000] (0 = preset default)");
  const int n = o.n > 0 ? o.n : (o.preset == "flow" ? 24 : default_samples(o.preset));
  const Output out = o.preset == "flow" ? flow_from_options(o, n) : it->second(n);
  CompliantSweep result;
  nlohmann::json files = nlohmann::json::array();
  const auto png = dir / (o.preset + ".png");
  PlotCall call{"compliant.py", {"--kind", out.kind, "--title", out.title}, png};
  if (out.summary.contains("x")) {
    call.args.emplace_back("--xlabel");
    call.args.push_back(out.summary["x"].get<std::string>());
  }
  for (const auto& [name, content] : out.files) {
    result.files.push_back({dir / name, content});
    files.push_back((dir / name).string());
    call.args.emplace_back("--csv");
    call.args.push_back((dir / name).string());
  }
  call.args.emplace_back("--out");
  call.args.push_back(png.string());
  if (plot) result.plot = call;
  nlohmann::json summary = out.summary;
  summary["preset"] = o.preset;
  summary["kind"] = out.kind;
  summary["files"] = files;
  summary["png"] = plot ? nlohmann::json(png.string()) : nlohmann::json();
  result.summary = summary.dump(2) + "\n";
  return result;
}

}  // namespace clatter::app
