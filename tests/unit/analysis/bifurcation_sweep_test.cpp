// Brute-force bifurcation sweeps (analysis/bifurcation_sweep.hpp) against the closed form of the
// period-1 orbit of the ball on the table and its period doubling ([B] §6.3 [DERIVED],
// spec/001_hybrid_scheme.md §6.4: with Γ = Aω²/g, Γ_SN = π(1 − e)/(1 + e) and
// Γ_PD = √(Γ_SN² + (2(1 + e²)/(1 + e)²)²); e = 0.9, A = 1, g = 9.81: ω_PD = 3.1575).

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/model/planar_body_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;

model::PlanarBodyModel ball(double e) {
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = 3.0;
  return model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}});
}

TEST(BifurcationSweep, PeriodDoublingOfThePeriodOneOrbitAtTheClosedFormFrequency) {
  const double e = 0.9;
  const double pi = std::numbers::pi;
  const double g_sn = pi * (1.0 - e) / (1.0 + e);
  const double g_pd =
      std::sqrt(g_sn * g_sn + std::pow(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)), 2));
  const double omega_pd = std::sqrt(g_pd * kG);
  EXPECT_NEAR(omega_pd, 3.1575, 5e-5);
  // along the period-1 branch from ω = 3 (the start y = 3 at rest reaches it, see
  // BouncingBall.ConvergesToThePeriodOneOrbitOfTheTable), continuing the state in ω
  SweepOptions sw;
  sw.omega_from = 3.0;
  sw.omega_to = 3.3;
  sw.n = 13;  // Δω = 0.025: ω_PD lies between 3.15 and 3.175
  sw.transient_periods = 600.0;
  sw.record_periods = 100.0;
  sw.continuation = true;
  const auto points = sweep_omega(ball(e), {0.0, {0.0, 3.0, 0.0}, {0.0, 0.0, 0.0}}, {}, sw);
  ASSERT_EQ(points.size(), 13u);
  for (const SweepPoint& p : points) {
    EXPECT_EQ(p.reason, hybrid::StopReason::kEndTime);
    EXPECT_EQ(p.distinct, p.omega < omega_pd ? 1 : 2) << "omega = " << p.omega;
    if (p.omega < omega_pd) {
      // the apex of the stable period-1 orbit, A sin φ + gπ²/(2ω²) with cos φ = Γ_SN/Γ
      const double gamma = p.omega * p.omega / kG;
      const double phi = std::acos(g_sn / gamma);
      EXPECT_NEAR(p.apex_heights.back(), std::sin(phi) + kG * pi * pi / (2.0 * p.omega * p.omega),
                  1e-7)
          << "omega = " << p.omega;
    }
  }
}

TEST(BifurcationSweep, ParallelRunsAreTheSequentialOnes) {
  SweepOptions sw;
  sw.omega_from = 3.0;
  sw.omega_to = 4.0;
  sw.n = 6;
  sw.transient_periods = 50.0;
  sw.record_periods = 20.0;
  sw.threads = 1;
  const auto one = sweep_omega(ball(0.8), {0.0, {0.0, 4.0, 0.0}, {0.0, 0.0, 0.0}}, {}, sw);
  sw.threads = 3;
  const auto three = sweep_omega(ball(0.8), {0.0, {0.0, 4.0, 0.0}, {0.0, 0.0, 0.0}}, {}, sw);
  ASSERT_EQ(one.size(), three.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].apex_heights, three[i].apex_heights);
  }
}

TEST(BifurcationSweep, CountDistinctAndValidation) {
  EXPECT_EQ(count_distinct({1.0, 1.0 + 1e-9, 2.0, 2.0}), 2);
  EXPECT_EQ(count_distinct({}), 0);
  std::vector<double> many;
  for (int i = 0; i < 100; ++i) many.push_back(i);
  EXPECT_EQ(count_distinct(many), -1);
  SweepOptions bad;
  bad.n = 0;
  EXPECT_THROW(validate(bad), InvalidArgument);
  bad = {};
  bad.omega_from = -1.0;
  EXPECT_THROW(validate(bad), InvalidArgument);
}

TEST(BifurcationSweep, AThrowingRunOnAWorkerThreadIsRethrownNotAbort) {
  // issue 9 item 2: a run that throws on a worker thread (here: the end time overflows) called
  // std::terminate (SIGABRT); the exception now reaches the caller after the other values ran
  SweepOptions sw;
  sw.omega_from = 3.0;
  sw.omega_to = 3.2;
  sw.n = 3;
  sw.threads = 2;
  sw.transient_periods = 1e308;
  hybrid::InitialState init;
  init.q = Vec3(0.0, 1.0, 0.0);
  init.qd = Vec3::Zero();
  EXPECT_THROW((void)sweep_omega(ball(0.9), init, {}, sw), InvalidArgument);
}

}  // namespace
}  // namespace clatter::analysis
