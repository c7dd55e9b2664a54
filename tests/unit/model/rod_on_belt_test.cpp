// The rod on a belt (model/rod_on_belt.hpp) against the equations printed in [NDC] §2.3
// (spec/003_dib.md §2.2): the equations of motion with contact forces, W = [[A, B], [B, C]] of
// Eq. 12, the impact map Δθ̇ = −(3/4)(sin θ Δv_T + cos θ Δv_N); a run in sustained sliding (not in
// the paper) whose ledger must balance; parameter errors naming the key. Tolerances: 1e-12 for
// closed forms evaluated in double precision (terms of order 1..10).

#include <gtest/gtest.h>

#include <Eigen/LU>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "clatter/contact/delassus.hpp"
#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/registry.hpp"
#include "clatter/model/rod_on_belt.hpp"

namespace clatter::model {
namespace {

RodOnBeltParameters table3_row_1_3() {
  RodOnBeltParameters p;
  p.v_dr = 1.8;
  p.k_x = 0.6;
  p.k_y = 1.0;
  p.k_theta = 1.6;
  p.c_x = 0.1;
  p.c_y = 1.0;
  p.c_theta = 0.12;
  p.y0 = 0.5;
  p.y1 = 0.8;
  p.theta0 = 0.275 * std::numbers::pi;
  return p;
}

TEST(RodOnBelt, EquationsOfMotionAreThePapers) {
  // ẍ = S_x − 3R s − θ̇² c + (1 + 3s²) λ_T + 3sc λ_N
  // ÿ = S_y − 3R c + θ̇² s + 3sc λ_T + (1 + 3c²) λ_N
  // θ̈ = 3R − 3c λ_N − 3s λ_T
  LawChoice law;
  law.params.e = 1.0;
  const RodOnBelt m(table3_row_1_3(), law);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int k = 0; k < 20; ++k) {
    VecQ q(3), qd(3);
    q << u(rng), u(rng), 3.0 * u(rng);
    qd << u(rng), u(rng), u(rng);
    const double t = std::abs(u(rng)), lT = u(rng), lN = std::abs(u(rng));
    const double s = std::sin(q(2)), c = std::cos(q(2)), w = qd(2);
    const Vec3 F = m.forces_at_G(t, q, qd);  // S_x, S_y, R
    ContactGeometry g;
    m.contact_geometry(0, t, q, qd, g);
    MassFactor mf;
    m.factor_mass(t, q, mf);
    const VecQ acc = mf.solve(m.applied_forces(t, q, qd, VecA()) + g.J.transpose() * Vec2(lT, lN));
    EXPECT_NEAR(acc(0), F(0) - 3 * F(2) * s - w * w * c + (1 + 3 * s * s) * lT + 3 * s * c * lN,
                1e-12);
    EXPECT_NEAR(acc(1), F(1) - 3 * F(2) * c + w * w * s + 3 * s * c * lT + (1 + 3 * c * c) * lN,
                1e-12);
    EXPECT_NEAR(acc(2), 3 * F(2) - 3 * c * lN - 3 * s * lT, 1e-12);
    // the forces themselves ([NDC] §5.3)
    EXPECT_NEAR(F(0), -0.6 * (q(0) - 1.8 * t) - 0.1 * (qd(0) - 1.8), 1e-12);
    const double dy = q(1) - 0.5;
    EXPECT_NEAR(F(1), -dy - (dy * dy - 0.64) * qd(1), 1e-12);
    EXPECT_NEAR(F(2), -1.6 * (q(2) - 0.275 * std::numbers::pi) - 0.12 * w, 1e-12);
    // Eq. 12 and the impact map
    MatQ MinvJt(3, 2);
    Mat2 W;
    delassus(mf, g.J, MinvJt, W);
    EXPECT_NEAR(W(0, 0), 1 + 3 * s * s, 1e-12);
    EXPECT_NEAR(W(0, 1), 3 * s * c, 1e-12);
    EXPECT_NEAR(W(1, 1), 1 + 3 * c * c, 1e-12);
    // Δq̇ = M⁻¹Jᵀ W⁻¹ Δv: Δẋ = Δv_T, Δẏ = Δv_N, Δθ̇ = −(3/4)(s Δv_T + c Δv_N)
    const Vec2 dv(u(rng), u(rng));
    const VecQ dq = MinvJt * W.inverse() * dv;
    EXPECT_NEAR(dq(0), dv(0), 1e-12);
    EXPECT_NEAR(dq(1), dv(1), 1e-12);
    EXPECT_NEAR(dq(2), -0.75 * (s * dv(0) + c * dv(1)), 1e-12);
  }
}

TEST(RodOnBelt, SustainedSlidingBalancesTheLedger) {
  // not in the paper: the vertical spring pulls P1 onto the line (y₀ = −0.3, no van der Pol), a
  // plastic landing (r = 0), then sliding with μ = 0.3 for 40 time units. The ledger balances
  // to 1e-9 of the energies (RK tolerances 1e-12), and friction dissipates.
  RodOnBeltParameters p = table3_row_1_3();
  p.v_dr = 0.5;
  p.c_y = 0.0;
  p.y1 = 0.0;
  p.y0 = -0.3;
  LawChoice law;
  law.params.e = 0.0;
  law.params.mu = 0.3;
  const RodOnBelt m(p, law);
  hybrid::SimulationOptions o;
  o.t_end = 40.0;
  const hybrid::SimulationResult r =
      hybrid::simulate(m, hybrid::InitialState(0.0, {0.0, 0.01, p.theta0}, {0.0, -0.1, 0.0}), o);
  ASSERT_EQ(r.reason, hybrid::StopReason::kEndTime) << r.message;
  EXPECT_NE(r.modes[0], hybrid::ContactMode::kOpen);  // still on the line
  const EnergyLedger& L = r.energy;
  EXPECT_GT(L.friction_loss, 1.0);
  const double scale = std::abs(L.initial) + std::abs(L.total()) + std::abs(L.applied_work) +
                       L.impact_loss + L.friction_loss;
  EXPECT_LT(std::abs(L.balance()), 1e-9 * scale);
  EXPECT_LT(r.max_gap_drift, 1e-9);
}

TEST(RodOnBelt, BadParametersNameTheKey) {
  for (const char* key : {"k_x", "k_y", "k_theta", "c_x", "c_y", "c_theta", "y1"}) {
    NumberSpec spec({{key, -1.0}});
    try {
      (void)make_model("rod_on_belt", spec);
      FAIL() << key << " < 0 accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.field(), std::string("model.") + key) << e.what();
      EXPECT_NE(std::string(e.what()).find(">= 0"), std::string::npos) << e.what();
    }
  }
  NumberSpec bad_r({{"r", 1.2}});
  EXPECT_THROW((void)make_model("rod_on_belt", bad_r), InvalidArgument);
  NumberSpec typo({{"k_xx", 1.0}});
  EXPECT_THROW((void)make_model("rod_on_belt", typo), InvalidArgument);
}

}  // namespace
}  // namespace clatter::model
