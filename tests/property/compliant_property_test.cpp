// Invariants of the compliant contact over random contacts (fixed seed), checked along the
// closed-form trajectory at 400 times per impact: the contact pushes (F3 ≥ 0), Coulomb holds
// (|F1| ≤ μF3), slip is consistent (ŝ s ≥ 0), the energy KE + ½k1u1² + ½k3u3² never increases,
// the total impulse lies in the friction cone, the contact leaves (ż_f ≥ 0) and the ledger
// balances ([Bi] §3.3, §4.2.1.3; spec §3.8).

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/compliant/work_account.hpp"

namespace clatter::compliant {
namespace {

TEST(CompliantProperty, InvariantsAlongRandomImpacts) {
  std::mt19937_64 rng(2012);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int outcomes[7] = {};
  for (int k = 0; k < 400; ++k) {
    Model m;
    const double A = std::exp(std::log(0.2) + u(rng) * std::log(25.0));
    const double C = std::exp(std::log(0.2) + u(rng) * std::log(25.0));
    const bool singular = k % 3 == 0;
    const double rho = singular ? (u(rng) < 0.5 ? -1.0 : 1.0) : 1.9 * u(rng) - 0.95;
    m.W = {A, rho * std::sqrt(A * C), C};
    m.k3 = std::exp(u(rng) * std::log(10.0));
    m.eta = std::exp(std::log(0.02) + u(rng) * std::log(150.0));
    m.mu = 2.0 * u(rng);
    double x0, z0;
    if (singular) {  // v0 ∈ range W (a constrained body)
      const double nx = std::sqrt(A), nz = rho * std::sqrt(C), n = std::hypot(nx, nz);
      x0 = -nx / n * (nz > 0 ? 1.0 : -1.0);
      z0 = -std::abs(nz) / n;
    } else {
      const double angle = std::numbers::pi * (1.0 + u(rng));
      x0 = std::cos(angle);
      z0 = std::sin(angle);
    }
    SCOPED_TRACE(k);
    const Result r = solve(m, x0, z0);
    ASSERT_EQ(r.status, SolveStatus::kOk);
    ++outcomes[static_cast<int>(r.outcome)];
    const WorkAccount L = work_account(m, r);
    const double E0 = L.kinetic_energy_pre;
    EXPECT_NEAR(L.residual, 0.0, 1e-11 * E0);
    const double t_end = L.t_end;
    double E_prev = E0;
    const double f_scale = m.k3 * std::abs(z0) / std::sqrt(m.k3 * C);
    for (int i = 0; i <= 400; ++i) {
      const double t = t_end * i / 400;
      const State s = state_at(m, r, t);
      const double F1 = s.F1(m), F3 = s.F3(m);
      EXPECT_GE(F3, -1e-12 * f_scale);
      EXPECT_LE(std::abs(F1), m.mu * F3 + 1e-9 * f_scale);
      const Eigen::Vector2d P(s.P1, s.P3);
      const double E =
          P.dot(Eigen::Vector2d(x0, z0)) + 0.5 * P.dot(m.W.matrix() * P) + E0 + s.spring_energy(m);
      EXPECT_LE(E, E_prev + 1e-11 * E0);
      E_prev = E;
    }
    for (int i = 0; i < r.n_phases; ++i) {
      const Phase& ph = r.phases[i];
      if (ph.mode != Mode::kSlip) continue;
      const double t1 = std::isfinite(ph.t_end) ? ph.t_end : ph.t_start;
      for (int j = 0; j <= 20; ++j) {
        const State s = state_at(m, r, ph.t_start + (t1 - ph.t_start) * j / 20);
        EXPECT_GE(ph.slip_sign * s.slip_velocity(), -1e-9 * std::hypot(x0, z0));
      }
    }
    if (r.last().end == PhaseEnd::kSeparation) {
      EXPECT_GE(r.final_state.z_dot, 0.0);
      EXPECT_LE(std::abs(r.final_state.P1), m.mu * r.final_state.P3 * (1 + 1e-12) + 1e-15);
    }
  }
  // the sample covers the catalogue (gross stick, stick-slip, slip-stick-slip, gross slip, wedge)
  for (int o = 0; o < 5; ++o) EXPECT_GT(outcomes[o], 0) << to_string(static_cast<Outcome>(o));
}

}  // namespace
}  // namespace clatter::compliant
