// Periodic orbits of any model by shooting on the engine's flow (analysis/shooting.hpp), with the
// monodromy two independent ways: central differences of the flow, and variational equations with
// saltation matrices (analysis/variational.hpp). References: the closed form of the ball's
// period-n orbits ([B] §6.3 [DERIVED], spec/000_thesis.md §6.3: Γ cos φ = nπ(1 − e)/(1 + e),
// v = gπn/ω, det DP = e², tr DP = 1 + e² − (1 + e)² Γ sin φ), and the closed form of the
// stick-slip cycle of a block on a belt (derived in the test).

#include "clatter/analysis/shooting.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>

#include <cmath>
#include <memory>
#include <numbers>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/core/error.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "clatter/model/spring_block_belt.hpp"

namespace clatter::analysis {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;

std::shared_ptr<const model::System> ball(double e, double omega) {
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = omega;
  return std::make_shared<model::PlanarBodyModel>(
      model::make_ball(1.0, 0.0, kG, s, {LawKind::kNewton, {0.0, e}}));
}

// the ball's state at the phase φ_s = φ + π of its closed-form period-n orbit (mid-flight)
struct BallSection {
  PeriodicProblem problem;
  Eigen::VectorXd exact;  // (y, ẏ) at the section
};

BallSection ball_section(double e, double omega, int n, bool stable) {
  const ClosedFormOrbit cf = closed_form_orbit(1.0, omega, kG, e, n);
  EXPECT_TRUE(cf.exists);
  const ImpactState z = stable ? cf.stable : cf.unstable;
  const double tau = kPi / omega;  // half a forcing period after the impact
  const double y = std::sin(z.phase) + z.velocity * tau - 0.5 * kG * tau * tau;
  const double yd = z.velocity - kG * tau;
  OrbitSection sec;
  sec.frequency = "surface.omega";
  sec.phase = z.phase + kPi;
  sec.periods = n;
  StateVector ref = StateVector::Zero(6);
  ref(1) = y;
  ref(4) = yd;
  BallSection b{
      make_periodic_problem(ball(e, omega), hybrid::SimulationOptions{}, sec, {1, 4}, ref),
      Eigen::Vector2d(y, yd)};
  return b;
}

TEST(Shooting, BallOrbitsMatchTheClosedForm) {
  // stable and unstable period-1 orbits, and a period-2 (n = 2) one, from guesses 2 % off
  struct Case {
    double e, omega;
    int n;
    bool stable;
  };
  for (const Case c : {Case{0.9, 3.0, 1, true}, Case{0.9, 3.0, 1, false}, Case{0.5, 3.5, 1, true},
                       Case{0.8, 3.2, 2, true}}) {
    SCOPED_TRACE(::testing::Message() << "e " << c.e << " omega " << c.omega << " n " << c.n
                                      << (c.stable ? " stable" : " unstable"));
    const BallSection b = ball_section(c.e, c.omega, c.n, c.stable);
    const Orbit o = find_orbit(b.problem, *b.problem.model, 1.02 * b.exact);
    ASSERT_TRUE(o.converged) << o.message;
    EXPECT_NEAR(o.u(0), b.exact(0), 1e-9);
    EXPECT_NEAR(o.u(1), b.exact(1), 1e-9);
    EXPECT_NEAR(o.period, 2.0 * kPi * c.n / c.omega, 1e-12);
    const ClosedFormOrbit cf = closed_form_orbit(1.0, c.omega, kG, c.e, c.n);
    // the stroboscopic map is conjugate to the impact map: same det and trace
    EXPECT_NEAR(o.DP.determinant(), c.e * c.e, 1e-7);
    if (c.stable) {
      EXPECT_NEAR(o.DP.trace(), cf.trace_stable, 1e-7);
    }
    EXPECT_EQ(o.stable, c.stable);
  }
}

TEST(Shooting, VariationalMonodromyEqualsDifferencesOnTheBall) {
  // the bar: the multipliers of the two routes agree to 1e-6
  const BallSection b = ball_section(0.9, 3.0, 1, true);
  Orbit o = find_orbit(b.problem, *b.problem.model, b.exact);
  ASSERT_TRUE(o.converged) << o.message;
  Eigen::MatrixXd Mv;
  const VariationalMonodromy v = monodromy_variational(b.problem, *b.problem.model, o.u, Mv);
  ASSERT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.events.size(), 1U);
  EXPECT_LT((Mv - o.monodromy).cwiseAbs().maxCoeff(), 1e-6) << Mv << "\n\n" << o.monodromy;
  const auto lv = multipliers_of(Mv);
  for (std::size_t i = 0; i < lv.size(); ++i) EXPECT_LT(std::abs(lv[i] - o.multipliers[i]), 1e-6);
}

