#include "clatter/analysis/impact_oscillator.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::analysis {

namespace {

constexpr double kPi = std::numbers::pi;

// keeps the first event and what it was
class FirstEvent final : public hybrid::Recorder {
 public:
  void on_event(const hybrid::EventRecord& e) override {
    if (!seen) {
      seen = true;
      event = e;
    }
  }
  bool seen{false};
  hybrid::EventRecord event{};
};

// one flight from z: the impact that ends it (pre- and post-impact absolute velocity)
struct Flight {
  bool ok{false};
  double t0{0.0}, t1{0.0};
  double v_pre{0.0}, v_post{0.0};
};

Flight fly(const model::PlanarBodyModel& m, const ImpactState& z) {
  const model::Surface& s = m.surface();
  const double omega = s.omega;
  Flight f;
  f.t0 = z.phase / omega;
  hybrid::SimulationOptions o;
  o.t_end = f.t0 + 1000.0 * 2.0 * kPi / omega;
  o.max_events = 1;
  o.chatter = hybrid::ChatterPolicy::kCutoff;  // every bounce is an impact, however small
  o.v_tol = 1e-300;
  const double R = m.feature(0).radius;
  const hybrid::InitialState init{f.t0, {0.0, s.h(f.t0) + R, 0.0}, {0.0, z.velocity, 0.0}};
  FirstEvent first;
  const hybrid::SimulationResult r = hybrid::simulate(m, init, o, &first);
  if (!first.seen || first.event.kind != hybrid::EventKind::kImpact) return f;
  f.ok = true;
  f.t1 = first.event.t;
  f.v_pre = first.event.qd_pre.y();
  f.v_post = r.qd.y();
  return f;
}

}  // namespace

ImpactOscillator::ImpactOscillator(const model::PlanarBodyModel& model) : model_(model) {
  require(model.num_contacts() == 1, "model",
          "the impact oscillator needs a body with one contact");
  require(model.surface().amplitude > 0.0 && model.surface().omega > 0.0, "model",
          "the impact oscillator needs a surface A sin(wt) with A > 0 and w > 0");
  require(model.surface().belt_velocity == 0.0 && model.surface().belt_amplitude == 0.0, "model",
          "the impact oscillator has no belt");
}

ImpactOscillator ImpactOscillator::at_omega(double omega) const {
  model::Surface s = model_.surface();
  s.omega = omega;
  return ImpactOscillator(model_.with_surface(s));
}

bool ImpactOscillator::map(const ImpactState& z, int m, ImpactState& out) const {
  ImpactState cur = z;
  for (int k = 0; k < m; ++k) {
    const Flight f = fly(model_, cur);
    if (!f.ok) return false;
    cur = {omega() * f.t1, f.v_post};
  }
  out = cur;
  return true;
}

bool ImpactOscillator::linearize_one(const ImpactState& z, const ImpactOscillator* hi,
                                     const ImpactOscillator* lo, ImpactState& next,
                                     Eigen::Matrix2d& D, Eigen::Vector2d& dw) const {
  const double h_phi = 1e-6;
  const double h_v = 1e-6 * (1.0 + std::abs(z.velocity));
  ImpactState p, q;
  if (!map(z, 1, next)) return false;
  if (!map({z.phase + h_phi, z.velocity}, 1, p) || !map({z.phase - h_phi, z.velocity}, 1, q))
    return false;
  D.col(0) << (p.phase - q.phase) / (2.0 * h_phi), (p.velocity - q.velocity) / (2.0 * h_phi);
  if (!map({z.phase, z.velocity + h_v}, 1, p) || !map({z.phase, z.velocity - h_v}, 1, q))
    return false;
  D.col(1) << (p.phase - q.phase) / (2.0 * h_v), (p.velocity - q.velocity) / (2.0 * h_v);
  if (hi == nullptr || lo == nullptr) return true;
  const double h = hi->omega() - omega();
  if (!hi->map(z, 1, p) || !lo->map(z, 1, q)) return false;
  dw << (p.phase - q.phase) / (2.0 * h), (p.velocity - q.velocity) / (2.0 * h);
  return true;
}

