// Impacts at a rank-one contact (laws/rank_one_impact.hpp), checked against
//  - the rigid pendulum of [Bi] §4.2.1.4 (compliant/pendulum_rigid.hpp, e*√((tanθ−μ)/(tanθ+μ)),
//    wedge for μ ≥ tanθ), an independent closed form, to 1e-12;
//  - the two-dimensional laws on W + εI as ε → 0 (Stronge's closed form and the Poisson marcher
//    on a nearly singular but SPD matrix converge to the rank-one result, error O(ε));
//  - physics over random inputs: v⁺ = v⁻ + WΛ, v_N⁺ ≥ 0, |Λ_T| ≤ μΛ_N, and no energy gain for
//    the energetic and Poisson laws.

#include "clatter/laws/rank_one_impact.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "clatter/compliant/pendulum_rigid.hpp"

namespace clatter {
namespace {

// W = K n nᵀ with n = (cos θ, sin θ): the pendulum of [Bi] (pendulum_rigid.hpp)
ContactMatrix pendulum_W(double K, double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  return {K * c * c, K * c * s, K * s * s};
}

TEST(RankOneImpact, PendulumReboundIsTheRigidClosedForm) {
  for (double theta : {0.3, 0.7, 1.0, 1.3}) {
    for (double mu : {0.0, 0.2, 0.5, 1.0, 3.0}) {
      for (double e : {1.0, 0.6}) {
        const ContactMatrix W = pendulum_W(2.5, theta);
        const double V0 = 1.3;
        const Vec2 v{-V0 * std::cos(theta), -V0 * std::sin(theta)};  // along n, approaching
        const ImpactOutcome o = apply_law(LawKind::kStronge, {v, W}, {mu, e});
        const double ratio = o.v_post.y() / -v.y();
        EXPECT_NEAR(ratio, compliant::rigid_energetic_rebound(theta, mu, e), 1e-12)
            << "theta " << theta << " mu " << mu << " e " << e;
        const ImpactOutcome p = apply_law(LawKind::kPoisson, {v, W}, {mu, e});
        EXPECT_NEAR(p.v_post.y() / -v.y(), compliant::thesis_eq_4_69_rebound(theta, mu, e), 1e-12);
      }
    }
  }
}

// A contact that moves along its normal only (J_T = 0: W = diag(0, C)): nothing slides, so the
// tangential impulse is 0 whatever μ (it was ±μΛ_N with the sign of B = 0 taken as +), and the
// normal rebound is e*'s (k_c = k_e = C)
TEST(RankOneImpact, ANormalOnlyContactHasNoTangentialImpulse) {
  const ContactMatrix W{0.0, 0.0, 0.5};
  for (LawKind law : {LawKind::kStronge, LawKind::kPoisson, LawKind::kNewton}) {
    const ImpactOutcome o = rank_one_impact(law, {Vec2(0.0, -2.0), W}, {0.3, 0.7});
    EXPECT_EQ(o.Lambda.x(), 0.0);
    EXPECT_NEAR(o.v_post.y(), 1.4, 1e-15);
    EXPECT_NEAR(o.Lambda.y(), 1.7 * 2.0 / 0.5, 1e-13);  // (1 + e) |v_N⁻| / C
    EXPECT_EQ(o.v_post.x(), 0.0);
  }
}

TEST(RankOneImpact, IsTheLimitOfTheTwoDimensionalLaws) {
  const ContactMatrix W = pendulum_W(1.7, 0.9);
  const Vec2 v = -0.8 * Vec2(std::cos(0.9), std::sin(0.9));
  for (double mu : {0.1, 0.5, 0.9}) {
    const ImpactOutcome r1 = rank_one_impact(LawKind::kStronge, {v, W}, {mu, 0.7});
    const ImpactOutcome rp = rank_one_impact(LawKind::kPoisson, {v, W}, {mu, 0.7});
    for (double eps : {1e-3, 1e-4, 1e-5}) {
      const ContactMatrix We{W.A + eps, W.B, W.C + eps};
      const ImpactOutcome r2 = apply_law(LawKind::kStronge, {v, We}, {mu, 0.7});
      EXPECT_NEAR(r2.v_post.y(), r1.v_post.y(), 50.0 * eps) << "mu " << mu << " eps " << eps;
      const ImpactOutcome p2 = apply_law(LawKind::kPoisson, {v, We}, {mu, 0.7});
      EXPECT_NEAR(p2.v_post.y(), rp.v_post.y(), 50.0 * eps) << "mu " << mu << " eps " << eps;
    }
  }
}

TEST(RankOneImpact, PhysicsOverRandomInputs) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  const LawKind laws[] = {LawKind::kStronge, LawKind::kPoisson, LawKind::kNewton,
                          LawKind::kWhittaker, LawKind::kBrach};
  for (int i = 0; i < 20000; ++i) {
    const double phi = 2.0 * M_PI * U(rng);  // direction of the line (any sign of B)
    const Vec2 u{std::cos(phi), std::sin(phi)};
    if (std::abs(u.y()) < 1e-3) continue;
    const double K = 0.1 + 5.0 * U(rng);
    const ContactMatrix W{K * u.x() * u.x(), K * u.x() * u.y(), K * u.y() * u.y()};
    const Vec2 v = -(0.01 + 3.0 * U(rng)) * (u.y() > 0.0 ? u : Vec2(-u));
    const ImpactParams p{3.0 * U(rng), U(rng)};
    for (LawKind law : laws) {
      const ImpactOutcome o = apply_law(law, {v, W}, p);
      const Vec2 WL{W.A * o.Lambda.x() + W.B * o.Lambda.y(),
                    W.B * o.Lambda.x() + W.C * o.Lambda.y()};
      EXPECT_NEAR((v + WL - o.v_post).norm(), 0.0, 1e-12 * (1.0 + v.norm()));
      EXPECT_GE(o.v_post.y(), 0.0);
      EXPECT_GE(o.Lambda.y(), 0.0);
      EXPECT_LE(std::abs(o.Lambda.x()), p.mu * o.Lambda.y() * (1.0 + 1e-12) + 1e-15);
      if (law == LawKind::kStronge || law == LawKind::kPoisson) {
        EXPECT_LE(o.delta_energy, 1e-12 * v.squaredNorm() / K);
        EXPECT_EQ(o.status, Status::kOk);
      }
    }
  }
}

TEST(RankOneImpact, BadInputNamesTheField) {
  const ContactMatrix W = pendulum_W(1.0, 0.5);
  const Vec2 on_line = -Vec2(std::cos(0.5), std::sin(0.5));
  EXPECT_THROW((void)rank_one_impact(LawKind::kStronge, {Vec2(0.3, -1.0), W}, {0.1, 0.5}),
               InvalidArgument);  // off the line of motion
  EXPECT_THROW((void)rank_one_impact(LawKind::kStronge, {-on_line, W}, {0.1, 0.5}),
               InvalidArgument);  // separating
  EXPECT_THROW((void)rank_one_impact(LawKind::kStronge, {on_line, W}, {-0.1, 0.5}),
               InvalidArgument);
}

}  // namespace
}  // namespace clatter
