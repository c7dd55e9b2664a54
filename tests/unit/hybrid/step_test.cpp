// The stepping API (hybrid/step.hpp) and the Data it advances (hybrid/data.hpp):
// - a loop over step() to t_end is simulate(), bit for bit, on every example (events, final
//   state, counters, ledger);
// - each step's segment ends at the event's pre-impact state (interpolate at t1);
// - target times inside the run change the event times only by round-off (closed-form flights)
//   or by the integration tolerance (Runge–Kutta phases);
// - a user's section function on the segment finds the apex of every flight of a bouncing ball
//   at t_i + v⁺/g (the analytic flight);
// - stages one at a time, from Data made by hand: the start (an approaching contact's impact,
//   Newton's v⁺ = −e v⁻), a flight to the analytic impact time √(2h/g), a carried phase, a
//   Runge–Kutta step, a lift-off where the table's acceleration reaches −g;
// - bad calls throw naming the argument.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/step.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/io/scenario.hpp"
#include "support/example_files.hpp"

namespace clatter::hybrid {
namespace {

using test::example_files;

// the events of a run stepped to t_end (and the Data at its end)
struct Stepped {
  std::vector<EventRecord> events;
  std::vector<StepKind> kinds;
  SimulationResult result;
};

Stepped step_to(const model::System& m, const InitialState& init, const SimulationOptions& o,
                double target_dt = 0.0) {
  Stepped out;
  Data d = make_data(m, init, o);
  double next_target = target_dt > 0.0 ? init.t + target_dt : o.t_end;
  while (!d.stopped && d.t < o.t_end) {
    while (next_target <= d.t) next_target = std::min(next_target + target_dt, o.t_end);
    out.kinds.push_back(step(m, d, o, std::min(next_target, o.t_end)));
    out.events.insert(out.events.end(), d.events.begin(), d.events.end());
  }
  out.result = result_of(m, d, o.t_end);
  return out;
}

void expect_same_bits(const VecQ& a, const VecQ& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (int i = 0; i < a.size(); ++i) EXPECT_EQ(a(i), b(i)) << what << "[" << i << "]";
}

TEST(Stepping, LoopIsSimulateBitForBitOnEveryExample) {
  const std::vector<std::filesystem::path> files = example_files();
  ASSERT_GE(files.size(), 20U);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const io::Scenario sc = io::load_scenario(f);
    SimulationOptions o = sc.options;
    o.t_end = std::min(o.t_end, sc.initial.t + 4.0);
    TrajectoryRecorder rec;
    const SimulationResult r = simulate(*sc.model, sc.initial, o, &rec);
    const Stepped s = step_to(*sc.model, sc.initial, o);
    ASSERT_EQ(rec.events.size(), s.events.size());
    for (std::size_t k = 0; k < s.events.size(); ++k) {
      const EventRecord& a = rec.events[k];
      const EventRecord& b = s.events[k];
      ASSERT_EQ(a.t, b.t) << "event " << k;
      ASSERT_EQ(a.kind, b.kind) << "event " << k;
      ASSERT_EQ(a.contact, b.contact) << "event " << k;
      expect_same_bits(a.q, b.q, "q");
      expect_same_bits(a.qd_post, b.qd_post, "qd_post");
      EXPECT_EQ(a.modes, b.modes);
      EXPECT_EQ(a.energy, b.energy);
    }
    EXPECT_EQ(r.reason, s.result.reason);
    EXPECT_EQ(r.t, s.result.t);
    expect_same_bits(r.q, s.result.q, "final q");
    expect_same_bits(r.qd, s.result.qd, "final qd");
    EXPECT_EQ(r.events, s.result.events);
    EXPECT_EQ(r.rk_steps, s.result.rk_steps);
    EXPECT_EQ(r.rhs_evaluations, s.result.rhs_evaluations);
    EXPECT_EQ(r.energy.balance(), s.result.energy.balance());
    EXPECT_EQ(r.energy.friction_loss, s.result.energy.friction_loss);
  }
}

TEST(Stepping, EachSegmentEndsAtItsImpactsPreImpactState) {
  int checked = 0;
  for (const auto& f : example_files()) {
    SCOPED_TRACE(f.filename().string());
    const io::Scenario sc = io::load_scenario(f);
    SimulationOptions o = sc.options;
    o.t_end = std::min(o.t_end, sc.initial.t + 2.0);
    Data d = make_data(*sc.model, sc.initial, o);
    VecQ q, qd;
    VecA a;
    while (!d.stopped && d.t < o.t_end) {
      step(*sc.model, d, o, o.t_end);
      if (d.events.empty() || d.events.front().kind != EventKind::kImpact) continue;
      if (d.segment.kind == SegmentKind::kNone) continue;  // the impact at the start
      const EventRecord& e = d.events.front();
      ASSERT_EQ(d.segment.t1, e.t);
      interpolate(*sc.model, d, d.segment.t1, q, qd, a);
      for (int i = 0; i < q.size(); ++i) {
        EXPECT_NEAR(q(i), e.q(i), 1e-12 * (1.0 + std::abs(e.q(i))));
        EXPECT_NEAR(qd(i), e.qd_pre(i), 1e-10 * (1.0 + std::abs(e.qd_pre(i))));
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 100);
}

// target times split flights and Runge–Kutta phases; the events stay where they were
void expect_same_events_with_targets(const char* file, double t_end, double target_dt,
                                     double time_tol) {
  SCOPED_TRACE(file);
  const io::Scenario sc = io::load_scenario(std::filesystem::path(CLATTER_EXAMPLES_DIR) / file);
  SimulationOptions o = sc.options;
  o.t_end = t_end;
  const Stepped whole = step_to(*sc.model, sc.initial, o);
  const Stepped split = step_to(*sc.model, sc.initial, o, target_dt);
  EXPECT_GT(std::count(split.kinds.begin(), split.kinds.end(), StepKind::kReached), 5);
  ASSERT_EQ(whole.events.size(), split.events.size());
  ASSERT_GE(whole.events.size(), 1U);
  for (std::size_t k = 0; k < whole.events.size(); ++k) {
    EXPECT_EQ(whole.events[k].kind, split.events[k].kind) << "event " << k;
    EXPECT_NEAR(whole.events[k].t, split.events[k].t, time_tol) << "event " << k;
  }
  EXPECT_NEAR(whole.result.t, split.result.t, 0.0);
}

TEST(Stepping, TargetTimesMoveEventsOnlyByRoundOffInFlights) {
  // ball on a table A sin(ωt), every phase an exact flight
  expect_same_events_with_targets("ball_table_period1.toml", 12.0, 0.37, 1e-11);
}

TEST(Stepping, TargetTimesMoveEventsWithinTheIntegrationToleranceInRungeKuttaPhases) {
  // Runge–Kutta phases (rtol = atol = 1e-12): a block on a belt sticking and slipping, the
  // double pendulum on its belt, and [NDC]'s rod over one period (an impact, slip and stick)
  expect_same_events_with_targets("stick_slip_oscillator.toml", 10.0, 0.25, 1e-8);
  expect_same_events_with_targets("double_pendulum_stick_slip.toml", 3.0, 0.25, 1e-8);
  expect_same_events_with_targets("ndc_case_1_3.toml", 11.6, 0.25, 1e-8);
}

// --- a user's section on the segment -------------------------------------------------------
constexpr const char* kBall = R"(
name = "ball"
[model]
kind = "ball"
mass = 1.0
[law]
kind = "newton"
e = 0.7
[initial]
q = [0.0, 1.0, 0.0]
[simulation]
t_end = 3.0
chatter_horizon = 0.001
)";

TEST(Stepping, SectionFunctionOnTheSegmentFindsEveryApexOfTheFlights) {
  const io::Scenario sc = io::parse_scenario(kBall, "kBall");
  const double g = 9.81;
  Data d = make_data(*sc.model, sc.initial, sc.options);
  // ẏ = 0 falling: the apex, with the slope ÿ = −g
  const auto h = [&](double, const VecQ&, const VecQ& qd, const VecA&) {
    return integrate::ValueSlope{qd(1), -g};
  };
  double t_impact = -1.0;
  double v_post = 0.0;
  int apexes = 0;
  while (!d.stopped && d.t < sc.options.t_end) {
    step(*sc.model, d, sc.options, sc.options.t_end);
    segment_crossings(*sc.model, d, 4, h, [&](double t, int direction) {
      EXPECT_EQ(direction, -1);
      // the ball starts at rest, at its first apex: ẏ = 0 then falls (ẏ ≥ 0 counts as above)
      const double t_apex = t_impact < 0.0 ? 0.0 : t_impact + v_post / g;
      EXPECT_NEAR(t, t_apex, 1e-13 * (1.0 + t));
      ++apexes;
    });
    for (const EventRecord& e : d.events) {
      if (e.kind != EventKind::kImpact) continue;
      t_impact = e.t;
      v_post = e.qd_post(1);
    }
  }
  EXPECT_GE(apexes, 10);
}

// --- stages, one at a time, from Data made by hand ------------------------------------------
TEST(StepStages, StartResolvesAnApproachingContactByItsLaw) {
  const io::Scenario sc = io::parse_scenario(kBall, "kBall");
  const InitialState at_floor(0.0, {0.0, 0.0, 0.0}, {0.0, -2.0, 0.0});
  Data d = make_data(*sc.model, at_floor, sc.options);
  EXPECT_FALSE(d.started);
  EXPECT_EQ(d.approaching, 0);
  EXPECT_EQ(step(*sc.model, d, sc.options, 1.0), StepKind::kEvent);
  EXPECT_EQ(d.t, 0.0);
  ASSERT_EQ(d.events.size(), 1U);
  EXPECT_EQ(d.events[0].kind, EventKind::kImpact);
  EXPECT_NEAR(d.qd(1), 0.7 * 2.0, 1e-15);  // Newton: v⁺ = −e v⁻
  EXPECT_EQ(d.counters.impacts, 1);
}

TEST(StepStages, FlightEndsAtTheAnalyticImpactTime) {
  const io::Scenario sc = io::parse_scenario(kBall, "kBall");
  Data d = make_data(*sc.model, sc.initial, sc.options);
  EXPECT_EQ(step(*sc.model, d, sc.options, 2.0), StepKind::kStart);  // at rest in the air
  EXPECT_EQ(step(*sc.model, d, sc.options, 2.0), StepKind::kEvent);
  EXPECT_EQ(d.segment.kind, SegmentKind::kFlight);
  const double t_fall = std::sqrt(2.0 * 1.0 / 9.81);
  EXPECT_NEAR(d.t, t_fall, 1e-14);
  EXPECT_NEAR(d.qd(1), 0.7 * 9.81 * t_fall, 1e-12);
  EXPECT_EQ(d.counters.rk_steps, 0);
  // a target before the impact: the flight stops there, no event
  Data early = make_data(*sc.model, sc.initial, sc.options);
  step(*sc.model, early, sc.options, 2.0);
  EXPECT_EQ(step(*sc.model, early, sc.options, 0.2), StepKind::kReached);
  EXPECT_EQ(early.t, 0.2);
  EXPECT_NEAR(early.q(1), 1.0 - 0.5 * 9.81 * 0.04, 1e-15);
  EXPECT_TRUE(early.events.empty());
}

TEST(StepStages, WithoutExactFlightEachStepIsOneRungeKuttaStep) {
  const io::Scenario sc = io::parse_scenario(kBall, "kBall");
  SimulationOptions o = sc.options;
  o.exact_flight = false;
  Data d = make_data(*sc.model, sc.initial, o);
  step(*sc.model, d, o, 2.0);
  long steps = 0;
  StepKind k = StepKind::kFlow;
  while ((k = step(*sc.model, d, o, 2.0)) == StepKind::kFlow) {
    ++steps;
    EXPECT_EQ(d.counters.rk_steps, steps);
    EXPECT_TRUE(d.ode.active);
    EXPECT_EQ(d.segment.kind, SegmentKind::kRungeKutta);
    // the state shown between steps is the flight's (DOPRI5 is exact on a parabola to round-off)
    EXPECT_NEAR(d.q(1), 1.0 - 0.5 * 9.81 * d.t * d.t, 1e-12);
  }
  EXPECT_EQ(k, StepKind::kEvent);
  EXPECT_FALSE(d.ode.active);
  EXPECT_NEAR(d.t, std::sqrt(2.0 / 9.81), 1e-12);
}

// a ball resting on a table y = A sin(ωt): it rides (a carried phase in closed form) until the
// table's acceleration −Aω² sin(ωt) reaches −g, i.e. sin(ωt) = g/(Aω²): lift-off
TEST(StepStages, CarriedPhaseEndsInALiftOffWhereTheTableAccelerationReachesMinusG) {
  constexpr const char* kRiding = R"(
name = "riding"
[model]
kind = "ball"
mass = 1.0
[surface]
amplitude = 0.1
omega = 12.0
[law]
kind = "newton"
e = 0.5
[initial]
q = [0.0, 0.0, 0.0]
qdot = [0.0, 1.2, 0.0]
[simulation]
t_end = 1.0
)";
  const io::Scenario sc = io::parse_scenario(kRiding, "kRiding");
  Data d = make_data(*sc.model, sc.initial, sc.options);
  step(*sc.model, d, sc.options, 1.0);
  EXPECT_EQ(d.modes[0], ContactMode::kStick);
  EXPECT_EQ(step(*sc.model, d, sc.options, 1.0), StepKind::kEvent);
  EXPECT_EQ(d.segment.kind, SegmentKind::kCarried);
  ASSERT_FALSE(d.events.empty());
  EXPECT_EQ(d.events[0].kind, EventKind::kLiftOff);
  const double t_lift = std::asin(9.81 / (0.1 * 144.0)) / 12.0;
  EXPECT_NEAR(d.t, t_lift, 1e-9);
  EXPECT_EQ(d.modes[0], ContactMode::kOpen);
}

TEST(StepStages, BadCallsThrowNamingTheArgument) {
  const io::Scenario sc = io::parse_scenario(kBall, "kBall");
  Data d = make_data(*sc.model, sc.initial, sc.options);
  try {
    (void)step(*sc.model, d, sc.options, 0.0);
    FAIL() << "until = t accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "until");
  }
  EXPECT_THROW((void)step(*sc.model, d, sc.options, std::nan("")), InvalidArgument);
  stop(d, StopReason::kCancelled, "by the test");
  try {
    (void)step(*sc.model, d, sc.options, 1.0);
    FAIL() << "a stopped run stepped";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "data");
  }
  InitialState wrong = sc.initial;
  wrong.q = VecQ::Zero(2);
  EXPECT_THROW((void)make_data(*sc.model, wrong, sc.options), InvalidArgument);
}

}  // namespace
}  // namespace clatter::hybrid
