// Scheduled parameter changes (hybrid/schedule.hpp) against closed forms: a point mass sliding on
// a fixed floor decelerates at μ g; friction switched from μ₁ to μ₂ at t₁ stops it at
//   t_stop = t₁ + (v₀ − μ₁ g t₁)/(μ₂ g)
// (Coulomb, no impacts), to the event-location tolerance (1e-9 s). A stiffness change that alters
// the potential energy is booked in the ledger as a reset, so the ledger still balances.

#include "clatter/hybrid/schedule.hpp"

#include <gtest/gtest.h>

#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

TEST(Schedule, FrictionSwitchedDuringSlidingStopsAtTheClosedFormTime) {
  const double g = 9.81, v0 = 3.0, mu1 = 0.1, mu2 = 0.4, t1 = 0.5;
  const auto ball = model::make_ball(1.0, 0.0, g, {}, {LawKind::kStronge, {mu1, 0.5}});
  SimulationOptions o;
  o.t_end = 2.0;
  TrajectoryRecorder rec;
  const SimulationResult r = simulate_scheduled(
      ball, InitialState{0.0, {0.0, 0.0, 0.0}, {v0, 0.0, 0.0}}, o, {{t1, "mu", mu2}}, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  const double t_stop = t1 + (v0 - mu1 * g * t1) / (mu2 * g);
  bool changed = false, stopped = false;
  for (const EventRecord& e : rec.events) {
    if (e.kind == EventKind::kParameterChange) {
      EXPECT_EQ(e.t, t1);
      EXPECT_NEAR(e.qd_post(0), v0 - mu1 * g * t1, 1e-9);
      changed = true;
    }
    if (e.kind == EventKind::kStick) {
      EXPECT_NEAR(e.t, t_stop, 1e-9);
      stopped = true;
    }
  }
  EXPECT_TRUE(changed);
  EXPECT_TRUE(stopped);
  EXPECT_NEAR(r.qd(0), 0.0, 1e-12);
  EXPECT_NEAR(r.q(0), v0 * t1 - 0.5 * mu1 * g * t1 * t1 + 0.5 * (v0 - mu1 * g * t1) * (t_stop - t1),
              1e-9);
  EXPECT_LT(std::abs(r.energy.balance()), 1e-9 * 0.5 * v0 * v0);
}

TEST(Schedule, GravityChangeIsBookedAsAReset) {
  // a ball in flight: changing g at t₁ changes V = m g y; the ledger books the jump as a reset
  const auto ball = model::make_ball(1.0, 0.0, 9.81, {}, {LawKind::kNewton, {0.0, 0.8}});
  SimulationOptions o;
  o.t_end = 3.0;
  const SimulationResult r = simulate_scheduled(
      ball, InitialState{0.0, {0.0, 2.0, 0.0}, {0.0, 0.0, 0.0}}, o, {{0.2, "gravity", 5.0}});
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  EXPECT_NE(r.energy.reset, 0.0);
  EXPECT_LT(std::abs(r.energy.balance()), 1e-9 * 20.0);
}

TEST(Schedule, BadChangesNameTheField) {
  const auto ball = model::make_ball(1.0, 0.0, 9.81, {}, {LawKind::kNewton, {0.0, 0.8}});
  SimulationOptions o;
  o.t_end = 1.0;
  const InitialState init{0.0, {0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}};
  EXPECT_THROW((void)simulate_scheduled(ball, init, o, {{2.0, "mu", 0.1}}), InvalidArgument);
  EXPECT_THROW((void)simulate_scheduled(ball, init, o, {{0.5, "no_such", 0.1}}), InvalidArgument);
  EXPECT_THROW((void)simulate_scheduled(ball, init, o, {{0.5, "e", 1.5}}), InvalidArgument);
  // a bad second change is found before the first segment runs: nothing is recorded
  TrajectoryRecorder rec;
  EXPECT_THROW((void)simulate_scheduled(ball, init, o, {{0.2, "mu", 0.1}, {0.5, "mu", -1.0}}, &rec),
               InvalidArgument);
  EXPECT_TRUE(rec.samples.empty() && rec.events.empty());
}

TEST(Schedule, AChangeAtTheEndTimeEndsTheRun) {
  const auto ball = model::make_ball(1.0, 0.0, 9.81, {}, {LawKind::kNewton, {0.0, 0.8}});
  SimulationOptions o;
  o.t_end = 0.3;
  const SimulationResult r = simulate_scheduled(
      ball, InitialState{0.0, {0.0, 2.0, 0.0}, {0.0, 0.0, 0.0}}, o, {{0.3, "gravity", 5.0}});
  EXPECT_EQ(r.reason, StopReason::kEndTime) << r.message;
  EXPECT_NEAR(r.q(1), 2.0 - 0.5 * 9.81 * 0.09, 1e-12);  // free fall until t_end
}

}  // namespace
}  // namespace clatter::hybrid
