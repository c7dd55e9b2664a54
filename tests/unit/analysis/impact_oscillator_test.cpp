// Periodic orbits of the ball on the table A sin ωt (analysis/impact_oscillator.hpp), three ways:
// Newton shooting on the engine's impact map, the closed form of the orbits with one impact every
// n periods ([B] §6.3 [DERIVED], spec/000_thesis.md §6.3 and spec/001_hybrid_scheme.md §6.4:
// Γ cos φ = nπ(1 − e)/(1 + e), v = gπn/ω, det = e², tr = 1 + e² − (1 + e)² Γ sin φ), and the
// Floquet multipliers from the finite-difference Jacobian of the map against the monodromy with
// saltation matrices ([B] §5.4 with its sign fixes).

#include "clatter/analysis/impact_oscillator.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "clatter/core/error.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

ImpactOscillator oscillator(double e, double omega) {
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  return ImpactOscillator(model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}}));
}

// φ modulo 2π into (−π, π]
double wrap(double phi) { return std::remainder(phi, 2.0 * kPi); }

TEST(ImpactOscillator, ShootingFindsTheThesisPeriodOneOrbitsAtOmega3) {
  // [B] §6.3 [DERIVED] (spec/000_thesis.md): e* = 0.9, ω = 3, A = 1: the stable orbit impacts at
  // ωt_i = 1.38958 with apex h = 6.3626, the unstable one has h = 4.3953 (5 digits printed)
  const ImpactOscillator osc = oscillator(0.9, 3.0);
  const ClosedFormOrbit cf = closed_form_orbit(1.0, 3.0, kG, 0.9, 1);
  ASSERT_TRUE(cf.exists);
  const PeriodicOrbit s =
      find_periodic_orbit(osc, {cf.stable.phase + 0.05, 0.95 * cf.stable.velocity}, 1, 1);
  const PeriodicOrbit u =
      find_periodic_orbit(osc, {cf.unstable.phase - 0.05, 1.05 * cf.unstable.velocity}, 1, 1);
  ASSERT_TRUE(s.converged && u.converged);
  EXPECT_NEAR(wrap(s.z.phase), 1.38958, 5e-6);
  EXPECT_NEAR(osc.apexes(s.z, 1).at(0), 6.3626, 5e-5);
  EXPECT_NEAR(osc.apexes(u.z, 1).at(0), 4.3953, 5e-5);
  EXPECT_NEAR(s.z.velocity, kG * kPi / 3.0, 1e-9);
  EXPECT_TRUE(s.stable);
  EXPECT_FALSE(u.stable);  // a saddle: one multiplier above 1
}

struct Case {
  double e, omega;
  int n;
};

class ClosedFormCases : public ::testing::TestWithParam<Case> {};