bool ImpactOscillator::linearize(const ImpactState& z, int m, ImpactState& out, Eigen::Matrix2d& DP,
                                 Eigen::Vector2d* dP_domega) const {
  // the chain rule over the m impacts, each factor by central differences of one impact (the
  // differences of P^m itself lose accuracy as the orbit's multipliers grow);
  // d/dω P^m = Σ_k D(P^{m−k−1})(z_{k+1}) ∂P/∂ω(z_k), accumulated forwards
  const double h = 1e-6 * (1.0 + omega());
  std::optional<ImpactOscillator> hi, lo;
  if (dP_domega != nullptr) {
    hi.emplace(at_omega(omega() + h));
    lo.emplace(at_omega(omega() - h));
    dP_domega->setZero();
  }
  DP.setIdentity();
  ImpactState cur = z;
  for (int k = 0; k < m; ++k) {
    ImpactState next;
    Eigen::Matrix2d D;
    Eigen::Vector2d dw;
    if (!linearize_one(cur, hi ? &*hi : nullptr, lo ? &*lo : nullptr, next, D, dw)) return false;
    DP = D * DP;
    if (dP_domega != nullptr) *dP_domega = D * *dP_domega + dw;
    cur = next;
  }
  out = cur;
  return true;
}

bool ImpactOscillator::jacobian(const ImpactState& z, int m, Eigen::Matrix2d& DP) const {
  ImpactState out;
  return linearize(z, m, out, DP, nullptr);
}

bool ImpactOscillator::omega_derivative(const ImpactState& z, int m, Eigen::Vector2d& dP) const {
  ImpactState out;
  Eigen::Matrix2d DP;
  return linearize(z, m, out, DP, &dP);
}

bool ImpactOscillator::monodromy_saltation(const ImpactState& z, int m, Eigen::Matrix3d& M) const {
  const double A = amplitude(), w = omega(), g = gravity(), e = restitution();
  M = Eigen::Matrix3d::Identity();
  ImpactState cur = z;
  for (int k = 0; k < m; ++k) {
    const Flight f = fly(model_, cur);
    if (!f.ok) return false;
    const double tau = f.t1;
    Eigen::Matrix3d F = Eigen::Matrix3d::Identity();
    F(0, 1) = f.t1 - f.t0;
    Eigen::Matrix3d G = Eigen::Matrix3d::Identity();
    G(1, 1) = -e;
    G(1, 2) = -(1.0 + e) * A * w * w * std::sin(w * tau);
    const Eigen::Vector3d h_x{1.0, 0.0, -A * w * std::cos(w * tau)};
    const Eigen::Vector3d f_in{f.v_pre, -g, 1.0};
    const Eigen::Vector3d f_out{f.v_post, -g, 1.0};
    const Eigen::Matrix3d S = G + (f_out - G * f_in) * h_x.transpose() / h_x.dot(f_in);
    M = S * F * M;
    cur = {w * f.t1, f.v_post};
  }
  return true;
}

double ImpactOscillator::grazing_margin(const ImpactState& z, int m) const {
  const double R = model_.feature(0).radius;
  const model::Surface& s = model_.surface();
  const double g = gravity();
  double margin = std::numeric_limits<double>::infinity();
  ImpactState cur = z;
  for (int k = 0; k < m; ++k) {
    const Flight f = fly(model_, cur);
    if (!f.ok) return -1.0;
    const double y0 = s.h(f.t0) + R;
    const double v0 = cur.velocity;
    const auto gap = [&](double t) {
      const double tau = t - f.t0;
      return y0 + v0 * tau - 0.5 * g * tau * tau - R - s.h(t);
    };
    // the interior local minima of the gap (the flight starts and ends on the surface), sampled
    // at 512 points and refined by golden sections
    const int n = 512;
    const double dt = (f.t1 - f.t0) / n;
    for (int j = 2; j < n - 1; ++j) {
      const double gj = gap(f.t0 + j * dt);
      if (!(gj < gap(f.t0 + (j - 1) * dt) && gj <= gap(f.t0 + (j + 1) * dt))) continue;
      double a = f.t0 + (j - 1) * dt, b = f.t0 + (j + 1) * dt;
      const double r = 0.5 * (std::sqrt(5.0) - 1.0);
      for (int it = 0; it < 60; ++it) {
        const double c = b - r * (b - a);
        const double d = a + r * (b - a);
        if (gap(c) < gap(d)) {
          b = d;
        } else {
          a = c;
        }
      }
      margin = std::min(margin, gap(0.5 * (a + b)));
    }
    cur = {omega() * f.t1, f.v_post};
  }
  return margin;
}

