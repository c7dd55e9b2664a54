// The stroboscopic section and the periodic shortcut of sweeps (analysis/section_observer.hpp,
// parameter_sweep.hpp).
//  - The acceptance rule on sequences whose limit is known: z_k = z* + c ρ^k closes only once
//    |z_k − z*| ≤ 2 tol (the rule predicts the motion still to come as d r/(1 − r)), and an exact
//    cycle of 3 closes at the first window that can show it.
//  - The ball on the table h = A sin ωt, whose stable period-1 orbit is known in closed form
//    ([B] §6.3 [DERIVED]; analysis/impact_oscillator.hpp): the shortcut's apex heights equal the
//    closed form and the brute-force run to the tolerance, after far fewer periods.
//  - [BP] Fig. 8(a)'s rod (e* = 0.9, μ = 0.05, A = 1) hopping at ω = 3.14: each period it lands,
//    chatters, rides the table and lifts off at sin ωt = g/(Aω²), so its state after lift-off
//    is a function of the phase alone and the cycle closes at once (superstable).
//  - A run whose cycle never closes is the brute-force run bit for bit (the stroboscopic samples
//    do not touch the motion).

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <utility>
#include <vector>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/analysis/section_observer.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

hybrid::Sample state(double t, double y, double v) {
  hybrid::Sample s;
  s.t = t;
  s.q = model::VecQ::Constant(2, 0.0);
  s.qd = model::VecQ::Constant(2, 0.0);
  s.q(0) = y;
  s.qd(0) = v;
  return s;
}

ResolvedObservable strobe_y() {
  ResolvedObservable w;
  w.section = SectionKind::kStroboscopic;
  w.kind = ResolvedObservable::Kind::kCoordinate;
  w.index = 0;
  return w;
}

// Feeds z_k = z* + c ρ^k (y* = 2, v* = −1) at t = k until the cycle closes; returns k.
long close_geometric(double rho, double tol, int& cycle, double& error) {
  SectionObserver o(strobe_y(), 1e9, 2.0 * kPi, nullptr, nullptr, {tol, 64});
  for (long k = 0; k < 100000; ++k) {
    const double d = std::pow(rho, static_cast<double>(k));
    o.on_sample(state(static_cast<double>(k), 2.0 + 0.3 * d, -1.0 - 0.2 * d));
    if (o.cycle() > 0) {
      cycle = o.cycle();
      error = 0.3 * std::abs(d) / 2.0;  // |y_k − y*| relative to |y*| = 2: the larger component
      return k;
    }
  }
  cycle = 0;
  return -1;
}

TEST(PeriodicShortcut, ClosesOnAGeometricApproachOnlyWithinTheTolerance) {
  for (const double rho : {0.5, 0.9, -0.5, -0.99, 0.999}) {
    int cycle = 0;
    double error = 0.0;
    const long k = close_geometric(rho, 1e-10, cycle, error);
    ASSERT_GT(k, 0) << "rho = " << rho;
    EXPECT_LE(error, 2e-10) << "rho = " << rho << ", closed at k = " << k << ", p = " << cycle;
    // and not much later than needed: one step earlier the state was still > tol/2 away, or the
    // rule could not yet see the rate
    const double before = 0.3 * std::pow(std::abs(rho), static_cast<double>(k - 1)) / 2.0;
    EXPECT_TRUE(before > 0.5e-10 * (1.0 - std::abs(rho)) || k <= 3 * cycle)
        << "rho = " << rho << " closed late at k = " << k;
  }
}

TEST(PeriodicShortcut, AnExactCycleOfThreeClosesAndRepeatsToTheEnd) {
  // y cycles 1, 2, 3 with t = k (T = 1); record from t = 10, end at N = 20
  SectionObserver o(strobe_y(), 10.0, 2.0 * kPi, nullptr, nullptr, {1e-10, 64});
  long k = 0;
  for (; k < 20 && o.cycle() == 0; ++k)
    o.on_sample(state(static_cast<double>(k), 1.0 + static_cast<double>(k % 3), 0.0));
  ASSERT_EQ(o.cycle(), 3);
  // z₅ = z₂, z₄ = z₁, z₃ = z₀ is the first window of 2p states; cycles longer than 2 are looked
  // for at every 8th stroboscopic time
  EXPECT_EQ(o.closed_at(), 8);
  EXPECT_FALSE(o.keep_going());
  // what the run might still report after t₅ is ignored
  o.on_sample(state(6.0, 99.0, 0.0));
  double t = 0.0;
  model::VecQ q, qd;
  model::VecA aux;
  o.extend(20.0, 20, t, q, qd, aux);
  ASSERT_EQ(o.values.size(), 11u);  // t = 10 … 20, both ends, as the run samples them
  for (std::size_t i = 0; i < o.values.size(); ++i)
    EXPECT_EQ(o.values[i], 1.0 + static_cast<double>((10 + i) % 3)) << "t = " << 10 + i;
  EXPECT_EQ(t, 20.0);
  EXPECT_EQ(q(0), 1.0 + 20 % 3);
}

