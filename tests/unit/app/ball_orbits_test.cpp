// `clatter orbits` without a scenario (app/ball_orbits.hpp) is the generic machinery on the ball's
// model: the stroboscopic orbit problem, analysis/orbit_branch.hpp's continuation and its
// period-doubled branches. Its numbers against three independent references:
// - the closed form of the ball's period-n orbits (spec/000_thesis.md §6.3, [B] §6.3 [DERIVED];
//   analysis/impact_oscillator.hpp): ω_SN, ω_PD, and det DP = e² for every orbit with one
//   impact (area contraction of the impact; the flight preserves area);
// - the grazing of the closed-form saddle orbit: the ω where the smallest interior gap of its
//   flight reaches 0, found here by bisection on the gap written out (no engine);
// - the ball's own impact map (analysis/orbit_continuation.hpp, a separate implementation: the
//   map (φ, v) ↦ (φ', v') and its own branch switching), whose cascade of period doublings is
//   computed here beside.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <vector>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/analysis/orbit_continuation.hpp"
#include "clatter/app/ball_orbits.hpp"
#include "clatter/core/error.hpp"

namespace clatter::app {
namespace {

using std::numbers::pi;

constexpr double kA = 1.0, kG = 9.81;

const BallBifurcation* find(const BallOrbitsOfE& o, analysis::OrbitEventKind kind) {
  for (const BallBifurcation& b : o.bifurcations)
    if (b.level == 0 && b.kind == kind) return &b;
  return nullptr;
}

// the smallest interior local minimum of the gap y_ball − A sin ωt along the flight of the
// closed-form saddle orbit (impact phase φ < 0, absolute velocity v = gπn/ω), n = 1; +∞ if none
double saddle_margin(double e, double omega) {
  const analysis::ClosedFormOrbit c = analysis::closed_form_orbit(kA, omega, kG, e, 1);
  const double phi = c.unstable.phase, v = c.unstable.velocity, T = 2.0 * pi / omega;
  const auto gap = [&](double tau) {
    return kA * std::sin(phi) + v * tau - 0.5 * kG * tau * tau - kA * std::sin(phi + omega * tau);
  };
  double best = std::numeric_limits<double>::infinity();
  constexpr int kN = 20000;
  for (int i = 1; i + 1 < kN; ++i) {
    const double a = T * (i - 1) / kN, b = T * i / kN, c2 = T * (i + 1) / kN;
    if (!(gap(b) < gap(a) && gap(b) < gap(c2))) continue;
    double lo = a, hi = c2;  // golden-section refinement of the bracketed minimum
    for (int k = 0; k < 100; ++k) {
      const double m1 = hi - 0.618033988749895 * (hi - lo);
      const double m2 = lo + 0.618033988749895 * (hi - lo);
      if (gap(m1) < gap(m2))
        hi = m2;
      else
        lo = m1;
    }
    best = std::min(best, gap(0.5 * (lo + hi)));
  }
  return best;
}

TEST(BallOrbits, SaddleNodeAndPeriodDoublingAreTheClosedForms) {
  BallOrbitsRequest r;
  for (const int n : {1, 2}) {
    r.e = {0.9, 0.5};
    r.periods = n;
    const std::vector<BallOrbitsOfE> result = run_ball_orbits(r);
    ASSERT_EQ(result.size(), 2U);
    for (const BallOrbitsOfE& o : result) {
      const analysis::ClosedFormOrbit c = analysis::closed_form_orbit(kA, 1.0, kG, o.e, n);
      const BallBifurcation* sn = find(o, analysis::OrbitEventKind::kFold);
      const BallBifurcation* pd = find(o, analysis::OrbitEventKind::kPeriodDoubling);
      ASSERT_NE(sn, nullptr) << o.e;
      ASSERT_NE(pd, nullptr) << o.e;
      EXPECT_NEAR(sn->at.omega, c.omega_sn, 1e-8) << "e " << o.e << " n " << n;
      EXPECT_NEAR(pd->at.omega, c.omega_pd, 1e-8) << "e " << o.e << " n " << n;
      EXPECT_EQ(sn->closed_form_omega, c.omega_sn);
      // at the SN the impact is at the table's mid stroke going up (cos φ = 1)
      EXPECT_NEAR(sn->at.phase, 0.0, 1e-6);
      // every orbit clear of a grazing has one impact, det DP = e², and the closed form's phase
      // and velocity on its side of the SN
      int checked = 0;
      for (int i = 0; i < o.branch_points; ++i) {
        const BallOrbitPoint& p = o.points[i];
        if (!std::isinf(p.margin)) continue;
        ASSERT_EQ(p.impacts, 1) << p.omega;
        EXPECT_NEAR(std::real(p.multipliers[0] * p.multipliers[1]), o.e * o.e, 1e-6) << p.omega;
        const analysis::ClosedFormOrbit at = analysis::closed_form_orbit(kA, p.omega, kG, o.e, n);
        const analysis::ImpactState& z = p.phase > 0.0 ? at.stable : at.unstable;
        EXPECT_NEAR(p.phase, z.phase, 1e-7) << p.omega;
        EXPECT_NEAR(p.velocity, z.velocity, 1e-7) << p.omega;
        // stable exactly between SN and PD on the rising side ([BP] §4.3)
        EXPECT_EQ(p.stable, p.phase > 0.0 && p.omega < c.omega_pd) << p.omega;
        ++checked;
      }
      EXPECT_GT(checked, 50);
    }
  }
}

TEST(BallOrbits, TheSaddleBranchEndsAtTheClosedFormGrazing) {
  BallOrbitsRequest r;
  r.e = {0.9, 0.5, 0.1};
  for (const BallOrbitsOfE& o : run_ball_orbits(r)) {
    // the grazing ω of the closed-form saddle orbit, by bisection on its margin
    double lo = 4.5, hi = 5.5;
    ASSERT_GT(saddle_margin(o.e, lo), 0.0);
    ASSERT_LT(saddle_margin(o.e, hi), 0.0);
    for (int k = 0; k < 60; ++k) {
      const double mid = 0.5 * (lo + hi);
      if (saddle_margin(o.e, mid) > 0.0)
        lo = mid;
      else
        hi = mid;
    }
    const BallBifurcation* g = find(o, analysis::OrbitEventKind::kGrazing);
    ASSERT_NE(g, nullptr) << o.e;
    EXPECT_EQ(o.end_low, analysis::OrbitBranchEnd::kGrazing) << o.e;
    // the branch ends at its last point before the grazing, with a margin below grazing_tol
    // (1e-4 m): within 3e-5 below the closed form's ω
    EXPECT_LT(g->at.omega, lo) << o.e;
    EXPECT_GT(g->at.omega, lo - 3e-5) << o.e;
    EXPECT_LT(g->at.margin, 1e-4) << o.e;
  }
}

TEST(BallOrbits, TheCascadeIsTheImpactMapsCascade) {
  BallOrbitsRequest r;
  r.e = {0.7};
  r.cascade = 4;
  const BallOrbitsOfE o = run_ball_orbits(r).front();
  ASSERT_EQ(o.cascade.size(), 5U);
  EXPECT_FALSE(o.incomplete);
  // the ball's own impact map, its PD on the closed form's orbit, then its cascade
  model::Surface s;
  s.amplitude = kA;
  s.omega = 3.0;
  const analysis::ImpactOscillator osc(
      model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, 0.7}}));
  const analysis::PeriodicOrbit start = analysis::find_periodic_orbit(
      osc, analysis::closed_form_orbit(kA, 3.0, kG, 0.7, 1).stable, 1, 1);
  ASSERT_TRUE(start.converged);
  analysis::ContinuationOptions copt;
  copt.omega_min = 0.5;
  copt.omega_max = 7.0;
  const analysis::Branch branch = analysis::continue_orbit(osc, start, 1, copt);
  const analysis::Bifurcation* pd = nullptr;
  for (const analysis::Bifurcation& b : branch.bifurcations)
    if (pd == nullptr && b.kind == analysis::BifurcationKind::kPeriodDoubling) pd = &b;
  ASSERT_NE(pd, nullptr);
  const std::vector<analysis::Bifurcation> reference =
      analysis::period_doubling_cascade(osc, *pd, 1, 1, 4, copt);
  ASSERT_EQ(reference.size(), 5U);
  for (std::size_t k = 0; k < reference.size(); ++k) {
    EXPECT_NEAR(o.cascade[k].omega_pd, reference[k].at.omega, 1e-7) << k;
    EXPECT_EQ(o.cascade[k].impacts, 2 << k);
    EXPECT_EQ(o.cascade[k].periods, 2 << k);
  }
  // the doubled branches' segments: 2^(k+1) impacts each, stable, between their PDs
  for (std::size_t i = o.branch_points; i < o.points.size(); ++i) {
    const BallOrbitPoint& p = o.points[i];
    EXPECT_GE(p.impacts, 2);
    EXPECT_EQ(p.impacts, p.periods);
    EXPECT_GE(p.omega, o.cascade.front().omega_pd - 1e-9);
    EXPECT_LE(p.omega, o.cascade.back().omega_pd + 1e-9);
  }
}

