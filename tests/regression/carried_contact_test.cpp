// Sustained contact in closed form (model::CarriedMotion, hybrid/run_carried.cpp; issue 13): a
// body riding or sticking on its moving line, with lift-off and slip onset located on the
// closed-form contact forces. Checked against
//  - closed forms: riding y = A sin ωt; lift-off where ḧ = −g, ωt = asin(g/(Aω²)) ([BP] §5.2 XIV,
//    spec/001_hybrid_scheme.md §6.4); slip onset of a flat rod on an oscillating belt where
//    |u̇| = μ g; a ball rolling uniformly;
//  - the independent route: the same runs with exact_contact = false (Runge–Kutta steps of the
//    constrained dynamics, hybrid/constrained_dynamics.hpp), event by event;
//  - the model's forces against constrained_dynamics at random carried states (property test).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

constexpr double kG = 9.81;
constexpr double kPi = std::numbers::pi;
constexpr double kEventTol = 1e-9;  // the engine's event-time tolerance in these tests [s]

model::PlanarBodyModel ball(double A, double w, double e, double R = 0.0, double mu = 0.0,
                            double u0 = 0.0) {
  model::Surface s;
  s.amplitude = A;
  s.omega = w;
  s.belt_velocity = u0;
  return model::make_ball(1.0, R, kG, s, {LawKind::kNewton, {mu, e}});
}

model::PlanarBodyModel rod(const model::Surface& s, double mu, double e) {
  return model::make_rod(1.0, 1.0, kG, s, {LawKind::kStronge, {mu, e}});
}

// the phase ωt ∈ [0, 2π) of t
double phase(double w, double t) { return std::fmod(w * t, 2.0 * kPi); }

// runs by both routes and checks the same events at the same times (to kEventTol)
struct BothRoutes {
  SimulationResult exact, rk;
  TrajectoryRecorder exact_rec, rk_rec;
  std::array<double, 2> worst{};  ///< largest |Δt| of other events, of chatter events
};

// Event times by the Runge–Kutta route carry its integration error (the state at lift-off to
// ~1e-11), which a chatter's ~80 bounces amplify: impacts and closures agree to ~3e-9, and the
// predicted accumulation points (computed from the closing bounce's velocity) to ~3e-8;
// lift-offs and slip onsets agree to kEventTol (3e-13 measured).
constexpr double kChatterTol = 5e-8;

// `symmetric`: a flat rod under the symmetric reduction, where the Runge–Kutta route's ~1e-16
// tilt makes its landings level the rod (a kSymmetric event) and names the other end first; those
// records are dropped and the contact index is not compared.
BothRoutes both_routes(const model::System& m, const InitialState& init, SimulationOptions o,
                       bool symmetric = false) {
  BothRoutes b;
  o.exact_contact = true;
  b.exact = simulate(m, init, o, &b.exact_rec);
  o.exact_contact = false;
  b.rk = simulate(m, init, o, &b.rk_rec);
  if (symmetric) {
    for (TrajectoryRecorder* r : {&b.exact_rec, &b.rk_rec})
      std::erase_if(r->events,
                    [](const EventRecord& e) { return e.kind == EventKind::kSymmetric; });
  }
  EXPECT_EQ(b.exact.reason, StopReason::kEndTime) << b.exact.message;
  EXPECT_EQ(b.rk.reason, StopReason::kEndTime) << b.rk.message;
  EXPECT_EQ(b.exact_rec.events.size(), b.rk_rec.events.size());
  const std::size_t n = std::min(b.exact_rec.events.size(), b.rk_rec.events.size());
  std::array<double, 2>& worst = b.worst;
  for (std::size_t k = 0; k < n; ++k) {
    const EventRecord& a = b.exact_rec.events[k];
    const EventRecord& r = b.rk_rec.events[k];
    EXPECT_EQ(a.kind, r.kind) << "event " << k << " at t = " << a.t;
    if (!symmetric) {
      EXPECT_EQ(a.contact, r.contact) << "event " << k;
    }
    const bool in_chatter = a.kind == EventKind::kImpact || a.kind == EventKind::kClosure ||
                            a.kind == EventKind::kChatterEnd;
    EXPECT_NEAR(a.t, r.t, in_chatter ? kChatterTol : kEventTol)
        << "event " << k << " (" << to_string(a.kind) << ")";
    worst[in_chatter ? 1 : 0] = std::max(worst[in_chatter ? 1 : 0], std::abs(a.t - r.t));
  }
  return b;
}