model::PlanarBodyModel ball(double e, double omega = 3.0, double A = 1.0) {
  model::Surface s;
  s.amplitude = A;
  s.omega = omega;
  return model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}});
}

// At rest at the apex height of the closed-form orbit at ω, displaced by dy, 0.1 s late (so that
// the apexes do not fall on the stroboscopic times t₀ + kT, which bound the record): the chain
// converges to each ω's orbit geometrically.
hybrid::InitialState near_orbit(double omega, double e, double dy) {
  const ClosedFormOrbit c = closed_form_orbit(1.0, omega, kG, e, 1);
  return {(c.stable.phase + kPi) / omega + 0.1,
          {0.0, std::sin(c.stable.phase) + kG * kPi * kPi / (2.0 * omega * omega) + dy, 0.0},
          {0.0, 0.0, 0.0}};
}

TEST(PeriodicShortcut, BallOnTheTableGivesTheClosedFormApexAfterFewerPeriods) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 2.6, 3.0, 5}});
  sw.carry = CarryOver::kUp;
  sw.transient_periods = 600.0;
  sw.record_periods = 50.0;
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> start{near_orbit(2.6, 0.8, 0.05)};
  const SweepOutcome full = run_sweep(m, start, {}, sw, {});
  sw.periodic.tol = 1e-10;
  const SweepOutcome cut = run_sweep(m, start, {}, sw, {});
  ASSERT_EQ(cut.records.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    const SweepRecord& a = full.records[i];
    const SweepRecord& b = cut.records[i];
    const double omega = sw.grid.value(b.point, 0);
    const ClosedFormOrbit c = closed_form_orbit(1.0, omega, kG, 0.8, 1);
    ASSERT_TRUE(c.exists && omega > c.omega_sn && omega < c.omega_pd);
    const double apex = std::sin(c.stable.phase) + kG * kPi * kPi / (2.0 * omega * omega);
    EXPECT_EQ(a.cycle, 0);
    EXPECT_GE(b.cycle, 1) << "omega = " << omega;
    EXPECT_LT(b.closed_at, 400) << "omega = " << omega;
    EXPECT_LT(b.events, a.events / 2) << "omega = " << omega;
    EXPECT_EQ(b.reason, hybrid::StopReason::kEndTime);
    EXPECT_EQ(b.distinct, 1);
    ASSERT_EQ(b.values.size(), a.values.size()) << "omega = " << omega;
    EXPECT_EQ(b.impacts, a.impacts);
    for (std::size_t j = 0; j < b.values.size(); ++j) {
      EXPECT_NEAR(b.values[j], apex, 1e-8) << "omega = " << omega;
      EXPECT_NEAR(b.values[j], a.values[j], 3e-10 * std::abs(apex)) << "omega = " << omega;
    }
    // the final state a carry-over would pass on, at the same time
    EXPECT_EQ(b.t, a.t);
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(b.q(j), a.q(j), 1e-8) << "omega = " << omega;
      EXPECT_NEAR(b.qd(j), a.qd(j), 1e-8) << "omega = " << omega;
    }
  }
}

TEST(PeriodicShortcut, ARunThatNeverClosesIsTheBruteForceRunBitForBit) {
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 2.6, 3.0, 3}});
  sw.transient_periods = 20.0;  // too short to converge to 1e-12 from 0.3 m off the orbit
  sw.record_periods = 10.0;
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> start{near_orbit(2.6, 0.8, 0.3)};
  const SweepOutcome full = run_sweep(m, start, {}, sw, {});
  sw.periodic.tol = 1e-12;
  const SweepOutcome cut = run_sweep(m, start, {}, sw, {});
  ASSERT_EQ(cut.records.size(), full.records.size());
  for (std::size_t i = 0; i < cut.records.size(); ++i) {
    const SweepRecord& a = full.records[i];
    const SweepRecord& b = cut.records[i];
    EXPECT_EQ(b.cycle, 0);
    EXPECT_EQ(b.values, a.values);
    EXPECT_EQ(b.impacts, a.impacts);
    EXPECT_EQ(b.events, a.events);
    EXPECT_EQ(b.t, a.t);
    EXPECT_EQ(b.q, a.q);
    EXPECT_EQ(b.qd, a.qd);
  }
}

