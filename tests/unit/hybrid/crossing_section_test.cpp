// The coordinate-crossing section (hybrid::Section::kCrossing) in every phase of the engine,
// against closed forms: a ball in free flight (ballistic: y(t) = y0 + v0 t − ½gt²), a ball bouncing
// with e = 1 across impacts, the same on the Runge–Kutta route, a pendulum (Runge–Kutta only: its
// quarter period is an elliptic integral and its speed at the bottom follows from energy), a ball
// carried by a table in closed form (y = R + A sin ωt), and bad input.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/model/physical_pendulum.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

class SectionRecorder final : public Recorder {
 public:
  void on_section(const Sample& s) override { sections.push_back(s); }
  void on_event(const EventRecord& e) override { events.push_back(e); }
  std::vector<Sample> sections;
  std::vector<EventRecord> events;
};

model::PlanarBodyModel ball(double e, double R = 0.0, double A = 0.0, double w = 0.0,
                            double mu = 0.0) {
  model::Surface s;
  s.amplitude = A;
  s.omega = w;
  LawChoice law;
  law.kind = LawKind::kNewton;
  law.params.e = e;
  law.params.mu = mu;
  return model::make_ball(1.0, R, kG, s, law);
}

SimulationOptions crossing(int coordinate, double value, int direction, double t_end) {
  SimulationOptions o;
  o.t_end = t_end;
  o.section = Section::kCrossing;
  o.crossing_coordinate = coordinate;
  o.crossing_value = value;
  o.crossing_direction = direction;
  return o;
}

TEST(CrossingSection, BallInFlightCrossesUpThenDownAtTheBallisticTimes) {
  // y(t) = y0 + v0 t − ½ g t²  crosses c at  t = (v0 ∓ √(v0² − 2g(c − y0)))/g  with
  // ẏ = ±√(v0² − 2g(c − y0)) (energy); the ball lands at t ≈ 1.19 s, after t_end
  const auto m = ball(0.5);
  const double y0 = 1.0, v0 = 5.0, c = 2.0;
  const double root = std::sqrt(v0 * v0 - 2.0 * kG * (c - y0));
  const double t_up = (v0 - root) / kG, t_down = (v0 + root) / kG;
  const InitialState init{0.0, {0.0, y0, 0.0}, {0.3, v0, 0.0}};
  for (const int direction : {0, 1, -1}) {
    SectionRecorder rec;
    const SimulationResult r = simulate(m, init, crossing(1, c, direction, 1.1), &rec);
    ASSERT_EQ(r.reason, StopReason::kEndTime);
    std::vector<double> times, rates;
    if (direction >= 0) times.push_back(t_up), rates.push_back(root);
    if (direction <= 0) times.push_back(t_down), rates.push_back(-root);
    ASSERT_EQ(rec.sections.size(), times.size()) << "direction " << direction;
    for (std::size_t k = 0; k < times.size(); ++k) {
      // closed-form flight, the time refined by TOMS 748: round-off of t and y (1e-14)
      EXPECT_NEAR(rec.sections[k].t, times[k], 1e-14);
      EXPECT_NEAR(rec.sections[k].q(1), c, 1e-14);
      EXPECT_NEAR(rec.sections[k].qd(1), rates[k], 1e-13);
      EXPECT_NEAR(rec.sections[k].q(0), 0.3 * times[k], 1e-14);
    }
  }
}

TEST(CrossingSection, TwoCrossingsMicrosecondsApartInOneFlightAreBothFound) {
  // c = 1e-10 m below the apex y0 + v0²/(2g): the crossings are t_apex ∓ √(2e-10/g), 9 µs apart,
  // found by the guaranteed search (the flight has no samples at all)
  const auto m = ball(0.5);
  const double y0 = 1.0, v0 = 5.0;
  const double t_apex = v0 / kG;
  const double c = y0 + v0 * v0 / (2.0 * kG) - 1e-10;
  const double w = std::sqrt(2.0 * 1e-10 / kG);
  const InitialState init{0.0, {0.0, y0, 0.0}, {0.0, v0, 0.0}};
  for (const int direction : {0, 1, -1}) {
    SectionRecorder rec;
    (void)simulate(m, init, crossing(1, c, direction, 1.1), &rec);
    ASSERT_EQ(rec.sections.size(), direction == 0 ? 2U : 1U) << "direction " << direction;
    // tolerance: y is known to ~4e-16 m and its rate there is 4.4e-5 m/s: t to ~1e-11 s
    if (direction >= 0) {
      EXPECT_NEAR(rec.sections.front().t, t_apex - w, 1e-10);
    }
    if (direction <= 0) {
      EXPECT_NEAR(rec.sections.back().t, t_apex + w, 1e-10);
    }
    if (direction >= 0) {
      EXPECT_GT(rec.sections.front().qd(1), 0.0);
    }
    if (direction <= 0) {
      EXPECT_LT(rec.sections.back().qd(1), 0.0);
    }
  }
}