TEST(Shooting, RejectsBadProblems) {
  const auto m = ball(0.9, 3.0);
  OrbitSection sec;
  StateVector ref = StateVector::Zero(6);
  ref(1) = 1.0;
  EXPECT_THROW((void)make_periodic_problem(m, {}, sec, {}, ref), InvalidArgument);
  EXPECT_THROW((void)make_periodic_problem(m, {}, sec, {1, 9}, ref), InvalidArgument);
  sec.frequency = "no_such_parameter";
  EXPECT_THROW((void)make_periodic_problem(m, {}, sec, {1}, ref), InvalidArgument);
  sec.frequency = "surface.omega";
  sec.periods = 0;
  EXPECT_THROW((void)make_periodic_problem(m, {}, sec, {1}, ref), InvalidArgument);
  try {
    (void)state_index(*m, "zdot", "solved");
    ADD_FAILURE();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "solved");
  }
  EXPECT_EQ(state_index(*m, "ydot", "solved"), 4);
}

}  // namespace
}  // namespace clatter::analysis

namespace clatter::analysis {
namespace {

// The example's oscillator (m = 1 kg, k = 10 N/m, belt 0.5 m/s, μ_s = 0.4 > μ_d = 0.3) and its
// closed form: ω₀ = √(k/m), sticking up to x_s = μ_s m g/k, slipping about x_d = μ_d m g/k
struct StickSlip {
  model::SpringBlockBeltParameters bp;
  model::Contact contact;
  std::shared_ptr<const model::SpringBlockBelt> model;
  double w0, xs, xd, delta;
};

StickSlip stick_slip() {
  StickSlip s{};
  s.bp.mass = 1.0;
  s.bp.stiffness = 10.0;
  s.bp.belt_velocity = 0.5;
  s.contact = model::Contact::with_law("bottom", {LawKind::kNewton, {0.3, 0.0}});
  s.contact.mu_s = 0.4;
  s.contact.mu_d = 0.3;
  s.model = std::make_shared<model::SpringBlockBelt>(s.bp, s.contact);
  s.w0 = std::sqrt(s.bp.stiffness / s.bp.mass);
  s.xs = s.contact.mu_s * s.bp.mass * kG / s.bp.stiffness;
  s.xd = s.contact.mu_d * s.bp.mass * kG / s.bp.stiffness;
  s.delta = s.xs - s.xd;
  return s;
}

// The stick-slip oscillator (model/spring_block_belt.hpp, examples/stick_slip_oscillator.toml):
// the closed-form cycle of its header, found by shooting on an autonomous section in the slip
// phase; its monodromy by variational equations and saltation matrices (stick and slip onset:
// sustained contact) against differences of the flow; one multiplier, 0 (the stick phase
// forgets the state).
TEST(Shooting, StickSlipOscillatorCycle) {
  const StickSlip ss = stick_slip();
  const model::SpringBlockBeltParameters& bp = ss.bp;
  const auto& m = ss.model;
  const double w0 = ss.w0, xd = ss.xd, delta = ss.delta;
  const double amplitude = std::hypot(delta, bp.belt_velocity / w0);
  const double T = (kPi + 2.0 * std::atan(bp.belt_velocity / (w0 * delta))) / w0 +
                   2.0 * delta / bp.belt_velocity;
  // the section x = x_d − A/2, crossed downwards in the slip phase
  const double x_sec = xd - 0.5 * amplitude;
  const double xdot = -w0 * std::sqrt(amplitude * amplitude - 0.25 * amplitude * amplitude);
  OrbitSection sec;
  sec.kind = OrbitSectionKind::kAutonomous;
  sec.anchor = 0;  // x
  StateVector ref = StateVector::Zero(4);
  ref(0) = x_sec;
  ref(2) = 0.9 * xdot;
  std::array<bool, model::kMaxContacts> closed{};
  closed[0] = true;
  const PeriodicProblem p =
      make_periodic_problem(m, hybrid::SimulationOptions{}, sec, {2}, ref, closed);
  const Orbit o = find_orbit(p, *m, unknowns_of(p, ref, 1.05 * T));
  ASSERT_TRUE(o.converged) << o.message;
  EXPECT_NEAR(o.u(0), xdot, 1e-8);
  EXPECT_NEAR(o.period, T, 1e-8);
  ASSERT_EQ(o.multipliers.size(), 1U);
  EXPECT_LT(std::abs(o.multipliers[0]), 1e-6);
  int sticks = 0, onsets = 0;
  for (const hybrid::EventRecord& e : o.events) {
    sticks += e.kind == hybrid::EventKind::kStick ? 1 : 0;
    onsets += e.kind == hybrid::EventKind::kSlipOnset ? 1 : 0;
  }
  EXPECT_EQ(sticks, 1);
  EXPECT_EQ(onsets, 1);

  Eigen::MatrixXd Mv;
  const VariationalMonodromy v = monodromy_variational(p, *m, o.u, Mv);
  ASSERT_TRUE(v.ok) << v.message;
  EXPECT_EQ(v.events.size(), 2U);
  EXPECT_LT((Mv - o.monodromy).cwiseAbs().maxCoeff(), 1e-6) << Mv << "\n\n" << o.monodromy;
  // the monodromy is not trivial: the stick phase maps every perturbation onto the flow
  // direction (rank 1), so M = f(x₀) wᵀ for some w ≠ 0
  EXPECT_GT(Mv.cwiseAbs().maxCoeff(), 0.1);
  EXPECT_LT(std::abs(Mv.determinant()), 1e-6);
}

// An autonomous section the orbits stop crossing. The section x = 0.40 lies above the sticking
// range (x_s = 0.3924 m): only the slip phase reaches it, an oscillation about x_d of amplitude
// A(v) = √(δ² + (v/ω₀)²), whose top x_d + A passes 0.40 only for belt speeds above
//   v* = ω₀ √((0.40 − x_d)² − δ²) = 0.12446 m/s   (δ = x_s − x_d; the header's closed form).
// Continued down from v = 0.5, the branch must end there (not turn back onto the other crossing
// of the same orbits); and at the slip equilibrium x = x_d, ẋ = 0 (on the section x = x_d) Newton's
// residual vanishes for every period, which must not be taken for an orbit.
TEST(Shooting, AnAutonomousSectionTheOrbitsStopCrossingEndsTheBranch) {
  const StickSlip ss = stick_slip();
  const model::SpringBlockBeltParameters& bp = ss.bp;
  const auto& m = ss.model;
  const double w0 = ss.w0, xd = ss.xd, delta = ss.delta;
  const double x_sec = 0.40;
  const double v_star = w0 * std::sqrt((x_sec - xd) * (x_sec - xd) - delta * delta);
  const double amplitude = std::hypot(delta, bp.belt_velocity / w0);
  const double T = (kPi + 2.0 * std::atan(bp.belt_velocity / (w0 * delta))) / w0 +
                   2.0 * delta / bp.belt_velocity;
  OrbitSection sec;
  sec.kind = OrbitSectionKind::kAutonomous;
  sec.anchor = 0;  // x
  StateVector ref = StateVector::Zero(4);
  ref(0) = x_sec;  // crossed upwards in the slip phase: ẋ = ω₀ √(A² − (x − x_d)²)
  ref(2) = w0 * std::sqrt(amplitude * amplitude - (x_sec - xd) * (x_sec - xd));
  std::array<bool, model::kMaxContacts> closed{};
  closed[0] = true;
  const PeriodicProblem p =
      make_periodic_problem(m, hybrid::SimulationOptions{}, sec, {2}, ref, closed);
  const Orbit o = find_orbit(p, *m, unknowns_of(p, ref, T));
  ASSERT_TRUE(o.converged) << o.message;
  EXPECT_NEAR(o.period, T, 1e-8);
  OrbitBranchOptions bo;
  bo.parameter = "belt_velocity";
  bo.p_min = 0.01;
  bo.p_max = 0.6;
  bo.direction = -1;
  bo.ds = 0.005;
  bo.ds_max = 0.02;
  const OrbitBranch b = continue_orbits(p, o, bo);
  EXPECT_EQ(b.end, OrbitBranchEnd::kSectionTangency) << b.message;
  ASSERT_GE(b.points.size(), 2U);
  double p_lowest = b.points.front().p;
  for (const OrbitPoint& pt : b.points) {
    p_lowest = std::min(p_lowest, pt.p);
    EXPECT_GT(pt.section_rate, 0.0) << "p = " << pt.p;  // every point crosses upwards
  }
  EXPECT_GT(p_lowest, v_star);
  EXPECT_LT(p_lowest - v_star, 0.02) << "v* = " << v_star;  // within the largest step
  EXPECT_NE(b.message.find("stop crossing the section"), std::string::npos) << b.message;

  // the equilibrium on its own section
  StateVector eq = StateVector::Zero(4);
  eq(0) = xd;
  OrbitSection at_eq = sec;
  const PeriodicProblem pe =
      make_periodic_problem(m, hybrid::SimulationOptions{}, at_eq, {2}, eq, closed);
  const Orbit oe = find_orbit(pe, *m, unknowns_of(pe, eq, 2.0));
  EXPECT_FALSE(oe.converged);
  EXPECT_NE(oe.message.find("does not cross the section"), std::string::npos) << oe.message;
}

}  // namespace
}  // namespace clatter::analysis