// [BP] Fig. 8(a)'s rod, carried over from resting at ω = 3.1 (Aω² < g) to hopping at 3.14 and
// 3.15: the stroboscopic height repeats to round-off, so the cycle (1 period) closes within the
// first periods and the shortcut's values equal the brute-force run's to 1e-12.
TEST(PeriodicShortcut, TheHoppingRodClosesAtOnce) {
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = 3.1;
  const model::PlanarBodyModel m =
      model::make_rod(1.0, 1.0, kG, s, {LawKind::kStronge, {0.05, 0.9}});
  hybrid::SimulationOptions o;
  o.two_contact = hybrid::TwoContactRule::kSymmetric;
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.1, 3.15, 6}});
  sw.carry = CarryOver::kUp;
  sw.observe = {SectionKind::kStroboscopic, "y", -1};
  sw.transient_periods = 200.0;
  sw.record_periods = 20.0;
  const double t0 = 0.3;  // resting on the table: y = A sin ωt, ẏ = Aω cos ωt
  const std::vector<hybrid::InitialState> start{
      {t0, {0.0, std::sin(3.1 * t0), 0.0}, {0.0, 3.1 * std::cos(3.1 * t0), 0.0}}};
  const SweepOutcome full = run_sweep(m, start, o, sw, {});
  sw.periodic.tol = 1e-10;
  const SweepOutcome cut = run_sweep(m, start, o, sw, {});
  ASSERT_EQ(cut.records.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const SweepRecord& a = full.records[i];
    const SweepRecord& b = cut.records[i];
    const double omega = sw.grid.value(b.point, 0);
    ASSERT_TRUE(a.error.empty() && b.error.empty()) << a.error << b.error;
    EXPECT_EQ(b.cycle, 1) << "omega = " << omega;
    EXPECT_LE(b.closed_at, 3) << "omega = " << omega;
    ASSERT_EQ(b.values.size(), 21u);
    ASSERT_EQ(a.values.size(), 21u);
    for (std::size_t j = 0; j < 21; ++j) EXPECT_NEAR(b.values[j], a.values[j], 1e-12);
    if (omega > 3.135) {  // Aω² > g: it hops, with a chatter every period
      EXPECT_GT(b.impacts_per_period, 10.0) << "omega = " << omega;
      // the number of bounces resolved before the chatter's accumulation point is summed is
      // decided by round-off at t ≈ 400 (the test's error estimate is near its 1e-12 s floor),
      // so it is not compared with the brute-force run's
    } else {
      EXPECT_EQ(b.impacts, 0) << "omega = " << omega;  // resting
      EXPECT_EQ(a.impacts, 0) << "omega = " << omega;
      // resting on the table: the stroboscopic height is A sin ωt₀′ (t₀′ the carried phase)
    }
  }
}

// The stroboscopic section of a ball resting on A sin ωt (Aω² = 4 < g): at t₀ + kT the height is
// A sin ωt₀, for the record_periods + 1 times t₀ + kT in [t_record, t_end].
TEST(StroboscopicSection, RestingBallIsAtTheStartPhaseEveryPeriod) {
  const double omega = 2.0, t0 = 0.3;
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", omega, omega, 1}});
  sw.observe = {SectionKind::kStroboscopic, "y", -1};
  sw.transient_periods = 100.0;
  sw.record_periods = 30.0;
  const std::vector<hybrid::InitialState> start{
      {t0, {0.0, std::sin(omega * t0), 0.0}, {0.0, omega * std::cos(omega * t0), 0.0}}};
  for (const double tol : {0.0, 1e-10}) {
    sw.periodic.tol = tol;
    const SweepOutcome out = run_sweep(ball(0.8, omega), start, {}, sw, {});
    ASSERT_EQ(out.records.size(), 1u);
    const SweepRecord& r = out.records[0];
    ASSERT_EQ(r.values.size(), 31u) << "tol = " << tol;
    for (const double y : r.values) EXPECT_NEAR(y, std::sin(omega * t0), 1e-11);
    EXPECT_EQ(r.distinct, 1);
    EXPECT_EQ(r.cycle, tol > 0.0 ? 1 : 0);
    EXPECT_NEAR(r.t, t0 + 130.0 * 2.0 * kPi / omega, 1e-9);
  }
}

