// Continuation of periodic orbits of any model in any parameter (analysis/orbit_branch.hpp),
// checked against the closed form of the ball's period-1 orbits ([B] §6.3 [DERIVED],
// spec/001_hybrid_scheme.md §6.4: Γ_SN = π(1 − e)/(1 + e), Γ_PD² = Γ_SN² + (2(1 + e²)/(1 + e)²)²,
// Γ = Aω²/g; the table of docs/analysis.md), on the ball model and on the rod of [BP] started
// flat (examples/bp_fig8a.toml: a flat rod falling without spin is the ball with Newton's e = e*).

#include "clatter/analysis/orbit_branch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numbers>
#include <string>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

// a stroboscopic problem for the (y, ẏ) of `m`'s orbit with one impact per period at ω, started
// on the closed-form stable orbit half a period after its impact
PeriodicProblem flat_problem(std::shared_ptr<const model::System> m, double e, double omega,
                             hybrid::SimulationOptions options = {}, int n = 1) {
  const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, e, n);
  const double tau = kPi / omega;
  StateVector ref = StateVector::Zero(6);
  ref(1) = std::sin(cf.stable.phase) + cf.stable.velocity * tau - 0.5 * kG * tau * tau;
  ref(4) = cf.stable.velocity - kG * tau;
  OrbitSection sec;
  sec.phase = cf.stable.phase + kPi;
  sec.periods = n;
  return make_periodic_problem(std::move(m), options, sec, {1, 4}, ref);
}

double omega_of(double gamma) { return std::sqrt(gamma * kG); }

void expect_sn_and_pd(const PeriodicProblem& p, double e, int n = 1) {
  const double g_sn = n * kPi * (1.0 - e) / (1.0 + e);
  const double g_pd = std::hypot(g_sn, 2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)));
  const Orbit start = find_orbit(p, *p.model, Eigen::Vector2d(p.reference(1), p.reference(4)));
  ASSERT_TRUE(start.converged) << start.message;
  ASSERT_TRUE(start.stable);
  OrbitBranchOptions o;
  o.parameter = "surface.omega";
  o.p_min = 0.5;
  o.p_max = omega_of(g_pd) + 0.1;
  o.ds = 0.05;
  o.ds_max = 0.2;
  o.max_points = 200;
  o.locate_tol = 1e-9;
  for (const int direction : {-1, 1}) {
    o.direction = direction;
    const OrbitBranch b = continue_orbits(p, start, o);
    const double expected = direction < 0 ? omega_of(g_sn) : omega_of(g_pd);
    const OrbitEventKind kind =
        direction < 0 ? OrbitEventKind::kFold : OrbitEventKind::kPeriodDoubling;
    int found = 0;
    for (const OrbitBifurcation& bif : b.bifurcations) {
      if (bif.kind != kind) continue;
      ++found;
      EXPECT_NEAR(bif.at.p, expected, 1e-8) << to_string(kind);
      if (std::getenv("CLATTER_PRINT") != nullptr)
        std::printf("e %.1f %s at %.9f (closed form %.9f)\n", e,
                    std::string(to_string(kind)).c_str(), bif.at.p, expected);
    }
    EXPECT_EQ(found, 1) << to_string(kind) << " branch end " << to_string(b.end) << ": "
                        << b.message;
    // stability along the stable side: stable exactly between SN and PD
    for (const OrbitPoint& pt : b.points) {
      const double margin = 1e-4;
      if (direction > 0 && pt.p < omega_of(g_pd) - margin) {
        EXPECT_TRUE(pt.stable) << pt.p;
      }
      if (direction > 0 && pt.p > omega_of(g_pd) + margin) {
        EXPECT_FALSE(pt.stable) << pt.p;
      }
    }
  }
}

TEST(OrbitBranch, BallFoldAndPeriodDoublingMatchTheClosedForm) {
  // the whole table of docs/analysis.md (e* = 0.9 … 0.1), started halfway between SN and PD
  for (const double e : {0.9, 0.7, 0.5, 0.3, 0.1}) {
    SCOPED_TRACE(e);
    const double g_sn = kPi * (1.0 - e) / (1.0 + e);
    const double g_pd = std::hypot(g_sn, 2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)));
    model::Surface s;
    s.amplitude = 1.0;
    s.omega = 0.5 * (omega_of(g_sn) + omega_of(g_pd));
    auto m = std::make_shared<model::PlanarBodyModel>(
        model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}}));
    expect_sn_and_pd(flat_problem(m, e, s.omega), e);
  }
}

TEST(OrbitBranch, FlatRodOfBpIsTheBall) {
  // the full rod (Stronge's law, μ = 0.05, the seeds' symmetric two-contact rule), solved in
  // (y, ẏ) with θ = θ̇ = 0 and x cyclic
  const io::Scenario sc =
      io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / "bp_fig8a.toml");
  const std::shared_ptr<const model::System> rod = sc.model->with_parameter("surface.omega", 2.2);
  expect_sn_and_pd(flat_problem(rod, 0.9, 2.2, sc.options), 0.9);
}