TEST(CrossingSection, ElasticBounceCrossesTheMidHeightTwicePerPeriodAcrossImpacts) {
  // a point ball dropped from y = 1 on a fixed floor with e = 1 returns to 1 every
  // 2 T0 (T0 = √(2/g)); y = ½ is crossed downward at √(1/g) + 2kT0 and upward at
  // 2T0 − √(1/g) + 2kT0, always with |ẏ| = √g (energy)
  const auto m = ball(1.0);
  const double T0 = std::sqrt(2.0 / kG), s = std::sqrt(1.0 / kG);
  const InitialState init{0.0, {0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}};
  for (const bool exact : {true, false}) {
    SectionRecorder rec;
    SimulationOptions o = crossing(1, 0.5, 0, 4.0);
    o.exact_flight = exact;
    const SimulationResult r = simulate(m, init, o, &rec);
    ASSERT_EQ(r.reason, StopReason::kEndTime);
    // crossings before t = 4: 2 per period 2T0 = 0.903 s → 9 (the 9th, downward, at 3.93 s)
    ASSERT_EQ(rec.sections.size(), 9U) << (exact ? "exact flight" : "Runge-Kutta");
    for (std::size_t k = 0; k < rec.sections.size(); ++k) {
      const double period = 2.0 * T0 * static_cast<double>(k / 2);
      const bool down = k % 2 == 0;
      const double t = period + (down ? s : 2.0 * T0 - s);
      // exact flights: impacts and crossings to round-off (1e-13 over 9 crossings); the
      // Runge–Kutta route (rtol = atol = 1e-12): the engine's event-time tolerance 1e-9
      const double tol = exact ? 1e-12 : 1e-9;
      EXPECT_NEAR(rec.sections[k].t, t, tol) << k;
      EXPECT_NEAR(rec.sections[k].qd(1), down ? -std::sqrt(kG) : std::sqrt(kG), tol) << k;
      EXPECT_NEAR(rec.sections[k].q(1), 0.5, tol) << k;
    }
  }
}

model::PhysicalPendulumParameters pendulum_rod() {
  // a uniform rod of length 1 pivoted at its end: m = 1, d = 1/2, I_O = 1/3; its tip (ℓ = 1)
  // never reaches the line 2 m below the pivot
  model::PhysicalPendulumParameters p;
  p.mass = 1.0;
  p.com_distance = 0.5;
  p.inertia = 1.0 / 3.0;
  p.tip_distance = 1.0;
  p.gravity = kG;
  p.line_height = -2.0;
  return p;
}