TEST(PeriodicShortcut, ValidationNamesTheField) {
  const model::PlanarBodyModel m = ball(0.8);
  const std::vector<hybrid::InitialState> starts{{0.0, {0.0, 3.0, 0.0}, {0.0, 0.0, 0.0}}};
  ParameterSweep sw;
  sw.grid = SweepGrid({{"surface.omega", 3.0, 4.0, 3}});
  const auto field = [&](const ParameterSweep& s) -> std::string {
    try {
      validate(s, m, starts, {});
    } catch (const InvalidArgument& e) {
      return e.field();
    }
    return "";
  };
  EXPECT_EQ(field(sw), "");
  ParameterSweep bad = sw;
  bad.periodic.tol = 2e-3;
  EXPECT_EQ(field(bad), "periodic_tol");
  bad.periodic.tol = -1e-9;
  EXPECT_EQ(field(bad), "periodic_tol");
  bad = sw;
  bad.periodic.max_cycle = 0;
  EXPECT_EQ(field(bad), "periodic_max_cycle");
  bad.periodic.max_cycle = 65;
  EXPECT_EQ(field(bad), "periodic_max_cycle");
  bad = sw;
  bad.observe = {SectionKind::kStroboscopic, "phase", -1};  // phase only on the impact section
  EXPECT_EQ(field(bad), "observe");
}

// The stability check (section_observer.hpp). A ball started exactly on an UNSTABLE period-1 orbit
// of the closed form ([B] §6.3 [DERIVED]; analysis/impact_oscillator.hpp), at its apex: the
// states repeat to round-off for as long as round-off takes to grow, so without the check the
// shortcut takes the cycle at once, while the brute-force run leaves the orbit after some tens of
// periods. With the check the cycle is refused and the run gives what the brute-force run gives.
//  - ω = 3.3, e = 0.9: past the period doubling (ω_PD ≈ 3.158), the sin φ > 0 branch has the
//    multipliers ≈ −1.67 and −0.49 (tr DP = 1 + e² − (1 + e)² Γ sin φ, det DP = e²);
//  - ω = 3.0, e = 0.9: the saddle branch (sin φ < 0), one multiplier above 1; the run leaves it
//    (from this start, to rest on the table: Aω² < g).
TEST(PeriodicShortcut, StabilityCheckRefusesAnUnstableOrbitHeldToRoundOff) {
  for (const bool saddle : {false, true}) {
    const double omega = saddle ? 3.0 : 3.3;
    const double e = 0.9;
    const ClosedFormOrbit c = closed_form_orbit(1.0, omega, kG, e, 1);
    ASSERT_TRUE(c.exists);
    const ImpactState z = saddle ? c.unstable : c.stable;
    if (!saddle) {
      ASSERT_GT(omega, c.omega_pd);
      ASSERT_LT(c.trace_stable, -1.0 - c.determinant);  // a multiplier below −1
    }
    // on the orbit's flight 0.1 s after its apex (half a period after the impact), so that the
    // apexes do not fall on the stroboscopic times that bound the cycle's window
    const double apex = std::sin(z.phase) + kG * kPi * kPi / (2.0 * omega * omega);
    const double s0 = 0.1;
    const std::vector<hybrid::InitialState> start{{(z.phase + kPi) / omega + s0,
                                                   {0.0, apex - 0.5 * kG * s0 * s0, 0.0},
                                                   {0.0, -kG * s0, 0.0}}};
    ParameterSweep sw;
    sw.grid = SweepGrid({{"surface.omega", omega, omega, 1}});
    sw.transient_periods = 300.0;
    sw.record_periods = 40.0;
    const model::PlanarBodyModel m = ball(e, omega);
    const SweepRecord full = run_sweep(m, start, {}, sw, {}).records.at(0);
    sw.periodic.tol = 1e-10;
    const SweepRecord checked = run_sweep(m, start, {}, sw, {}).records.at(0);
    sw.periodic.check_stability = false;
    const SweepRecord unchecked = run_sweep(m, start, {}, sw, {}).records.at(0);
    ASSERT_TRUE(full.error.empty() && checked.error.empty() && unchecked.error.empty());
    // the brute-force run left the orbit: its recorded apexes are not the unstable orbit's (or
    // there are none: from the saddle at Aω² < g the ball may fall back to rest on the table)
    EXPECT_TRUE(full.values.empty() || std::abs(full.values.back() - apex) > 1e-3)
        << "saddle = " << saddle;
    // without the check: the cycle of the unstable orbit, taken within a few periods
    EXPECT_EQ(unchecked.cycle, 1) << "saddle = " << saddle;
    EXPECT_LE(unchecked.closed_at, 5) << "saddle = " << saddle;
    ASSERT_EQ(unchecked.values.size(), 40u) << "saddle = " << saddle;  // one apex a period
    for (const double y : unchecked.values) EXPECT_NEAR(y, apex, 1e-9) << "saddle = " << saddle;
    // with it: what the brute-force run records (to the tolerance if a later, stable cycle was
    // taken; bit for bit if none was)
    EXPECT_TRUE(checked.cycle == 0 || checked.closed_at > 20) << "saddle = " << saddle;
    EXPECT_EQ(checked.distinct, full.distinct) << "saddle = " << saddle;
    ASSERT_EQ(checked.values.size(), full.values.size());
    for (std::size_t j = 0; j < full.values.size(); ++j)
      EXPECT_NEAR(checked.values[j], full.values[j], 1e-8 * std::abs(full.values[j]))
          << "saddle = " << saddle << ", j = " << j;
  }
}