TEST(OrbitBranch, RowsN2N3OfSpec001Section64OnTheFlatRod) {
  // spec/001_hybrid_scheme.md §6.4: ω_SN / ω_PD of the orbits with one impact every n = 2, 3
  // periods (e* = 0.9: 1.801 / 3.218 and 2.206 / 3.313; e* = 0.8: 2.617 / 3.473 and 3.205 /
  // 3.780; printed to 3 decimals, closed form to 1e-8), on the full rod of [BP] started flat
  for (const double e : {0.9, 0.8}) {
    for (const int n : {2, 3}) {
      SCOPED_TRACE(::testing::Message() << "e " << e << " n " << n);
      const double g_sn = n * kPi * (1.0 - e) / (1.0 + e);
      const double g_pd = std::hypot(g_sn, 2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)));
      const double omega = 0.5 * (omega_of(g_sn) + omega_of(g_pd));
      const io::Scenario sc =
          io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / "bp_fig8a.toml");
      const std::shared_ptr<const model::System> rod =
          sc.model->with_parameter("surface.omega", omega)->with_parameter("e", e);
      expect_sn_and_pd(flat_problem(rod, e, omega, sc.options, n), e, n);
    }
  }
}

TEST(OrbitBranch, SwitchesOntoThePeriodDoubledBranch) {
  // the ball e* = 0.9: from the located PD of the period-1 branch (closed form 3.1575320) onto
  // the branch of two impacts in two periods, whose own PD the dedicated code of
  // analysis/orbit_continuation.hpp puts at 3.4193474 (docs/analysis.md, cascade table; that
  // code is independent: impact-map unknowns (φ, v), its own corrector and branch switch, and its
  // cascade's interval ratios approach Feigenbaum's δ)
  const double e = 0.9, omega = 2.2;
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  auto m = std::make_shared<model::PlanarBodyModel>(
      model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}}));
  const PeriodicProblem p = flat_problem(m, e, omega);
  const Orbit start = find_orbit(p, *p.model, Eigen::Vector2d(p.reference(1), p.reference(4)));
  ASSERT_TRUE(start.converged);
  OrbitBranchOptions o;
  o.parameter = "surface.omega";
  o.p_min = 0.5;
  o.p_max = 3.6;
  o.ds = 0.05;
  o.ds_max = 0.2;
  o.locate_tol = 1e-9;
  const OrbitBranch b = continue_orbits(p, start, o);
  const OrbitBifurcation* pd = nullptr;
  for (const OrbitBifurcation& f : b.bifurcations)
    if (f.kind == OrbitEventKind::kPeriodDoubling && pd == nullptr) pd = &f;
  ASSERT_NE(pd, nullptr);
  ASSERT_EQ(pd->eigenvector.size(), 2);
  o.ds = 0.01;
  const OrbitBranch doubled = continue_period_doubled(p, *pd, o);
  ASSERT_GT(doubled.points.size(), 2U) << doubled.message;
  EXPECT_EQ(doubled.points.front().itinerary.size(), 2U);  // two impacts per orbit
  int found = 0;
  for (const OrbitBifurcation& f : doubled.bifurcations) {
    if (f.kind == OrbitEventKind::kFold) ADD_FAILURE() << "spurious fold at " << f.at.p;
    if (f.kind != OrbitEventKind::kPeriodDoubling) continue;
    ++found;
    EXPECT_NEAR(f.at.p, 3.4193474, 2e-7);
  }
  EXPECT_EQ(found, 1) << to_string(doubled.end) << ": " << doubled.message;
}

TEST(OrbitBranch, UnstableBallBranchEndsInGrazing) {
  // [BP] Fig. 10: "the unstable SN branches die in grazing"; e* = 0.9: the closed-form orbit's
  // smallest interior gap reaches 0 at ω_G = 4.920759 (docs/analysis.md, bisection on the closed
  // form, independent of the engine); the dedicated code stops 4–6e-6 below it, tolerance 5e-5
  const double e = 0.9, omega = 3.0;
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  auto m = std::make_shared<model::PlanarBodyModel>(
      model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}}));
  const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, e, 1);
  const double tau = kPi / omega;
  StateVector ref = StateVector::Zero(6);
  ref(1) = std::sin(cf.unstable.phase) + cf.unstable.velocity * tau - 0.5 * kG * tau * tau;
  ref(4) = cf.unstable.velocity - kG * tau;
  OrbitSection sec;
  sec.phase = cf.unstable.phase + kPi;
  const PeriodicProblem p = make_periodic_problem(m, {}, sec, {1, 4}, ref);
  const Orbit start = find_orbit(p, *m, Eigen::Vector2d(ref(1), ref(4)));
  ASSERT_TRUE(start.converged);
  ASSERT_FALSE(start.stable);
  OrbitBranchOptions o;
  o.parameter = "surface.omega";
  o.p_min = 0.5;
  o.p_max = 7.0;
  o.ds = 0.05;
  o.ds_max = 0.2;
  const OrbitBranch b = continue_orbits(p, start, o);
  EXPECT_EQ(b.end, OrbitBranchEnd::kGrazing) << b.message;
  ASSERT_FALSE(b.bifurcations.empty());
  EXPECT_EQ(b.bifurcations.back().kind, OrbitEventKind::kGrazing);
  EXPECT_NEAR(b.bifurcations.back().at.p, 4.920759, 5e-5);
  EXPECT_LT(b.bifurcations.back().at.margin, 1e-4);
}

TEST(OrbitBranch, RejectsBadOptions) {
  OrbitBranchOptions o;
  EXPECT_THROW(validate(o), InvalidArgument);  // no parameter
  o.parameter = "surface.omega";
  o.ds = 0.0;
  EXPECT_THROW(validate(o), InvalidArgument);
  o.ds = 0.01;
  o.direction = 0;
  EXPECT_THROW(validate(o), InvalidArgument);
  o.direction = 1;
  EXPECT_NO_THROW(validate(o));
}

}  // namespace
}  // namespace clatter::analysis