TEST(CrossingSection, PendulumCrossesTheBottomAtTheEllipticQuarterPeriods) {
  // from rest at φ0 = 1 rad: I φ̈ = −m g d sin φ, so φ = 0 is reached after the quarter period
  // T/4 = √(I/(m g d)) K(sin(φ0/2)) (complete elliptic integral of the first kind) and every
  // T/2 after, alternately downward and upward, with |φ̇| = √(2 m g d (1 − cos φ0)/I) (energy).
  // No exact flight: every phase is Runge–Kutta (rtol = atol = 1e-12).
  const model::PhysicalPendulumParameters p = pendulum_rod();
  LawChoice law;
  const model::PhysicalPendulum m(p, law);
  const double phi0 = 1.0;
  const double mgd = p.mass * p.gravity * p.com_distance;
  const double quarter = std::sqrt(p.inertia / mgd) * std::comp_ellint_1(std::sin(0.5 * phi0));
  const double rate = std::sqrt(2.0 * mgd * (1.0 - std::cos(phi0)) / p.inertia);
  InitialState init;
  init.t = 0.0;
  init.q = model::VecQ::Constant(1, phi0);
  init.qd = model::VecQ::Constant(1, 0.0);
  const double t_end = 10.0;
  for (const int direction : {0, 1, -1}) {
    SectionRecorder rec;
    const SimulationResult r = simulate(m, init, crossing(0, 0.0, direction, t_end), &rec);
    ASSERT_EQ(r.reason, StopReason::kEndTime);
    EXPECT_GT(r.rk_steps, 0);
    std::vector<double> times;
    for (int k = 0;; ++k) {
      const double t = quarter * (1.0 + 2.0 * k);
      if (t > t_end) break;
      const bool down = k % 2 == 0;
      if (direction == 0 || (direction < 0) == down) times.push_back(t);
    }
    ASSERT_EQ(rec.sections.size(), times.size()) << "direction " << direction;
    for (std::size_t k = 0; k < times.size(); ++k) {
      // integration error at 1e-12 over up to 10 s: 1e-9 on t and φ̇
      EXPECT_NEAR(rec.sections[k].t, times[k], 1e-9) << k;
      EXPECT_NEAR(std::abs(rec.sections[k].qd(0)), rate, 1e-9) << k;
      EXPECT_NEAR(rec.sections[k].q(0), 0.0, 1e-12) << k;
      const bool down = direction < 0 || (direction == 0 && k % 2 == 0);
      EXPECT_EQ(rec.sections[k].qd(0) < 0.0, down) << k;
    }
  }
}

TEST(CrossingSection, TheSectionDoesNotChangeTheRun) {
  // the crossings are located on the phases' own flows: the events and the final state of a run
  // with the section equal those without, bit for bit (a ball chattering onto a table: flights,
  // impacts, Runge–Kutta and carried phases)
  const auto m = ball(0.8, 0.0, 0.1, 8.0, 0.3);
  const InitialState init{0.0, {0.0, 0.6, 0.0}, {0.2, 0.0, 0.0}};
  SimulationOptions plain;
  plain.t_end = 6.0;
  SectionRecorder a, b;
  const SimulationResult ra = simulate(m, init, plain, &a);
  const SimulationResult rb = simulate(m, init, crossing(1, 0.05, 0, 6.0), &b);
  EXPECT_FALSE(b.sections.empty());
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t k = 0; k < a.events.size(); ++k) EXPECT_EQ(a.events[k].t, b.events[k].t);
  EXPECT_EQ(ra.q(1), rb.q(1));
  EXPECT_EQ(ra.qd(1), rb.qd(1));
}

TEST(CrossingSection, BallCarriedByATableCrossesWithTheTable) {
  // a ball of radius R resting on the table h = A sin ωt (Aω² = 1.25 < g: it never lifts off)
  // is carried in closed form: y = R + A sin ωt, so y = R + A/2 is crossed upward at
  // ωt = π/6 + 2πk and downward at 5π/6 + 2πk, with ẏ = Aω cos ωt = ±Aω√3/2
  const double R = 0.1, A = 0.05, w = 5.0;
  const auto m = ball(0.5, R, A, w, 0.5);
  const InitialState init{0.0, {0.0, R, 0.0}, {0.0, A * w, 0.0}};
  for (const bool exact : {true, false}) {
    SectionRecorder rec;
    SimulationOptions o = crossing(1, R + 0.5 * A, 0, 3.0);
    o.exact_contact = exact;
    const SimulationResult r = simulate(m, init, o, &rec);
    ASSERT_EQ(r.reason, StopReason::kEndTime);
    if (exact) {
      EXPECT_GE(r.carried_phases, 1);
    }
    std::vector<double> times;
    for (int k = 0; k < 4; ++k) {
      for (const double phase : {kPi / 6.0, 5.0 * kPi / 6.0}) {
        const double t = (phase + 2.0 * kPi * k) / w;
        if (t <= 3.0) times.push_back(t);
      }
    }
    ASSERT_EQ(rec.sections.size(), times.size()) << (exact ? "closed form" : "Runge-Kutta");
    for (std::size_t k = 0; k < times.size(); ++k) {
      // closed form: round-off; Runge–Kutta (rtol = atol = 1e-12, Baumgarte-held contact): 1e-9
      const double tol = exact ? 1e-12 : 1e-9;
      EXPECT_NEAR(rec.sections[k].t, times[k], tol) << k;
      EXPECT_NEAR(rec.sections[k].qd(1), (k % 2 == 0 ? 1.0 : -1.0) * A * w * std::sqrt(3.0) / 2.0,
                  tol)
          << k;
    }
  }
}

