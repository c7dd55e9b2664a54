// The crossing section of sweeps (SectionKind::kCrossing, section_observer.hpp) on the ball on the
// table h = A sin ωt, whose period-1 orbit is known in closed form ([B] §6.3 [DERIVED],
// spec/000_thesis.md §6.3; analysis/impact_oscillator.hpp closed_form_orbit): apex
// H = A sin φ + gπ²/(2ω²) with cos φ = Γ_SN/Γ. On it the ball falls through y = c with
// ẏ = −√(2g(H − c)) (energy in free flight), once per forcing period.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

model::PlanarBodyModel ball(double e, double omega = 3.0, double A = 1.0) {
  model::Surface s;
  s.amplitude = A;
  s.omega = omega;
  return model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}});
}

// the apex of the closed-form period-1 orbit: t = (φ + π)/ω, y = H, at rest in y
hybrid::InitialState on_orbit(double A, double omega, double e) {
  const ClosedFormOrbit c = closed_form_orbit(A, omega, kG, e, 1);
  return {(c.stable.phase + kPi) / omega,
          {0.0, A * std::sin(c.stable.phase) + kG * kPi * kPi / (2.0 * omega * omega), 0.0},
          {0.0, 0.0, 0.0}};
}

TEST(CrossingSweep, FallingSpeedThroughAHeightIsTheClosedFormOrbits) {
  // A ∈ {0.9, 1, 1.1}, ω = 3, e = 0.9, carry-over down from the orbit at A = 1.1; c = 3 m lies
  // below every apex (H ≥ 4.3 m) and above the table
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.amplitude", 0.9, 1.1, 3}});
  sw.carry = CarryOver::kDown;
  sw.observe = {SectionKind::kCrossing, "ydot", -1, "y", 3.0, -1};
  sw.transient_periods = 600.0;
  sw.record_periods = 20.0;
  EXPECT_EQ(column_name(sw.observe), "ydot_crossing");
  const model::PlanarBodyModel m = ball(0.9);
  const std::vector<hybrid::InitialState> starts{on_orbit(1.1, 3.0, 0.9)};
  validate(sw, m, starts, {});
  const SweepOutcome out = run_sweep(m, starts, {}, sw, {});
  ASSERT_EQ(out.records.size(), 3u);
  for (const SweepRecord& r : out.records) {
    const double A = sw.grid.value(r.point, 0);
    const ClosedFormOrbit c = closed_form_orbit(A, 3.0, kG, 0.9, 1);
    const double H = A * std::sin(c.stable.phase) + kG * kPi * kPi / 18.0;
    EXPECT_EQ(r.distinct, 1) << "A = " << A;
    // one downward crossing per period (± the window's ends)
    EXPECT_NEAR(static_cast<double>(r.values.size()), 20.0, 1.0) << "A = " << A;
    ASSERT_FALSE(r.values.empty());
    // the transient leaves < 1e-20 of the start (multipliers of modulus e = 0.9 over 600
    // periods); impact times are located to ~1e-12 s: 1e-8 m/s
    EXPECT_NEAR(r.values.back(), -std::sqrt(2.0 * kG * (H - 3.0)), 1e-8) << "A = " << A;
  }
}

TEST(CrossingSweep, BadCrossingNamesTheField) {
  const model::PlanarBodyModel m = ball(0.9);
  // the ball's coordinates are x, y, theta
  Observable o{SectionKind::kCrossing, "ydot", -1, "z", 0.0, 0};
  EXPECT_THROW((void)resolve(o, m, "observe"), InvalidArgument);
  try {
    (void)resolve(o, m, "observe");
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "observe");
    EXPECT_NE(std::string(e.what()).find("allowed: x, y, theta"), std::string::npos) << e.what();
  }
  o = {SectionKind::kCrossing, "ydot", -1, "y", 0.0, 2};
  EXPECT_THROW((void)resolve(o, m, "observe"), InvalidArgument);
  o.crossing_direction = 0;
  o.crossing_value = std::numeric_limits<double>::infinity();
  EXPECT_THROW((void)resolve(o, m, "observe"), InvalidArgument);
  o.crossing_value = 1.0;
  const ResolvedObservable r = resolve(o, m, "observe");
  EXPECT_EQ(r.crossing_index, 1);
  hybrid::SimulationOptions opt;
  set_engine_section(r, opt);
  EXPECT_EQ(opt.section, hybrid::Section::kCrossing);
  EXPECT_EQ(opt.crossing_coordinate, 1);
  EXPECT_EQ(opt.crossing_value, 1.0);
}

}  // namespace
}  // namespace clatter::analysis
