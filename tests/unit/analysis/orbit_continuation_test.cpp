// Continuation of the period-1 orbits of the ball on the table in ω
// (analysis/orbit_continuation.hpp) against [BP] Fig. 10 / [B] Fig 5.10 and its closed form ([B]
// §6.3 [DERIVED], spec/000_thesis.md §6.3: ω_SN and ω_PD for e* = 0.9, 0.7, 0.5, 0.3, 0.1, printed
// to 4 decimals), the grazing of the unstable branch against the closed-form gap, the
// period-doubling cascade against Feigenbaum's constant and against brute-force sweeps, and the
// multipliers of a period-2 orbit against the saltation monodromy.

#include "clatter/analysis/orbit_continuation.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>
#include <string>

#include "clatter/analysis/bifurcation_sweep.hpp"
#include "clatter/core/error.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

model::PlanarBodyModel ball(double e, double omega) {
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  return model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}});
}

// the frequency at which the closed-form unstable orbit's flight touches the table: the smallest
// interior local minimum of the gap of y = sin φ + vτ − gτ²/2 over sin(φ + ωτ) (A = 1), by dense
// sampling, reaches 0; by bisection on ω in (lo, hi) (lo: margin > 0 or no interior minimum)
double closed_form_grazing_omega(double e, double lo, double hi) {
  const auto margin = [e](double omega) {
    const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, e, 1);
    const double phi = cf.unstable.phase, v = cf.unstable.velocity, T = 2.0 * kPi / omega;
    const auto gap = [&](double tau) {
      return std::sin(phi) + v * tau - 0.5 * kG * tau * tau - std::sin(phi + omega * tau);
    };
    const int n = 100000;
    double best = 1e300;
    for (int k = 2; k < n - 1; ++k) {
      const double gk = gap(T * k / n);
      if (gk < gap(T * (k - 1) / n) && gk <= gap(T * (k + 1) / n)) best = std::min(best, gk);
    }
    return best;
  };
  for (int it = 0; it < 40; ++it) {
    const double mid = 0.5 * (lo + hi);
    (margin(mid) > 0.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

struct Fig10Row {
  double e, omega_sn, omega_pd;  ///< as printed in spec/000_thesis.md §6.3
};

class Fig10 : public ::testing::TestWithParam<Fig10Row> {};

TEST_P(Fig10, BranchHasTheSaddleNodePeriodDoublingAndGrazingOfTheClosedForm) {
  const Fig10Row row = GetParam();
  const ClosedFormOrbit cf0 = closed_form_orbit(1.0, 1.0, kG, row.e, 1);
  EXPECT_NEAR(cf0.omega_sn, row.omega_sn, 5e-5);  // the printed table
  EXPECT_NEAR(cf0.omega_pd, row.omega_pd, 5e-5);
  // start on the stable orbit halfway between SN and PD, continue both ways
  const double omega0 = 0.5 * (cf0.omega_sn + cf0.omega_pd);
  const ImpactOscillator osc(ball(row.e, omega0));
  const PeriodicOrbit start =
      find_periodic_orbit(osc, closed_form_orbit(1.0, omega0, kG, row.e, 1).stable, 1, 1);
  ASSERT_TRUE(start.converged);
  ContinuationOptions o;
  o.omega_min = 0.5;
  o.omega_max = 7.0;
  BranchEnd end_low{};
  const Branch br = continue_both_ways(osc, start, o, &end_low);
  EXPECT_EQ(br.end, BranchEnd::kOmegaRange);  // the stable side runs to ω_max
  EXPECT_EQ(end_low, BranchEnd::kGrazing);    // "the unstable SN branches die in grazing (G)"
  ASSERT_EQ(br.bifurcations.size(), 3u);
  // in order along the branch: G (unstable side), SN, PD
  const Bifurcation& g = br.bifurcations[0];
  const Bifurcation& sn = br.bifurcations[1];
  const Bifurcation& pd = br.bifurcations[2];
  EXPECT_EQ(g.kind, BifurcationKind::kGrazing);
  EXPECT_EQ(sn.kind, BifurcationKind::kSaddleNode);
  EXPECT_EQ(pd.kind, BifurcationKind::kPeriodDoubling);
  EXPECT_NEAR(sn.at.omega, cf0.omega_sn, 1e-7);
  EXPECT_NEAR(pd.at.omega, cf0.omega_pd, 1e-7);
  // at the fold the orbit impacts at the table's zero crossing (Γ cos φ = Γ_SN = Γ)
  EXPECT_NEAR(std::remainder(sn.at.z.phase, 2.0 * kPi), 0.0, 1e-4);
  // the grazing ω: the last point's margin is below 1e-4 m, about (ω_G − ω) · dmargin/dω
  const double omega_g = closed_form_grazing_omega(row.e, cf0.omega_sn + 1e-9, 6.0);
  EXPECT_LT(g.at.margin, o.grazing_tol);
  EXPECT_NEAR(g.at.omega, omega_g, 5e-5);
  EXPECT_LT(g.at.omega, omega_g);  // the branch ends on the physical side
  // stability along the branch: stable exactly between SN and PD on the sin φ > 0 side
  for (const BranchPoint& p : br.points) {
    const bool upper = std::sin(p.z.phase) > 0.0;
    if (std::abs(p.omega - cf0.omega_sn) < 1e-6 || std::abs(p.omega - cf0.omega_pd) < 1e-6)
      continue;
    EXPECT_EQ(p.stable, upper && p.omega < cf0.omega_pd) << "omega = " << p.omega;
  }
}

INSTANTIATE_TEST_SUITE_P(Continuation, Fig10,
                         ::testing::Values(Fig10Row{0.9, 1.2736, 3.1575},
                                           Fig10Row{0.7, 2.3321, 3.3889},
                                           Fig10Row{0.5, 3.2052, 3.8702},
                                           Fig10Row{0.3, 4.0737, 4.5683},
                                           Fig10Row{0.1, 5.0215, 5.4833}),
                         [](const ::testing::TestParamInfo<Fig10Row>& i) {
                           return "e0" + std::to_string(static_cast<int>(i.param.e * 10 + 0.5));
                         });

Bifurcation first_pd(double e, Branch* branch = nullptr) {
  const double omega0 = 3.0;
  const ImpactOscillator osc(ball(e, omega0));
  const PeriodicOrbit start =
      find_periodic_orbit(osc, closed_form_orbit(1.0, omega0, kG, e, 1).stable, 1, 1);
  ContinuationOptions o;
  o.stop_at_bifurcation = true;
  const Branch br = continue_orbit(osc, start, +1, o);
  if (branch != nullptr) *branch = br;
  return br.bifurcations.at(0);
}

TEST(Continuation, PeriodTwoOrbitMultipliersMatchTheSaltationMonodromy) {
  const Bifurcation pd = first_pd(0.9);
  const ImpactOscillator osc(ball(0.9, 3.0));
  ContinuationOptions o;
  o.omega_max = 3.3;
  const Branch two = continue_period_doubled(osc, pd, 1, 1, o);
  ASSERT_GT(two.points.size(), 10u);
  EXPECT_EQ(two.impacts, 2);
  EXPECT_EQ(two.periods, 2);
  for (const BranchPoint& p : two.points) {
    if (p.omega < pd.at.omega + 0.01) continue;
    // a genuine period-2 orbit: P moves the point, P² returns it
    const ImpactOscillator at = osc.at_omega(p.omega);
    ImpactState once;
    ASSERT_TRUE(at.map(p.z, 1, once));
    EXPECT_GT(std::abs(once.velocity - p.z.velocity), 1e-3);
    Eigen::Matrix3d M;
    ASSERT_TRUE(at.monodromy_saltation(p.z, 2, M));
    const Eigen::Vector3cd ev = Eigen::EigenSolver<Eigen::Matrix3d>(M).eigenvalues();
    for (const auto& lambda : p.multipliers) {
      double nearest = 1e300;
      for (int k = 0; k < 3; ++k) nearest = std::min(nearest, std::abs(ev(k) - lambda));
      EXPECT_LT(nearest, 1e-6) << "omega = " << p.omega;
    }
    EXPECT_NEAR(std::abs(M.determinant()), std::pow(0.9, 4), 1e-9);  // e^{2m}
  }
}

TEST(Continuation, CascadeRatiosApproachFeigenbaumsConstant) {
  // the PD points of the period-1, 2, 4, …, 64 orbits accumulate geometrically; the ratios of
  // successive intervals tend to Feigenbaum's δ = 4.6692016 (universal for period-doubling of
  // dissipative maps; an independent check of the location of the PD points)
  const double e = 0.9;
  const Bifurcation pd = first_pd(e);
  ContinuationOptions o;
  const std::vector<Bifurcation> c =
      period_doubling_cascade(ImpactOscillator(ball(e, 3.0)), pd, 1, 1, 6, o);
  ASSERT_EQ(c.size(), 7u);
  std::vector<double> ratio;
  for (size_t k = 2; k < c.size(); ++k)
    ratio.push_back((c[k - 1].at.omega - c[k - 2].at.omega) / (c[k].at.omega - c[k - 1].at.omega));
  const double delta = 4.6692016;
  EXPECT_NEAR(ratio.back(), delta, 0.01 * delta);
  EXPECT_LT(std::abs(ratio.back() - delta), std::abs(ratio[ratio.size() - 2] - delta));
  // the accumulation point: [BP] §4.3 puts the onset of chaos at ω ≈ 3.5 for e* = 0.9
  const double omega_inf =
      c.back().at.omega + (c.back().at.omega - c[c.size() - 2].at.omega) / (delta - 1.0);
  EXPECT_NEAR(omega_inf, 3.5, 0.05);
  // every PD point has a multiplier −1
  for (const Bifurcation& b : c)
    EXPECT_NEAR(std::min(std::abs(b.at.multipliers[0] + 1.0), std::abs(b.at.multipliers[1] + 1.0)),
                0.0, 1e-5);  // the 64-impact Jacobian's differences
}

TEST(Continuation, SecondPeriodDoublingAgreesWithTheBruteForceSweep) {
  // independent method: simulate to the attractor and count the distinct apex heights; between
  // the first and second PD of the cascade the attractor has 2, between the second and third 4
  const Bifurcation pd = first_pd(0.9);
  ContinuationOptions o;
  const std::vector<Bifurcation> c =
      period_doubling_cascade(ImpactOscillator(ball(0.9, 3.0)), pd, 1, 1, 2, o);
  ASSERT_EQ(c.size(), 3u);
  SweepOptions sw;
  sw.omega_from = 3.2;
  sw.omega_to = 3.2;
  sw.n = 1;
  sw.transient_periods = 800.0;
  sw.record_periods = 64.0;
  const auto apexes_at = [&](double omega) {
    sw.omega_from = sw.omega_to = omega;
    const model::PlanarBodyModel m = ball(0.9, omega);
    const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, 0.9, 1);
    // start near the period-1 orbit (now unstable): the attractor is the one born from it
    const hybrid::InitialState init{cf.stable.phase / omega,
                                    {0.0, std::sin(cf.stable.phase) + 1e-3, 0.0},
                                    {0.0, cf.stable.velocity, 0.0}};
    return sweep_omega(m, init, hybrid::SimulationOptions{}, sw).at(0).distinct;
  };
  EXPECT_EQ(apexes_at(0.5 * (c[0].at.omega + c[1].at.omega)), 2);
  EXPECT_EQ(apexes_at(0.5 * (c[1].at.omega + c[2].at.omega)), 4);
}

TEST(Continuation, RejectsBadOptions) {
  ContinuationOptions o;
  o.omega_max = 0.05;  // below omega_min
  try {
    validate(o);
    ADD_FAILURE() << "no throw";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "omega_max");
  }
  o = {};
  o.ds = 1.0;  // above ds_max
  EXPECT_THROW(validate(o), InvalidArgument);
}

}  // namespace
}  // namespace clatter::analysis