// The check's rule on replays whose deviation is known, D_j = D₀ f(j) from the perturbed start:
//  - f = 0.5^j: wiped out (≤ 10⁻³ ε) within the replay: the cycle is taken at its first chance;
//  - f = (1 + j/4) 0.93^j, alternating ×1, ×0.3 (a weakly damped oscillation whose envelope first
//    grows, peaking at j ≈ 10): taken when the last h = 8 periods fall below the earlier peak;
//  - f = 1.3^j: growing, refused once above 10² ε;
//  - f = 1.01^j, alternating: growing too slowly for that, refused at the end of the replay.
// Refusals back off (quiet spans of 16, 32, 64, 128 periods): 200 periods of an exact cycle cost 4
// replays, and no cycle is ever taken.
TEST(PeriodicShortcut, StabilityCheckRuleAndBackOff) {
  const std::vector<std::pair<bool, std::function<double(int)>>> cases{
      {true, [](int j) { return std::pow(0.5, j); }},
      {true, [](int j) { return (1.0 + j / 4.0) * std::pow(0.93, j) * (j % 2 ? 1.0 : 0.3); }},
      {false, [](int j) { return std::pow(1.3, j); }},
      {false, [](int j) { return std::pow(1.01, j) * (j % 2 ? 1.0 : 0.3); }}};
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const auto& [stable, f] = cases[n];
    int replays = 0;
    const Replay replay = [&](const hybrid::InitialState& start, int periods,
                              const std::function<bool(int, const hybrid::Sample&)>& at) {
      ++replays;
      EXPECT_EQ(periods, 32);
      for (int j = 1; j <= periods; ++j) {
        hybrid::Sample s = state(start.t + j, 2.0, -1.0);
        s.qd(0) += (start.qd(0) + 1.0) * f(j);  // the perturbation, scaled
        if (!at(j, s)) break;
      }
      return true;
    };
    SectionObserver o(strobe_y(), 1e9, 2.0 * kPi, nullptr, nullptr, {1e-10, 64, true}, replay);
    for (long k = 0; k < 200 && o.cycle() == 0; ++k)
      o.on_sample(state(static_cast<double>(k), 2.0, -1.0));
    if (stable) {
      EXPECT_EQ(o.cycle(), 1) << "case " << n;
      EXPECT_EQ(o.closed_at(), 1) << "case " << n;
      EXPECT_EQ(o.checks(), 1) << "case " << n;
      EXPECT_EQ(o.refusals(), 0) << "case " << n;
    } else {
      EXPECT_EQ(o.cycle(), 0) << "case " << n;
      EXPECT_EQ(o.checks(), 4) << "case " << n;  // at k = 1, 17, 49, 113
      EXPECT_EQ(o.refusals(), 4) << "case " << n;
    }
    EXPECT_EQ(replays, o.checks()) << "case " << n;
  }
}

}  // namespace
}  // namespace clatter::analysis
