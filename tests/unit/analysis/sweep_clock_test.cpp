// Sweeps of a model without a forcing (issue 25 item 5): the transient and the record measured in
// seconds, in impacts of a contact, or in crossings of the section (SweepClock), on the ball
// dropped from rest at height h0 onto a fixed floor with Newton's e. Closed form (free flight and
// v⁺ = e v⁻): impact k (k = 1, 2, …) at t_k = t₁ + Σ_{j=1}^{k−1} 2 e^j v₁/g, t₁ = √(2h₀/g),
// v₁ = √(2 g h₀); the apex after impact k has height h₀ e^{2k}, at t_k + e^k v₁/g.
// The bounces are resolved one by one (chatter = cutoff at 1e-9 m/s): with the default the engine
// predicts the accumulation at the first impact and jumps to rest, so there are no impacts to
// count (the bounces of a predicted chatter are not impact events).

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kH0 = 1.0;

model::PlanarBodyModel ball(double e) {
  return model::make_ball(1.0, 0.0, kG, model::Surface{}, {LawKind::kNewton, {0.0, e}});
}

std::vector<hybrid::InitialState> drop() { return {{0.0, {0.0, kH0, 0.0}, {0.0, 0.0, 0.0}}}; }

hybrid::SimulationOptions bounce_by_bounce() {
  hybrid::SimulationOptions o;
  o.chatter = hybrid::ChatterPolicy::kCutoff;
  o.v_tol = 1e-9;
  return o;
}

// apex heights after impacts k ∈ [k0, k1], and their times
std::vector<double> apexes(double e, int k0, int k1) {
  std::vector<double> h;
  for (int k = k0; k <= k1; ++k) h.push_back(kH0 * std::pow(e, 2 * k));
  return h;
}
double apex_time(double e, int k) {
  const double v1 = std::sqrt(2.0 * kG * kH0);
  double t = std::sqrt(2.0 * kH0 / kG);
  for (int j = 1; j < k; ++j) t += 2.0 * std::pow(e, j) * v1 / kG;
  return t + std::pow(e, k) * v1 / kG;
}

ParameterSweep base() {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"contact.ball.e", 0.5, 0.8, 4}});
  sw.observe = {SectionKind::kApex, "y"};
  return sw;
}

TEST(SweepClock, ImpactsClockRecordsTheApexesAfterTheTransientImpacts) {
  ParameterSweep sw = base();
  sw.clock = SweepClock::kImpacts;
  sw.clock_contact = 0;
  sw.transient_periods = 3;  // impacts discarded
  sw.record_periods = 4;     // impacts recorded: the run ends at the 7th
  sw.max_time = 100.0;
  const model::PlanarBodyModel m = ball(0.5);
  validate(sw, m, drop(), {});
  const SweepOutcome out = run_sweep(m, drop(), bounce_by_bounce(), sw, {});
  ASSERT_EQ(out.records.size(), 4U);
  for (const SweepRecord& r : out.records) {
    const double e = sw.grid.value(r.point, 0);
    SCOPED_TRACE(e);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.complete) << r.message;
    EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime);
    // apexes after impacts 3 … 6 (the one after the 7th is past the end of the run)
    const std::vector<double> h = apexes(e, 3, 6);
    ASSERT_EQ(r.values.size(), h.size());
    for (std::size_t k = 0; k < h.size(); ++k) EXPECT_NEAR(r.values[k], h[k], 1e-12);
    EXPECT_EQ(r.impacts, 4);
    EXPECT_DOUBLE_EQ(r.impacts_per_period, 1.0);  // per counted impact
  }
}

TEST(SweepClock, CrossingsClockCountsTheSectionsCrossings) {
  ParameterSweep sw = base();
  sw.clock = SweepClock::kCrossings;
  sw.transient_periods = 2;  // apexes discarded: after impacts 1 and 2
  sw.record_periods = 3;     // recorded: after impacts 3, 4, 5
  sw.max_time = 100.0;
  const model::PlanarBodyModel m = ball(0.5);
  const SweepOutcome out = run_sweep(m, drop(), bounce_by_bounce(), sw, {});
  ASSERT_EQ(out.records.size(), 4U);
  for (const SweepRecord& r : out.records) {
    const double e = sw.grid.value(r.point, 0);
    SCOPED_TRACE(e);
    EXPECT_TRUE(r.complete) << r.message;
    const std::vector<double> h = apexes(e, 3, 5);
    ASSERT_EQ(r.values.size(), h.size());
    for (std::size_t k = 0; k < h.size(); ++k) EXPECT_NEAR(r.values[k], h[k], 1e-12);
  }
}

