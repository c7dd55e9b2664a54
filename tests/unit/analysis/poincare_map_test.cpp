// Poincaré maps of any model computed by the engine (analysis/poincare_map.hpp), on the ball's
// closed-form period-1 orbit ([B] §6.3 [DERIVED], spec/000_thesis.md §6.3: e* = 0.9, ω = 3, A = 1:
// impact phase ωt_i = 1.38958, apex 6.3626; Γ cos φ = π(1 − e)/(1 + e), v = gπ/ω): every section
// returns to its own point after one period, to 1e-9.

#include "clatter/analysis/poincare_map.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

struct Ball {
  model::PlanarBodyModel model;
  hybrid::InitialState after_impact;  // on the closed-form orbit, just after its impact
  double omega;
};

Ball ball() {
  const double omega = 3.0, e = 0.9;
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, e, 1);
  const double t = cf.stable.phase / omega;
  return {model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}}),
          hybrid::InitialState{
              t, {0.0, std::sin(cf.stable.phase), 0.0}, {0.0, cf.stable.velocity, 0.0}},
          omega};
}

TEST(PoincareMap, ImpactSectionReturnsAfterOnePeriod) {
  const Ball b = ball();
  PoincareSection s;
  s.kind = PoincareKind::kImpact;
  s.contact = 0;
  const auto seq = poincare_sequence(b.model, {}, s, b.after_impact, 3, 100.0);
  ASSERT_EQ(seq.size(), 3U);
  for (int k = 0; k < 3; ++k) {
    const SectionPoint& p = seq[static_cast<std::size_t>(k)];
    ASSERT_TRUE(p.found) << p.message;
    EXPECT_NEAR(p.t, b.after_impact.t + (k + 1) * 2.0 * kPi / b.omega, 1e-9);
    EXPECT_NEAR(p.x(4), b.after_impact.qd(1), 1e-9);                       // ydot after the impact
    EXPECT_NEAR(std::remainder(b.omega * p.t, 2.0 * kPi), 1.38958, 5e-6);  // [B]'s phase
    EXPECT_EQ(p.passed.back().kind, hybrid::EventKind::kImpact);
  }
}

TEST(PoincareMap, ApexCrossingIsTheThesisApex) {
  const Ball b = ball();
  PoincareSection s;
  s.kind = PoincareKind::kCrossing;
  s.component = 4;  // ydot
  s.value = 0.0;
  s.direction = -1;
  const SectionPoint p = next_crossing(b.model, {}, s, b.after_impact, 100.0);
  ASSERT_TRUE(p.found) << p.message;
  EXPECT_NEAR(p.x(4), 0.0, 1e-9);
  EXPECT_NEAR(p.x(1), 6.3626, 5e-5);  // [B] §6.3: apex 6.3626 (5 digits)
  // closed form: the apex of the flight y = sin φ + v τ − g τ²/2 at τ = v/g
  const double v = b.after_impact.qd(1);
  EXPECT_NEAR(p.x(1), b.after_impact.q(1) + 0.5 * v * v / kG, 1e-9);
  EXPECT_NEAR(p.t, b.after_impact.t + v / kG, 1e-9);
}

// A velocity section is located once on the flight (no re-runs): ẏ = 0 to round-off, at the
// closed form's time to 1e-13 s (it was 1e-12 s by bisection on re-runs of the engine).
TEST(PoincareMap, VelocitySectionOnTheSegmentToRoundOff) {
  const Ball b = ball();
  PoincareSection s;
  s.kind = PoincareKind::kCrossing;
  s.component = 4;  // ydot
  s.value = 0.0;
  s.direction = -1;
  const auto seq = poincare_sequence(b.model, {}, s, b.after_impact, 5, 100.0);
  ASSERT_EQ(seq.size(), 5U);
  const double v = b.after_impact.qd(1);
  const double period = 2.0 * kPi / b.omega;
  for (std::size_t k = 0; k < seq.size(); ++k) {
    ASSERT_TRUE(seq[k].found) << seq[k].message;
    EXPECT_NEAR(seq[k].x(4), 0.0, 1e-12);
    // the period-1 orbit: one impact between two apexes, the k-th apex k periods later
    EXPECT_NEAR(seq[k].t, b.after_impact.t + v / kG + static_cast<double>(k) * period, 1e-9);
    EXPECT_EQ(seq[k].passed.size(), k == 0 ? 0U : 1U);
  }
}