TEST(CarriedContact, BallRidesTheTableWithoutSteps) {
  // ω = 2.5 < √(g/A) = 3.132: λ_N = m(g − Aω² sin ωt) > 0 for ever, so one closed-form phase
  // covers 1000 s and its search stops at once (λ_N ≥ m(g − Aω²) > 0: an infinite safe step)
  const double A = 1.0, w = 2.5;
  SimulationOptions o;
  o.t_end = 1000.0;
  TrajectoryRecorder rec;
  const SimulationResult r =
      simulate(ball(A, w, 0.8), {0.0, {0.0, 0.0, 0.0}, {0.0, A * w, 0.0}}, o, &rec);
  ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
  EXPECT_EQ(rec.events.size(), 0u);
  EXPECT_EQ(r.rk_steps, 0);
  EXPECT_EQ(r.carried_phases, 1);
  EXPECT_LE(r.force_evaluations, 3);
  EXPECT_NEAR(r.q.y(), A * std::sin(w * 1000.0), 1e-12);
  EXPECT_NEAR(r.qd.y(), A * w * std::cos(w * 1000.0), 1e-12);
  EXPECT_NEAR(r.energy.balance(), 0.0, 1e-12);
}

TEST(CarriedContact, ChatterRideAndLiftOffEveryPeriodAtTheClosedFormPhase) {
  // ω = 3.2, A = 1, e = 0.9: each period the ball lifts off where ḧ = −g, flies, chatters back
  // onto the table (a predicted accumulation point) and rides it until the next lift-off
  const double A = 1.0, w = 3.2, e = 0.9;
  const double lift_phase = std::asin(kG / (A * w * w));
  SimulationOptions o;
  o.t_end = 100.0;
  const model::PlanarBodyModel m = ball(A, w, e);
  const BothRoutes b = both_routes(m, {0.0, {0.0, 0.0, 0.0}, {0.0, A * w, 0.0}}, o);
  int lift_offs = 0;
  int chatter_ends = 0;
  for (const EventRecord& ev : b.exact_rec.events) {
    if (ev.kind == EventKind::kChatterEnd) ++chatter_ends;
    if (ev.kind != EventKind::kLiftOff) continue;
    ++lift_offs;
    const double dt = (phase(w, ev.t) - lift_phase) / w;
    EXPECT_NEAR(dt, 0.0, kEventTol) << "lift-off at t = " << ev.t;
  }
  EXPECT_GE(lift_offs, 45);  // one per forcing period 2π/ω = 1.96 s
  EXPECT_GE(chatter_ends, 45);
  // no Runge–Kutta step while the ball is on the table: the only steps are the few after each
  // lift-off, while the gap is still below its tolerance (a released contact)
  EXPECT_LE(b.exact.rk_steps, 3 * lift_offs);
  RecordProperty("rk_steps_closed_form", static_cast<int>(b.exact.rk_steps));
  RecordProperty("rk_steps_runge_kutta", static_cast<int>(b.rk.rk_steps));
  RecordProperty("carried_phases", static_cast<int>(b.exact.carried_phases));
  std::printf(
      "ball chatter-ride-lift-off, 100 s: Runge-Kutta steps %ld (closed form) vs %ld; "
      "largest |dt| against the Runge-Kutta route %.2e (lift-offs), %.2e (chatter)\n",
      b.exact.rk_steps, b.rk.rk_steps, b.worst[0], b.worst[1]);
  EXPECT_NEAR(b.exact.energy.balance(), 0.0, 1e-9 * (1.0 + std::abs(b.exact.energy.surface_work)));
}

TEST(CarriedContact, FlatRodLiftsOffAtBothEndsTogether) {
  // [BP] Fig. 8(a)'s rod (e* = 0.9, μ = 0.05) flat on the table at ω = 3.2, symmetric reduction:
  // both ends leave together at the closed-form phase, in both routes
  model::Surface s;
  s.amplitude = 1.0;
  s.omega = 3.2;
  const model::PlanarBodyModel m = rod(s, 0.05, 0.9);
  SimulationOptions o;
  o.t_end = 60.0;
  o.two_contact = TwoContactRule::kSymmetric;
  const BothRoutes b = both_routes(m, {0.0, {0.0, 0.0, 0.0}, {0.0, 3.2, 0.0}}, o, true);
  const double lift_phase = std::asin(kG / (3.2 * 3.2));
  int lift_offs = 0;
  for (const EventRecord& ev : b.exact_rec.events) {
    if (ev.kind != EventKind::kLiftOff) continue;
    ++lift_offs;
    EXPECT_NEAR((phase(3.2, ev.t) - lift_phase) / 3.2, 0.0, kEventTol);
  }
  EXPECT_GE(lift_offs, 2 * 28);  // P1 and P2 every period
  EXPECT_LE(b.exact.rk_steps, 3 * lift_offs);
}