TEST(BallOrbits, ANearlyPlasticBallRidesTheTable) {
  // e → 0: below the closed form's SN (Γ_SN = π(1 − e)/(1 + e): no orbit with one impact per
  // period exists there) the ball lands plastically (a closure), rides the table and lifts off
  // when the table decelerates faster than g. The branch goes on through such orbits. Each lands
  // once, leaves the landing at the table's velocity A ω cos φ (a plastic landing), and needs
  // ω > √(g/A) to lift off at all; the PD is still the closed form's (an orbit with an impact).
  BallOrbitsRequest r;
  r.e = {1e-7};
  const BallOrbitsOfE o = run_ball_orbits(r).front();
  const analysis::ClosedFormOrbit c = analysis::closed_form_orbit(kA, 1.0, kG, 1e-7, 1);
  const BallBifurcation* pd = find(o, analysis::OrbitEventKind::kPeriodDoubling);
  ASSERT_NE(pd, nullptr);
  EXPECT_NEAR(pd->at.omega, c.omega_pd, 1e-8);
  int rides = 0;
  for (const BallOrbitPoint& p : o.points) {
    EXPECT_GE(p.impacts, 1) << p.omega;
    EXPECT_TRUE(std::isfinite(p.phase) && std::isfinite(p.apex_max)) << p.omega;
    EXPECT_GT(p.omega, std::sqrt(kG / kA)) << p.omega;
    if (p.omega >= c.omega_sn) continue;
    ++rides;
    EXPECT_NEAR(p.velocity, kA * p.omega * std::cos(p.phase), 1e-6) << p.omega;
  }
  EXPECT_GT(rides, 10);
}

TEST(BallOrbits, BadRequestsNameTheField) {
  const auto field_of = [](const BallOrbitsRequest& r) {
    try {
      (void)run_ball_orbits(r);
    } catch (const InvalidArgument& e) {
      return std::string(e.field());
    }
    return std::string();
  };
  BallOrbitsRequest r;
  r.e = {1.0};
  EXPECT_EQ(field_of(r), "e");
  r = {};
  r.periods = 0;
  EXPECT_EQ(field_of(r), "periods");
  r = {};
  r.omega_min = 5.0;
  r.omega_max = 1.0;
  EXPECT_EQ(field_of(r), "omega_max");
  r = {};
  r.e = {0.5};
  r.omega_min = 4.0;  // the start, halfway between SN 3.21 and PD 3.87, is outside
  EXPECT_EQ(field_of(r), "omega_range");
  r.amplitude = 0.2;  // ω ∝ √(g/A) moved it there
  r.omega_min = 0.5;
  r.omega_max = 3.0;
  EXPECT_EQ(field_of(r), "amplitude");
}

}  // namespace
}  // namespace clatter::app