// A coordinate's crossing comes from the engine's own section: a level 1e-6 m below the apex is
// crossed up and then down within 0.9 ms, inside one sample step of the sampled search
// (sample_dt = 1e-3 s), and both crossings are found at the closed form's times,
// τ = (v ∓ √(v² − 2g(c − y₀)))/g after the impact.
TEST(PoincareMap, CoordinateCrossingPairWithinOneSampleStep) {
  const Ball b = ball();
  const double y0 = b.after_impact.q(1);
  const double v = b.after_impact.qd(1);
  const double c = y0 + 0.5 * v * v / kG - 1e-6;
  const double root = std::sqrt(v * v - 2.0 * kG * (c - y0));
  PoincareSection s;
  s.kind = PoincareKind::kCrossing;
  s.component = 1;  // y
  s.value = c;
  ASSERT_GT(s.sample_dt, 2.0 * root / kG);  // the pair lies within one sample step
  for (const int dir : {+1, -1}) {
    s.direction = dir;
    const SectionPoint p = next_crossing(b.model, {}, s, b.after_impact, 100.0);
    ASSERT_TRUE(p.found) << p.message;
    const double tau = (v - dir * root) / kG;
    EXPECT_NEAR(p.t, b.after_impact.t + tau, 1e-10) << "direction " << dir;
    EXPECT_NEAR(p.x(1), c, 1e-12) << "direction " << dir;
    EXPECT_NEAR(p.x(4), v - kG * tau, 1e-9) << "direction " << dir;
    EXPECT_TRUE(p.passed.empty()) << "direction " << dir;  // no impact on the way up
  }
  // both directions: the upward one first, then (from it) the downward one
  s.direction = 0;
  const auto seq = poincare_sequence(b.model, {}, s, b.after_impact, 2, 100.0);
  ASSERT_EQ(seq.size(), 2U);
  EXPECT_NEAR(seq[0].t, b.after_impact.t + (v - root) / kG, 1e-10);
  EXPECT_NEAR(seq[1].t, b.after_impact.t + (v + root) / kG, 1e-10);
}

TEST(PoincareMap, StroboscopicMapIsPeriodic) {
  const Ball b = ball();
  PoincareSection s;
  s.kind = PoincareKind::kPhase;
  s.phase = 0.5;
  const auto seq = poincare_sequence(b.model, {}, s, b.after_impact, 3, 100.0);
  ASSERT_EQ(seq.size(), 3U);
  EXPECT_NEAR(std::remainder(b.omega * seq[0].t - 0.5, 2.0 * kPi), 0.0, 1e-12);
  for (int k = 1; k < 3; ++k) {
    EXPECT_NEAR(seq[static_cast<std::size_t>(k)].x(1), seq[0].x(1), 1e-9);
    EXPECT_NEAR(seq[static_cast<std::size_t>(k)].x(4), seq[0].x(4), 1e-9);
  }
}

TEST(PoincareMap, BoundedAndValidated) {
  const Ball b = ball();
  PoincareSection s;
  s.kind = PoincareKind::kCrossing;
  s.component = 1;
  s.value = 100.0;  // never reached
  const SectionPoint p = next_crossing(b.model, {}, s, b.after_impact, b.after_impact.t + 5.0);
  EXPECT_FALSE(p.found);
  EXPECT_FALSE(p.message.empty());
  s.component = 17;
  EXPECT_THROW((void)next_crossing(b.model, {}, s, b.after_impact, 10.0), InvalidArgument);
  s.component = 1;
  s.direction = 2;
  EXPECT_THROW((void)next_crossing(b.model, {}, s, b.after_impact, 10.0), InvalidArgument);
}

}  // namespace
}  // namespace clatter::analysis