TEST(CarriedContact, FlatRodOnAnOscillatingBeltSlipsWhereTheConeIsReached) {
  // belt u = U sin Ωt, no vertical motion: sticking flat, the rod moves with the belt and needs
  // λ_T,1 + λ_T,2 = m u̇ (shared equally, the minimum-norm forces), λ_N,i = m g/2; both ends slip
  // when |u̇| = U Ω |cos Ωt| reaches μ g, i.e. from Ωt₀ = π/2 at Ωt = acos(−μg/(UΩ))
  model::Surface s;
  s.belt_amplitude = 1.0;
  s.belt_omega = 2.0;
  const double mu = 0.1;
  const model::PlanarBodyModel m = rod(s, mu, 0.5);
  const double t0 = 0.5 * kPi / 2.0;
  InitialState init{t0, {0.0, 0.0, 0.0}, {s.u(t0), 0.0, 0.0}};
  init.closed[0] = init.closed[1] = true;
  SimulationOptions o;
  o.t_end = t0 + 1.5;
  const BothRoutes b = both_routes(m, init, o);
  const double t_slip = std::acos(-mu * kG / (1.0 * 2.0)) / 2.0;
  ASSERT_GE(b.exact_rec.events.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    const EventRecord& ev = b.exact_rec.events[static_cast<std::size_t>(k)];
    EXPECT_EQ(ev.kind, EventKind::kSlipOnset);
    EXPECT_NEAR(ev.t, t_slip, kEventTol);
  }
}

TEST(CarriedContact, BallRollsUniformlyOnAMovingTable) {
  // a ball (R = 0.1) rolling without slip on a table that oscillates (ω < √(g/A)) and moves as a
  // belt at u₀: v_T = ẋ + Rω − u₀ = 0 and u̇ = 0 give λ_T = 0, so x and the spin are uniform
  const double A = 0.5, w = 3.0, R = 0.1, u0 = 0.5;
  const model::PlanarBodyModel m = ball(A, w, 0.5, R, 0.4, u0);
  const double xd = 1.0;
  const InitialState init{0.0, {0.0, R, 0.0}, {xd, A * w, (u0 - xd) / R}};
  SimulationOptions o;
  o.t_end = 20.0;
  const BothRoutes b = both_routes(m, init, o);
  EXPECT_EQ(b.exact.rk_steps, 0);
  EXPECT_NEAR(b.exact.q.x(), xd * 20.0, 1e-12);
  EXPECT_NEAR(b.exact.q.z(), (u0 - xd) / R * 20.0, 1e-11);
  EXPECT_NEAR(b.exact.q.y(), R + A * std::sin(w * 20.0), 1e-12);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(b.exact.q(i), b.rk.q(i), 1e-8);
    EXPECT_NEAR(b.exact.qd(i), b.rk.qd(i), 1e-8);
  }
}