TEST_P(ClosedFormCases, ShootingSaltationAndClosedFormAgree) {
  const Case c = GetParam();
  const ImpactOscillator osc = oscillator(c.e, c.omega);
  const ClosedFormOrbit cf = closed_form_orbit(1.0, c.omega, kG, c.e, c.n);
  ASSERT_TRUE(cf.exists);
  for (const bool stable_branch : {true, false}) {
    SCOPED_TRACE(stable_branch ? "stable branch" : "unstable branch");
    const ImpactState ref = stable_branch ? cf.stable : cf.unstable;
    const PeriodicOrbit o =
        find_periodic_orbit(osc, {ref.phase + 0.02, 1.02 * ref.velocity}, 1, c.n);
    ASSERT_TRUE(o.converged);
    // the orbit: the engine's map against the closed form, to the map's accuracy
    EXPECT_NEAR(wrap(o.z.phase - ref.phase), 0.0, 1e-9);
    EXPECT_NEAR(o.z.velocity, ref.velocity, 1e-9 * ref.velocity);
    // multipliers: finite differences against the closed form (det = e², trace)
    const double trace = 1.0 + c.e * c.e -
                         (1.0 + c.e) * (1.0 + c.e) * (c.omega * c.omega / kG) * std::sin(ref.phase);
    EXPECT_NEAR(o.DP.determinant(), c.e * c.e, 1e-7);
    EXPECT_NEAR(o.DP.trace(), trace, 1e-7 * (1.0 + std::abs(trace)));
    if (stable_branch) {
      EXPECT_NEAR(trace, cf.trace_stable, 1e-12);
    }
    // and against the monodromy with the saltation matrix: its eigenvalues are {1, λ₁, λ₂}
    Eigen::Matrix3d M;
    ASSERT_TRUE(osc.monodromy_saltation(o.z, 1, M));
    EXPECT_NEAR(M.determinant(), c.e * c.e, 1e-9);
    EXPECT_NEAR(M.trace(), 1.0 + trace, 1e-7 * (1.0 + std::abs(trace)));
    const Eigen::Vector3cd ev = Eigen::EigenSolver<Eigen::Matrix3d>(M).eigenvalues();
    for (const auto& lambda : o.multipliers) {
      double nearest = 1e300;
      for (int k = 0; k < 3; ++k) nearest = std::min(nearest, std::abs(ev(k) - lambda));
      EXPECT_LT(nearest, 1e-6 * (1.0 + std::abs(lambda)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ImpactOscillator, ClosedFormCases,
                         ::testing::Values(Case{0.9, 3.0, 1}, Case{0.9, 2.5, 2}, Case{0.7, 3.0, 1},
                                           Case{0.5, 3.5, 1}, Case{0.3, 4.3, 1}, Case{0.8, 4.0, 3}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return "e0" + std::to_string(static_cast<int>(i.param.e * 10 + 0.5)) +
                                  "_n" + std::to_string(i.param.n) + "_case" +
                                  std::to_string(i.index);
                         });

TEST(ImpactOscillator, ChainRuleJacobianMatchesDifferencesOfTheComposedMap) {
  // D(P³) as the product of one-impact Jacobians against central differences of P³ itself, at a
  // point off any orbit (so the factors differ), and ∂P³/∂ω likewise
  const ImpactOscillator osc = oscillator(0.8, 3.2);
  const ImpactState z{0.7, 9.0};
  Eigen::Matrix2d D;
  Eigen::Vector2d dw;
  ASSERT_TRUE(osc.jacobian(z, 3, D));
  ASSERT_TRUE(osc.omega_derivative(z, 3, dw));
  const double h = 1e-5;
  ImpactState p, q;
  ASSERT_TRUE(osc.map({z.phase + h, z.velocity}, 3, p) && osc.map({z.phase - h, z.velocity}, 3, q));
  const Eigen::Vector2d col0{(p.phase - q.phase) / (2 * h), (p.velocity - q.velocity) / (2 * h)};
  ASSERT_TRUE(osc.map({z.phase, z.velocity + h}, 3, p) && osc.map({z.phase, z.velocity - h}, 3, q));
  const Eigen::Vector2d col1{(p.phase - q.phase) / (2 * h), (p.velocity - q.velocity) / (2 * h)};
  ASSERT_TRUE(osc.at_omega(3.2 + h).map(z, 3, p) && osc.at_omega(3.2 - h).map(z, 3, q));
  const Eigen::Vector2d colw{(p.phase - q.phase) / (2 * h), (p.velocity - q.velocity) / (2 * h)};
  const double scale = 1.0 + D.lpNorm<Eigen::Infinity>();
  EXPECT_LT((D.col(0) - col0).norm(), 1e-6 * scale);
  EXPECT_LT((D.col(1) - col1).norm(), 1e-6 * scale);
  EXPECT_LT((dw - colw).norm(), 1e-6 * (1.0 + dw.norm()));
}

// the smallest interior local minimum of the gap of the closed-form unstable orbit's flight,
// y = sin φ + vτ − gτ²/2 over sin(φ + ωτ) (A = 1), by dense sampling (+∞ if none)
double closed_form_interior_gap(double e, double omega) {
  const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, e, 1);
  const double phi = cf.unstable.phase, v = cf.unstable.velocity, T = 2.0 * kPi / omega;
  const auto gap = [&](double tau) {
    return std::sin(phi) + v * tau - 0.5 * kG * tau * tau - std::sin(phi + omega * tau);
  };
  const int n = 200000;
  double best = std::numeric_limits<double>::infinity();
  for (int k = 2; k < n - 1; ++k) {
    const double gk = gap(T * k / n);
    if (gk < gap(T * (k - 1) / n) && gk <= gap(T * (k + 1) / n)) best = std::min(best, gk);
  }
  return best;
}

TEST(ImpactOscillator, GrazingMarginOfTheUnstableOrbitMatchesTheClosedFormGap) {
  // the engine's margin on the shot orbit against the closed-form flight
  for (const double omega : {4.0, 4.5, 4.9}) {
    const ImpactOscillator osc = oscillator(0.9, omega);
    const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, 0.9, 1);
    const PeriodicOrbit o = find_periodic_orbit(osc, cf.unstable, 1, 1);
    ASSERT_TRUE(o.converged);
    EXPECT_NEAR(osc.grazing_margin(o.z, 1), closed_form_interior_gap(0.9, omega), 1e-8)
        << "omega = " << omega;
  }
  // the stable orbit's flight has no interior minimum of the gap
  const ImpactOscillator osc = oscillator(0.9, 3.0);
  const PeriodicOrbit s =
      find_periodic_orbit(osc, closed_form_orbit(1, 3, kG, 0.9, 1).stable, 1, 1);
  EXPECT_TRUE(std::isinf(osc.grazing_margin(s.z, 1)));
}

TEST(ImpactOscillator, RejectsModelsItDoesNotDescribe) {
  model::Surface flat;  // A = 0
  try {
    (void)ImpactOscillator(model::make_ball(1.0, 0.0, kG, flat, {LawKind::kNewton, {0.0, 0.5}}));
    ADD_FAILURE() << "no throw";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "model");
  }
  try {
    (void)find_periodic_orbit(oscillator(0.9, 3.0), {1.0, 10.0}, 0, 1);
    ADD_FAILURE() << "no throw";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "impacts");
  }
}

}  // namespace
}  // namespace clatter::analysis