TEST(SweepClock, TimeClockRecordsTheApexesInsideTheWindow) {
  ParameterSweep sw = base();
  sw.clock = SweepClock::kTime;
  sw.transient_periods = 0.5;  // [s]
  sw.record_periods = 0.7;     // [s]: apexes in [0.5, 1.2] (3 for e = 0.5, more for e = 0.8)
  const model::PlanarBodyModel m = ball(0.5);
  const SweepOutcome out = run_sweep(m, drop(), bounce_by_bounce(), sw, {});
  ASSERT_EQ(out.records.size(), 4U);
  for (const SweepRecord& r : out.records) {
    const double e = sw.grid.value(r.point, 0);
    SCOPED_TRACE(e);
    std::vector<double> expected;
    for (int k = 1; k < 200; ++k) {
      const double t = apex_time(e, k);
      if (t >= 0.5 && t <= 1.2) expected.push_back(kH0 * std::pow(e, 2 * k));
    }
    ASSERT_FALSE(expected.empty());
    ASSERT_EQ(r.values.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(r.values[k], expected[k], 1e-12);
    EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime);
    EXPECT_TRUE(r.message.empty()) << r.message;
  }
}

TEST(SweepClock, AnEventClockThatRunsOutOfTimeSaysSo) {
  // e = 0.5: t₁ = 0.4515 s, t₂ = 2 t₁ = 0.9031 s: 0.9 s of run see one impact of the 7 asked
  ParameterSweep sw = base();
  sw.grid = SweepGrid({{"contact.ball.e", 0.5, 0.5, 1}});
  sw.clock = SweepClock::kImpacts;
  sw.transient_periods = 3;
  sw.record_periods = 4;
  sw.max_time = 0.9;
  const model::PlanarBodyModel m = ball(0.5);
  const SweepOutcome out = run_sweep(m, drop(), bounce_by_bounce(), sw, {});
  ASSERT_EQ(out.records.size(), 1U);
  const SweepRecord& r = out.records[0];
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(r.values.empty());
  EXPECT_NE(r.message.find("ran out after 1 of 7 impacts"), std::string::npos) << r.message;
}

TEST(SweepClock, BadClocksNameTheField) {
  const model::PlanarBodyModel m = ball(0.5);
  const auto field = [&](const ParameterSweep& sw) -> std::string {
    try {
      validate(sw, m, drop(), {});
    } catch (const InvalidArgument& e) {
      return e.field();
    }
    return "accepted";
  };
  // the ball's floor does not move: surface.omega = 0 is no forcing frequency to count periods of
  ParameterSweep periods = base();
  EXPECT_EQ(field(periods), "period_parameter");
  ParameterSweep no_bound = base();
  no_bound.clock = SweepClock::kImpacts;
  EXPECT_EQ(field(no_bound), "max_time");
  ParameterSweep fraction = base();
  fraction.clock = SweepClock::kImpacts;
  fraction.max_time = 10.0;
  fraction.transient_periods = 2.5;
  EXPECT_EQ(field(fraction), "transient");
  ParameterSweep impact_section = base();
  impact_section.clock = SweepClock::kCrossings;
  impact_section.max_time = 10.0;
  impact_section.observe = {SectionKind::kImpact, "ydot"};
  EXPECT_EQ(field(impact_section), "clock");
  ParameterSweep contact = base();
  contact.clock = SweepClock::kImpacts;
  contact.max_time = 10.0;
  contact.clock_contact = 3;
  EXPECT_EQ(field(contact), "clock_contact");
  ParameterSweep phase = base();
  phase.clock = SweepClock::kTime;
  phase.observe = {SectionKind::kImpact, "phase"};
  EXPECT_EQ(field(phase), "period_parameter");
  ParameterSweep fine = base();
  fine.clock = SweepClock::kTime;
  EXPECT_EQ(field(fine), "accepted");
}

}  // namespace
}  // namespace clatter::analysis
