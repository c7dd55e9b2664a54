#include "clatter/model/conformance.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "clatter/contact/delassus.hpp"
#include "clatter/core/error.hpp"

namespace clatter::model {

bool ConformanceReport::pass() const {
  return std::all_of(checks.begin(), checks.end(),
                     [](const ConformanceCheck& c) { return c.pass; });
}

std::string ConformanceReport::message() const {
  std::ostringstream out;
  for (const ConformanceCheck& c : checks)
    if (!c.pass)
      out << c.name << ": relative error " << c.error << " > tolerance " << c.tolerance << "\n";
  return out.str();
}

const ConformanceCheck* ConformanceReport::find(const std::string& name) const {
  for (const ConformanceCheck& c : checks)
    if (c.name == name) return &c;
  return nullptr;
}

namespace {

void add(ConformanceReport& r, std::string name, double error, double tol) {
  const bool pass = std::isfinite(error) && error <= tol;
  r.checks.push_back({std::move(name), error, tol, pass});
}

struct FreeState {
  VecQ q, qd;
  VecA a;
  double work{0.0};  // ∫P_a dt
};

// the free motion (no contact forces): q̈ = M⁻¹ f, ȧ = ψ, Ẇ = P_a
struct FreeRate {
  VecQ dq, dqd;
  VecA da;
  double dwork{0.0};
};

FreeRate free_rate(const System& m, double t, const FreeState& s) {
  MassFactor mf;
  m.factor_mass(t, s.q, mf);
  FreeRate r;
  r.dq = s.qd;
  r.dqd = mf.solve(m.applied_forces(t, s.q, s.qd, s.a));
  r.da = m.num_aux() > 0 ? m.aux_rate(t, s.q, s.qd, s.a) : VecA::Zero(s.a.size());
  r.dwork = m.applied_power(t, s.q, s.qd, s.a);
  return r;
}

FreeState step(const FreeState& s, const FreeRate& r, double h) {
  FreeState o = s;
  o.q += h * r.dq;
  o.qd += h * r.dqd;
  o.a += h * r.da;
  o.work += h * r.dwork;
  return o;
}

double energy(const System& m, double t, const FreeState& s) {
  return m.kinetic_energy(t, s.q, s.qd) + m.potential_energy(t, s.q);
}

}  // namespace

ConformanceReport check_conformance(const System& m, double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux_in, const ConformanceOptions& o) {
  const int n = m.nq();
  require(q.size() == n, "q", "must have nq entries");
  require(qd.size() == n, "qdot", "must have nq entries");
  const VecA aux = aux_in.size() == 0 ? VecA::Zero(m.num_aux()) : aux_in;
  require(aux.size() == m.num_aux(), "aux", "must have num_aux entries");
  ConformanceReport r;

  // --- mass matrix ---
  const MatQ M = m.mass_matrix(t, q);
  const double Mmax = std::max(M.cwiseAbs().maxCoeff(), 1e-300);
  add(r, "mass_symmetric", (M - M.transpose()).cwiseAbs().maxCoeff() / Mmax, o.tol_round);
  {
    const MatQ Ms = 0.5 * (M + M.transpose());
    Eigen::SelfAdjointEigenSolver<MatQ> eig(Ms);
    const double lmin = eig.eigenvalues().minCoeff(), lmax = eig.eigenvalues().maxCoeff();
    // error: how far λ_min/λ_max is below the floor (0 when positive definite)
    // (a negative definite M has λ_min/λ_max > 0 too: its λ_max ≤ 0 fails alone)
    add(r, "mass_spd",
        lmax <= 0.0                 ? 1.0 + std::abs(lmin) / Mmax
        : lmin > o.tol_round * lmax ? 0.0
                                    : 1.0 - lmin / lmax,
        0.0);
  }
  {
    const double T = m.kinetic_energy(t, q, qd);
    const double T2 = 0.5 * qd.dot(M * qd);
    add(r, "kinetic_energy",
        std::abs(T - T2) / (std::abs(T) + 0.5 * qd.squaredNorm() * Mmax + 1e-300), o.tol_round);
  }

  // free acceleration
  MassFactor mf;
  m.factor_mass(t, q, mf);
  const VecQ qdd = mf.solve(m.applied_forces(t, q, qd, aux));

  // --- contacts ---
  const double h = o.fd_step;
  // every contact at once equals each contact alone
  {
    std::array<ContactGeometry, kMaxContacts> all{};
    m.contact_geometries(t, q, qd, all);
    double err = 0.0;
    for (int c = 0; c < m.num_contacts(); ++c) {
      ContactGeometry g;
      m.contact_geometry(c, t, q, qd, g);
      const ContactGeometry& a = all[static_cast<std::size_t>(c)];
      const double sc =
          g.scale + g.v.norm() + g.w.norm() + g.gamma.norm() + g.J.cwiseAbs().maxCoeff() + 1.0;
      const bool same_shape = a.J.rows() == g.J.rows() && a.J.cols() == g.J.cols();
      err = std::max({err, same_shape ? 0.0 : 1.0,
                      (std::abs(a.g_N - g.g_N) + (a.v - g.v).norm() + (a.w - g.w).norm() +
                       (a.gamma - g.gamma).norm() + std::abs(a.scale - g.scale) +
                       (same_shape ? (a.J - g.J).cwiseAbs().maxCoeff() : 0.0)) /
                          sc});
    }
    add(r, "contact_geometries", err, o.tol_round);
  }
  // the one-call evaluation (System::evaluate) against the functions it stands for
  {
    Evaluation e;
    m.evaluate(t, q, qd, aux, e);
    const VecQ f = m.applied_forces(t, q, qd, aux);
    const double P = m.applied_power(t, q, qd, aux);
    const double fs = f.cwiseAbs().maxCoeff() + 1.0;
    const double as = qdd.cwiseAbs().maxCoeff() + 1.0;
    double err = e.f.size() == n ? (e.f - f).cwiseAbs().maxCoeff() / fs : 1.0;
    err = std::max(err, e.f.size() == n ? (e.mass.solve(f) - qdd).cwiseAbs().maxCoeff() / as : 1.0);
    err = std::max(err, std::abs(e.power_applied - P) / (std::abs(P) + fs * (qd.norm() + 1.0)));
    if (m.num_aux() > 0) {
      const VecA psi = m.aux_rate(t, q, qd, aux);
      err = std::max(err, e.aux_rate.size() == psi.size()
                              ? (e.aux_rate - psi).cwiseAbs().maxCoeff() / (psi.norm() + 1.0)
                              : 1.0);
    }
    for (int c = 0; c < m.num_contacts(); ++c) {
      ContactGeometry g;
      m.contact_geometry(c, t, q, qd, g);
      const ContactGeometry& a = e.contacts[static_cast<std::size_t>(c)];
      const double sc =
          g.scale + g.v.norm() + g.w.norm() + g.gamma.norm() + g.J.cwiseAbs().maxCoeff() + 1.0;
      const bool same_shape = a.J.rows() == g.J.rows() && a.J.cols() == g.J.cols();
      err = std::max(
          {err, same_shape ? 0.0 : 1.0,
           (std::abs(a.g_N - g.g_N) + (a.v - g.v).norm() + (a.w - g.w).norm() +
            (a.gamma - g.gamma).norm() + (same_shape ? (a.J - g.J).cwiseAbs().maxCoeff() : 0.0)) /
               sc});
    }
    add(r, "evaluate", err, o.tol_round);
  }
  for (int c = 0; c < m.num_contacts(); ++c) {
    const std::string pre = "contact." + m.contact(c).name + ".";
    ContactGeometry g;
    m.contact_geometry(c, t, q, qd, g);
    const Vec2 Jqd = g.J * qd;
    add(r, pre + "velocity", (g.v - (Jqd - g.w)).norm() / (Jqd.norm() + g.w.norm() + 1.0),
        o.tol_round);

    // normal row against the gap: ∂g_N/∂q_i = J_N,i and ∂g_N/∂t = −w_N
    double err = 0.0;
    const double sc = g.J.row(1).cwiseAbs().maxCoeff() + std::abs(g.w.y()) + 1.0;
    ContactGeometry gp, gm;
    for (int i = 0; i < n; ++i) {
      const double hi = h * std::max(1.0, std::abs(q(i)));
      VecQ qp = q, qm = q;
      qp(i) += hi;
      qm(i) -= hi;
      m.contact_geometry(c, t, qp, qd, gp);
      m.contact_geometry(c, t, qm, qd, gm);
      err = std::max(err, std::abs((gp.g_N - gm.g_N) / (2.0 * hi) - g.J(1, i)) / sc);
    }
    m.contact_geometry(c, t + h, q, qd, gp);
    m.contact_geometry(c, t - h, q, qd, gm);
    err = std::max(err, std::abs((gp.g_N - gm.g_N) / (2.0 * h) + g.w.y()) / sc);
    add(r, pre + "gap_gradient", err, o.tol_fd);

    // γ = dv/dt − J q̈ along the free motion
    {
      const VecQ qp = q + h * qd, qm = q - h * qd;
      const VecQ vp = qd + h * qdd, vm = qd - h * qdd;
      m.contact_geometry(c, t + h, qp, vp, gp);
      m.contact_geometry(c, t - h, qm, vm, gm);
      const Vec2 dvdt = ((gp.J * vp - gp.w) - (gm.J * vm - gm.w)) / (2.0 * h);
      const Vec2 Jqdd = g.J * qdd;
      const double s = dvdt.norm() + Jqdd.norm() + g.gamma.norm() + 1.0;
      add(r, pre + "gamma", (dvdt - Jqdd - g.gamma).norm() / s, o.tol_fd);
    }

    if (o.check_delassus) {
      MatQ MinvJt(n, 2);
      Mat2 W;
      delassus(mf, g.J, MinvJt, W);
      const double A = W(0, 0), C = W(1, 1), B = 0.5 * (W(0, 1) + W(1, 0));
      const double det = A * C - B * B;
      // positive definite, or of rank one (a contact moving along one line, handled by
      // laws/rank_one_impact.hpp); an indefinite W or C ≤ 0 fails
      const bool ok = A >= 0.0 && C > 0.0 && det >= -1e-12 * A * C;
      add(r, pre + "delassus", ok ? 0.0 : 1.0 + std::abs(det) / std::max(A * C, 1e-300), 0.0);
    }
  }

  // --- energy along a free run ---
  if (o.free_run_time > 0.0 && o.free_run_steps > 0) {
    FreeState s{q, qd, aux, 0.0};
    const double E0 = energy(m, t, s);
    const double dt = o.free_run_time / o.free_run_steps;
    double tt = t,
           scale = std::abs(m.kinetic_energy(t, q, qd)) + std::abs(m.potential_energy(t, q));
    double abs_work = 0.0;
    // the broad phase's horizons, along the free run while every gap stays open (no event)
    std::array<double, kMaxContacts> tau{};
    const bool horizons = m.open_horizons(t, q, qd, aux, tau);
    bool all_open = horizons;
    double horizon_err = 0.0;
    ContactGeometry gh;
    for (int c = 0; c < m.num_contacts() && horizons; ++c) {
      const double tc = tau[static_cast<std::size_t>(c)];
      if (std::isnan(tc) || tc < 0.0) horizon_err = std::max(horizon_err, 1.0);
      m.contact_geometry(c, t, q, qd, gh);
      all_open = all_open && gh.g_N > 0.0;
    }
    for (int k = 0; k < o.free_run_steps; ++k) {
      const FreeRate k1 = free_rate(m, tt, s);
      const FreeRate k2 = free_rate(m, tt + 0.5 * dt, step(s, k1, 0.5 * dt));
      const FreeRate k3 = free_rate(m, tt + 0.5 * dt, step(s, k2, 0.5 * dt));
      const FreeRate k4 = free_rate(m, tt + dt, step(s, k3, dt));
      s.q += dt / 6.0 * (k1.dq + 2.0 * k2.dq + 2.0 * k3.dq + k4.dq);
      s.qd += dt / 6.0 * (k1.dqd + 2.0 * k2.dqd + 2.0 * k3.dqd + k4.dqd);
      s.a += dt / 6.0 * (k1.da + 2.0 * k2.da + 2.0 * k3.da + k4.da);
      s.work += dt / 6.0 * (k1.dwork + 2.0 * k2.dwork + 2.0 * k3.dwork + k4.dwork);
      abs_work += dt * std::abs(k1.dwork);
      tt += dt;
      for (int c = 0; c < m.num_contacts() && all_open; ++c) {
        m.contact_geometry(c, tt, s.q, s.qd, gh);
        if (gh.g_N > 0.0) continue;
        // contact c closes at this step: a horizon reaching past it was wrong (beyond round-off)
        if (tt <= t + tau[static_cast<std::size_t>(c)])
          horizon_err = std::max(horizon_err, -gh.g_N / (gh.scale + 1e-300));
        all_open = false;  // an event: the horizons' promise ends here
      }
      scale = std::max(
          scale, std::abs(m.kinetic_energy(tt, s.q, s.qd)) + std::abs(m.potential_energy(tt, s.q)));
    }
    const double residual = energy(m, tt, s) - E0 - s.work;
    add(r, "energy", std::abs(residual) / (scale + abs_work + 1e-300), o.tol_energy);
    if (horizons) add(r, "open_horizons", horizon_err, o.tol_round);
  }
  return r;
}

}  // namespace clatter::model