std::vector<double> ImpactOscillator::apexes(const ImpactState& z, int m) const {
  const double R = model_.feature(0).radius;
  std::vector<double> out;
  ImpactState cur = z;
  for (int k = 0; k < m; ++k) {
    const double y0 = model_.surface().h(cur.phase / omega()) + R;
    out.push_back(cur.velocity > 0.0 ? y0 + cur.velocity * cur.velocity / (2.0 * gravity()) : y0);
    if (k + 1 < m && !map(cur, 1, cur)) break;
  }
  return out;
}

std::array<std::complex<double>, 2> eigenvalues(const Eigen::Matrix2d& A) {
  const double tr = A.trace();
  const double det = A.determinant();
  const std::complex<double> root = std::sqrt(std::complex<double>(tr * tr / 4.0 - det, 0.0));
  return {tr / 2.0 + root, tr / 2.0 - root};
}

PeriodicOrbit find_periodic_orbit(const ImpactOscillator& osc, ImpactState z0, int impacts,
                                  int periods, double tol, int max_iter) {
  require(impacts >= 1 && impacts <= 1024, "impacts", "impacts per orbit must lie in [1, 1024]");
  require(periods >= 1 && periods <= 1024, "periods", "forcing periods must lie in [1, 1024]");
  PeriodicOrbit o;
  o.impacts = impacts;
  o.periods = periods;
  o.z = z0;
  const double shift = 2.0 * kPi * periods;
  for (o.iterations = 0; o.iterations < max_iter; ++o.iterations) {
    ImpactState p;
    if (!osc.map(o.z, impacts, p)) return o;
    const Eigen::Vector2d R{p.phase - o.z.phase - shift, p.velocity - o.z.velocity};
    o.residual = R.norm();
    if (o.residual < tol) {
      o.converged = true;
      break;
    }
    Eigen::Matrix2d DP;
    if (!osc.jacobian(o.z, impacts, DP)) return o;
    const Eigen::Vector2d dz = (DP - Eigen::Matrix2d::Identity()).fullPivLu().solve(-R);
    o.z.phase += dz(0);
    o.z.velocity += dz(1);
  }
  if (o.converged && osc.jacobian(o.z, impacts, o.DP)) {
    o.multipliers = eigenvalues(o.DP);
    o.stable = std::abs(o.multipliers[0]) < 1.0 && std::abs(o.multipliers[1]) < 1.0;
  }
  return o;
}

ClosedFormOrbit closed_form_orbit(double A, double omega, double g, double e, int n) {
  require(std::isfinite(A) && A > 0.0, "amplitude", "must be positive and finite [m]", A);
  require(std::isfinite(omega) && omega > 0.0, "omega", "must be positive and finite [rad/s]",
          omega);
  require(std::isfinite(g) && g > 0.0, "gravity", "must be positive and finite [m/s^2]", g);
  require(e >= 0.0 && e <= 1.0, "e", "must lie in [0, 1]", e);
  require(n >= 1, "periods", "must be >= 1", n);
  ClosedFormOrbit c;
  const double gamma = A * omega * omega / g;
  const double gamma_sn = n * kPi * (1.0 - e) / (1.0 + e);
  const double q = 2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e));
  c.omega_sn = std::sqrt(gamma_sn * g / A);
  c.omega_pd = std::sqrt(std::sqrt(gamma_sn * gamma_sn + q * q) * g / A);
  c.determinant = e * e;
  if (gamma < gamma_sn) return c;
  c.exists = true;
  const double phi = std::acos(gamma_sn / gamma);
  const double v = g * kPi * n / omega;
  c.stable = {phi, v};
  c.unstable = {-phi, v};
  c.trace_stable = 1.0 + e * e - (1.0 + e) * (1.0 + e) * gamma * std::sin(phi);
  return c;
}

}  // namespace clatter::analysis