namespace clatter::analysis {
namespace {

TEST(Shooting, MultipleShootingEqualsTheClosedForm) {
  // the ball's stable period-1 (e* = 0.9, ω = 3) and n = 3 (e* = 0.9, ω = 3) orbits by K = 3
  // and K = 5 segments: the section state to 1e-9 of the closed form, det M = e² and tr M to 1e-7
  // ([B] §6.3 [DERIVED]), as single shooting
  struct Case {
    int n, K;
  };
  for (const Case c : {Case{1, 3}, Case{3, 5}}) {
    SCOPED_TRACE(::testing::Message() << "n " << c.n << " K " << c.K);
    const BallSection b = ball_section(0.9, 3.0, c.n, true);
    const Orbit o = find_orbit_multiple(b.problem, *b.problem.model, 1.01 * b.exact, c.K);
    ASSERT_TRUE(o.converged) << o.message;
    EXPECT_NEAR(o.u(0), b.exact(0), 1e-9);
    EXPECT_NEAR(o.u(1), b.exact(1), 1e-9);
    const ClosedFormOrbit cf = closed_form_orbit(1.0, 3.0, kG, 0.9, c.n);
    EXPECT_NEAR(o.DP.determinant(), 0.81, 1e-7);
    EXPECT_NEAR(o.DP.trace(), cf.trace_stable, 1e-7);
    EXPECT_TRUE(o.stable);
  }
  const BallSection b = ball_section(0.9, 3.0, 1, true);
  EXPECT_THROW((void)find_orbit_multiple(b.problem, *b.problem.model, b.exact, 0), InvalidArgument);
}

TEST(Shooting, AFailedFlowSaysWhichFromWhenAndTheEnginesReason) {
  // issue 25 item 5: multiple shooting and continuation say which flow failed, from and to what
  // time, and the engine's stop reason (here max_events = 1: the ball's impact ends every flow)
  BallSection b = ball_section(0.9, 3.0, 1, true);
  const Orbit start = find_orbit(b.problem, *b.problem.model, b.exact);
  ASSERT_TRUE(start.converged) << start.message;
  PeriodicProblem bad = b.problem;
  bad.options.max_events = 1;
  const Orbit multi = find_orbit_multiple(bad, *bad.model, b.exact, 2);
  EXPECT_FALSE(multi.converged);
  EXPECT_NE(multi.message.find("the segment from t = "), std::string::npos) << multi.message;
  EXPECT_NE(multi.message.find("(max_events)"), std::string::npos) << multi.message;
  OrbitBranchOptions o;
  o.parameter = "surface.omega";
  o.p_min = 2.9;
  o.p_max = 3.1;
  const OrbitBranch branch = continue_orbits(bad, start, o);
  EXPECT_EQ(branch.end, OrbitBranchEnd::kStepTooSmall);
  EXPECT_NE(branch.message.find("the flow failed at the start: at p = 3, the flow from t = "),
            std::string::npos)
      << branch.message;
  EXPECT_NE(branch.message.find("(max_events)"), std::string::npos) << branch.message;
}

}  // namespace
}  // namespace clatter::analysis