TEST(CarriedContact, ForcesAndBoundsAgreeWithTheConstrainedDynamics) {
  // random flat rods and blocks sticking on random moving tables and belts: the model's carried
  // state keeps the sticking contacts on their constraints (g_N = 0, v = 0), its acceleration and
  // forces are those of constrained_dynamics (the minimum-norm λ, the Runge–Kutta route's
  // right-hand side), and its bounds hold along the motion
  std::mt19937_64 gen(20261126);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    model::Surface s;
    s.amplitude = 2.0 * U(gen) - 1.0;
    s.omega = 4.0 * U(gen);
    s.phase = 6.0 * U(gen);
    s.belt_velocity = 2.0 * U(gen) - 1.0;
    s.belt_amplitude = 2.0 * U(gen) - 1.0;
    s.belt_omega = 4.0 * U(gen);
    s.belt_phase = 6.0 * U(gen);
    const bool block = trial % 2 == 1;
    // a block's two corners carry unequal normal forces on an accelerating belt, where the engine
    // shares the tangential force in proportion to them and the minimum-norm forces do not: that
    // carriage is declined (checked below); on a belt at constant speed λ_T ≡ 0
    const double U_belt = s.belt_amplitude;
    if (block) s.belt_amplitude = 0.0;
    const LawChoice law{LawKind::kStronge, {0.5, 0.5}};
    const model::PlanarBodyModel m = block ? model::make_block(1.3, 0.7, 0.4, kG, s, law)
                                           : model::make_rod(0.8, 1.2, kG, s, law);
    const model::CarriedMotion* carried = m.carried_motion();
    ASSERT_NE(carried, nullptr);
    // resting on its lowest features (the rod's two ends, the block's bottom corners), flat
    const double t0 = 10.0 * U(gen);
    const double y0 = s.h(t0) + (block ? 0.4 : 0.0);
    const model::VecQ q0 = Vec3(0.3, y0, 0.0);
    const model::VecQ qd0 = Vec3(s.u(t0), s.hdot(t0), 0.0);
    model::CarriedMotion::Contacts stick{};
    Modes modes{};
    modes.fill(ContactMode::kOpen);
    const int n_stick = 2;
    for (int c = 0; c < n_stick; ++c) {
      stick[static_cast<std::size_t>(c)] = true;
      modes[static_cast<std::size_t>(c)] = ContactMode::kStick;
    }
    ASSERT_TRUE(carried->carries(stick, t0, q0, qd0));
    if (block && U_belt != 0.0) {
      model::Surface accelerating = s;
      accelerating.belt_amplitude = U_belt;
      const model::PlanarBodyModel b2 = model::make_block(1.3, 0.7, 0.4, kG, accelerating, law);
      EXPECT_FALSE(b2.carried_motion()->carries(stick, t0, q0, qd0));
    }
    // one sticking end alone lets the body pivot: not offered
    model::CarriedMotion::Contacts one = stick;
    one[1] = false;
    EXPECT_FALSE(carried->carries(one, t0, q0, qd0));
    const Stabilization none{0.0, 0.0};
    for (int k = 0; k < 5; ++k) {
      const double tau = 3.0 * U(gen);
      model::VecQ q, qd;
      carried->carry(stick, t0, q0, qd0, tau, q, qd);
      std::array<Vec2, kMaxContacts> lambda{}, rate{};
      carried->carried_forces(stick, t0, q0, qd0, tau, lambda, rate);
      const ConstrainedDynamics cd = constrained_dynamics(m, t0 + tau, q, qd, modes, none);
      for (int c = 0; c < n_stick; ++c) {
        const auto i = static_cast<std::size_t>(c);
        EXPECT_NEAR(cd.kin(c).g_N, 0.0, 1e-12);
        EXPECT_NEAR(cd.kin(c).v.norm(), 0.0, 1e-12);
        // of λ_T only the sum is unique (the rows J_T of the two ends are equal); where the
        // model offers the motion its shares are constrained_dynamics' (in proportion to λ_N)
        EXPECT_NEAR(lambda[i].x(), cd.lambda[i].x(), 1e-9 * (1.0 + cd.lambda[i].norm()));
        EXPECT_NEAR(lambda[i].y(), cd.lambda[i].y(), 1e-9 * (1.0 + cd.lambda[i].norm()));
        // the rate against a central difference of the forces
        const double h = 1e-5;
        std::array<Vec2, kMaxContacts> lp{}, lm{}, r2{};
        carried->carried_forces(stick, t0, q0, qd0, tau + h, lp, r2);
        carried->carried_forces(stick, t0, q0, qd0, tau - h, lm, r2);
        const Vec2 fd = (lp[i] - lm[i]) / (2.0 * h);
        EXPECT_NEAR((rate[i] - fd).norm(), 0.0, 1e-6 * (1.0 + rate[i].norm()));
        // the bounds of a cone margin μλ_N − λ_T: the value above `lower`, the second
        // difference within `curvature`
        const Vec2 w{-1.0, 0.5};
        double M2 = 0.0, lower = 0.0;
        carried->carried_force_bounds(stick, t0, q0, qd0, c, w, M2, lower);
        EXPECT_GE(w.dot(lambda[i]), lower - 1e-12);
        const double second = w.dot(lp[i] - 2.0 * lambda[i] + lm[i]) / (h * h);
        EXPECT_LE(std::abs(second), M2 * (1.0 + 1e-3) + 1e-3);
      }
      for (int i = 0; i < 3; ++i) {
        const double h = 1e-6;
        model::VecQ qp, qdp, qm, qdm;
        carried->carry(stick, t0, q0, qd0, tau + h, qp, qdp);
        carried->carry(stick, t0, q0, qd0, tau - h, qm, qdm);
        EXPECT_NEAR((qdp(i) - qdm(i)) / (2.0 * h), cd.qdd(i), 1e-6 * (1.0 + std::abs(cd.qdd(i))));
        EXPECT_NEAR((qp(i) - qm(i)) / (2.0 * h), qd(i), 1e-7 * (1.0 + std::abs(qd(i))));
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 1000);
}

}  // namespace
}  // namespace clatter::hybrid
