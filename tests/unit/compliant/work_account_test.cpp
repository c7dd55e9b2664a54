// The work account of a compliant impact (work_account.hpp): the work integrals by quadrature
// against the energy identities of [Bi] §4.2.1.3 / spec §3.8 — friction is the only dissipation
// (residual 0), Σ W = ΔKE, W3c + W3r = 0 after separation, gross stick loses nothing — and the
// pseudo-inverse kinetic energy of a singular W.

#include "clatter/compliant/work_account.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace clatter::compliant {
namespace {

void expect_balanced(const Model& m, double x0, double z0) {
  const Result r = solve(m, x0, z0);
  ASSERT_EQ(r.status, SolveStatus::kOk);
  const WorkAccount L = work_account(m, r);
  const double E0 = L.kinetic_energy_pre;
  EXPECT_NEAR(L.residual / E0, 0.0, 1e-12);
  EXPECT_LE(L.friction_work, 1e-15 * E0);
  for (int i = 0; i < r.n_phases; ++i) EXPECT_LE(L.friction_work_phase[i], 1e-15 * E0);
  const double total = L.work1_c + L.work1_r + L.work3_c + L.work3_r;
  EXPECT_NEAR((total - L.kinetic_energy_change) / E0, 0.0, 1e-12);
  if (r.last().end == PhaseEnd::kSeparation) {
    EXPECT_NEAR((L.work3_c + L.work3_r) / E0, 0.0, 1e-12);  // ∫F3 ż = −½k3[u3²] = 0
    EXPECT_EQ(L.spring_energy_end, 0.0);
  }
  EXPECT_LE(L.work3_c, 0.0);  // compression absorbs energy in the normal spring
  // the same impact in the one energy ledger: its balance is the residual, friction its loss
  const EnergyLedger ledger = L.ledger();
  EXPECT_NEAR(ledger.balance() / E0, 0.0, 1e-12);
  EXPECT_NEAR(ledger.balance(), L.residual, 1e-15 * E0);
  EXPECT_GE(ledger.friction_loss, -1e-15 * E0);
  EXPECT_NEAR(ledger.total(), E0 + L.kinetic_energy_change + L.spring_energy_end, 1e-15 * E0);
}

TEST(WorkAccount, BalancesForEveryCaseOfTheCatalogue) {
  const Model sphere{{3.5, 0.0, 1.0}, 1.0, 1.21, 0.5};
  for (double r : {0.2, 1.0, 4.0})
    expect_balanced(sphere, r, -1.0);  // stick-slip, s-s-s, gross slip
  const Model rod{{2.5, -1.5, 2.5}, 1.0, 1.21, 0.6};
  for (double r : {0.6, 0.8}) expect_balanced(rod, r, -1.0);
  for (const double deg : {30.0, 70.0, 13.0}) {  // slip-stick-slip, gross stick, wedge
    const double th = deg * std::numbers::pi / 180.0, C = std::cos(th), S = std::sin(th);
    const Model p{{C * C, S * C, S * S}, 1.0, 1.21, 0.5};
    expect_balanced(p, -C, -S);
  }
}

TEST(WorkAccount, GrossStickLosesNothing) {
  const double th = 70.0 * std::numbers::pi / 180.0, C = std::cos(th), S = std::sin(th);
  const Model p{{C * C, S * C, S * S}, 1.0, 1.21, 0.5};
  const WorkAccount L = work_account(p, solve(p, -C, -S));
  EXPECT_NEAR(L.kinetic_energy_change / L.kinetic_energy_pre, 0.0, 1e-12);
  EXPECT_EQ(L.friction_work, 0.0);
  EXPECT_NEAR(L.work1_c + L.work1_r, 0.0, 1e-12);  // [T] W1c + W1r = 0
}

TEST(WorkAccount, WedgeStoresEnergyInTheSprings) {
  const double th = 13.0 * std::numbers::pi / 180.0, C = std::cos(th), S = std::sin(th);
  const Model p{{C * C, S * C, S * S}, 1.0, 1.21, 0.5};
  const Result r = solve(p, -C, -S);
  const WorkAccount L = work_account(p, r);
  EXPECT_EQ(L.t_end, r.t_lock);
  // at the lock the pendulum is at rest: all the energy is dissipated or stored
  EXPECT_NEAR((L.kinetic_energy_change + L.kinetic_energy_pre) / L.kinetic_energy_pre, 0.0, 1e-12);
  EXPECT_GT(L.spring_energy_end, 0.0);
  EXPECT_NEAR((L.spring_energy_end - L.friction_work) / L.kinetic_energy_pre, 1.0, 1e-12);
}

TEST(WorkAccount, PseudoInverseKineticEnergy) {
  // pendulum W = K n nᵀ: ½ V²/K for v = −V n; the part of v outside range W is ignored
  const double K = 0.999, C = std::cos(0.4), S = std::sin(0.4);
  const ContactMatrix W{K * C * C, K * S * C, K * S * S};
  EXPECT_NEAR(contact_kinetic_energy(W, -2.0 * C, -2.0 * S), 2.0 / K, 1e-12);
  EXPECT_NEAR(contact_kinetic_energy(W, -2.0 * C - 0.3 * S, -2.0 * S + 0.3 * C), 2.0 / K, 1e-12);
  // full rank: ½ vᵀW⁻¹v
  const ContactMatrix F{2.0, 0.5, 1.0};
  EXPECT_NEAR(contact_kinetic_energy(F, 1.0, -1.0), F.energy_norm({1.0, -1.0}), 1e-14);
}

}  // namespace
}  // namespace clatter::compliant