TEST(CrossingSection, SpinningRodInFlightCrossesAnAngleOnce) {
  // θ(t) = θ0 + ω t in free flight (no curvature: M₂ = 0): θ = 1 at t = (1 − θ0)/ω, once, upward;
  // the rod (half-length 1) starts 5 m above the floor and lands after t ≈ 0.9 s
  model::Surface s;
  LawChoice law;
  const auto m = model::make_rod(1.0, 1.0, kG, s, law);
  const InitialState init{0.0, {0.0, 5.0, 0.1}, {0.0, 0.0, 3.0}};
  for (const int direction : {0, 1, -1}) {
    SectionRecorder rec;
    (void)simulate(m, init, crossing(2, 1.0, direction, 0.5), &rec);
    ASSERT_EQ(rec.sections.size(), direction >= 0 ? 1U : 0U) << "direction " << direction;
    if (direction >= 0) {
      EXPECT_NEAR(rec.sections[0].t, 0.3, 1e-15);  // linear: exact to round-off
      EXPECT_NEAR(rec.sections[0].q(1), 5.0 - 0.5 * kG * 0.09, 1e-14);
    }
  }
}

TEST(CrossingSection, FlatRodCarriedByABeltCrossesWithTheBelt) {
  // a flat rod sticking at both ends on a belt u = U sin Ωt (UΩ = 1 m/s² < μg: no slip) moves
  // with it in closed form: x = x0 + (U/Ω)(1 − cos Ωt), so x = x0 + U/Ω is crossed upward at
  // Ωt = π/2 + 2πk and downward at 3π/2 + 2πk, with ẋ = U sin Ωt = ±U
  const double U = 0.5, W = 2.0;
  model::Surface s;
  s.belt_amplitude = U;
  s.belt_omega = W;
  LawChoice law;
  law.params.mu = 0.8;
  law.params.e = 0.5;
  const auto m = model::make_rod(1.0, 1.0, kG, s, law);
  const InitialState init{0.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  for (const bool exact : {true, false}) {
    SectionRecorder rec;
    SimulationOptions o = crossing(0, U / W, 0, 8.0);
    o.exact_contact = exact;
    const SimulationResult r = simulate(m, init, o, &rec);
    ASSERT_EQ(r.reason, StopReason::kEndTime);
    if (exact) {
      EXPECT_GE(r.carried_phases, 1);
      EXPECT_EQ(r.rk_steps, 0);
    }
    std::vector<double> times;
    for (int k = 0; k < 3; ++k) {
      for (const double phase : {kPi / 2.0, 3.0 * kPi / 2.0}) {
        const double t = (phase + 2.0 * kPi * k) / W;
        if (t <= 8.0) times.push_back(t);
      }
    }
    ASSERT_EQ(rec.sections.size(), times.size()) << (exact ? "closed form" : "Runge-Kutta");
    for (std::size_t k = 0; k < times.size(); ++k) {
      // closed form: round-off; Runge–Kutta (rtol = atol = 1e-12, Baumgarte-held contacts): 1e-9
      const double tol = exact ? 1e-12 : 1e-9;
      EXPECT_NEAR(rec.sections[k].t, times[k], tol) << k;
      EXPECT_NEAR(rec.sections[k].qd(0), k % 2 == 0 ? U : -U, tol) << k;
    }
  }
}

TEST(CrossingSection, BadInputNamesTheField) {
  const auto m = ball(0.5);
  const InitialState init{0.0, {0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}};
  const auto field_of = [&](const SimulationOptions& o) -> std::string {
    try {
      (void)simulate(m, init, o, nullptr);
    } catch (const InvalidArgument& e) {
      return e.field();
    }
    return "";
  };
  EXPECT_EQ(field_of(crossing(3, 0.0, 0, 1.0)), "crossing_coordinate");  // nq = 3
  EXPECT_EQ(field_of(crossing(-1, 0.0, 0, 1.0)), "crossing_coordinate");
  EXPECT_EQ(field_of(crossing(1, std::numeric_limits<double>::quiet_NaN(), 0, 1.0)),
            "crossing_value");
  EXPECT_EQ(field_of(crossing(1, 0.0, 2, 1.0)), "crossing_direction");
  EXPECT_EQ(field_of(crossing(1, 0.5, 1, 1.0)), "");  // valid
}

}  // namespace
}  // namespace clatter::hybrid
