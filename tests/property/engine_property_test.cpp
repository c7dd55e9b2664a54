// Property test of the hybrid engine over random scenarios (fixed seed): rods, blocks and balls
// on surfaces that oscillate vertically and/or as a belt, with random laws, friction, restitution,
// two-contact rules and chatter policies. Every run must reach its end time (no Zeno stop, no
// exhausted event budget, no exception; a Painlevé stop only with a large μ), the energy ledger
// must balance, no collision of an
// energetic (Stronge) contact may gain energy, every impulse must lie in the Coulomb cone, and the
// closed contacts must stay on the surface.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/trajectory_recorder.hpp"
#include "clatter/model/planar_body_model.hpp"

namespace clatter::hybrid {
namespace {

TEST(EngineProperty, RandomScenariosRunCleanly) {
  std::mt19937_64 rng(20261123);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  constexpr int kRuns = 60;
  int stronge_collisions = 0;
  for (int i = 0; i < kRuns; ++i) {
    model::Surface s;
    s.amplitude = U(rng) < 0.3 ? 0.0 : 0.2 + U(rng);
    s.omega = 1.0 + 5.0 * U(rng);
    s.phase = 6.28 * U(rng);
    if (U(rng) < 0.2) {
      s.belt_amplitude = U(rng);
      s.belt_omega = 1.0 + 5.0 * U(rng);
    }
    const double pick = U(rng);
    const LawKind law = pick < 0.7    ? LawKind::kStronge
                        : pick < 0.85 ? LawKind::kNewton
                                      : LawKind::kPoisson;
    const double mu = 2.0 * U(rng) * U(rng);
    const LawChoice lc{law, {mu, U(rng)}};
    std::optional<model::PlanarBodyModel> m;
    switch (i % 4) {
      case 0:
        m = model::make_rod(1.0, 1.0, 9.81, s, lc);
        break;
      case 1:
        m = model::make_block(1.0, 0.3 + U(rng), 0.2 + U(rng), 9.81, s, lc);
        break;
      case 2:
        m = model::make_ball(1.0, 0.5 * U(rng), 9.81, s, lc);
        break;
      default:
        m = model::make_rod(1.0, 0.5 + U(rng), 9.81, s, lc);
    }
    SimulationOptions o;
    o.t_end = 15.0;
    o.max_events = 100000;
    o.two_contact = static_cast<TwoContactRule>(static_cast<int>(3.0 * U(rng)));
    if (U(rng) < 0.3) o.chatter = ChatterPolicy::kCutoff;
    const InitialState init{0.0,
                            {0.0, 2.5 + 2.0 * U(rng), 6.28 * U(rng)},
                            {2.0 * U(rng) - 1.0, 2.0 * U(rng) - 1.0, 4.0 * U(rng) - 2.0}};
    TrajectoryRecorder rec;
    const SimulationResult r = simulate(*m, init, o, &rec);
    SCOPED_TRACE("run " + std::to_string(i));
    // the only early stop allowed is a genuine Painlevé situation (k_N ≤ 0 in sliding), which
    // needs a large friction coefficient (the rod: μ > 4/3)
    if (r.reason == StopReason::kPainleve) {
      EXPECT_GT(mu, 0.5) << r.message;
    } else {
      ASSERT_EQ(r.reason, StopReason::kEndTime) << r.message;
    }
    const double E =
        1.0 + std::abs(r.energy.initial) + r.energy.impact_loss + std::abs(r.energy.surface_work);
    EXPECT_LE(std::abs(r.energy.balance()), 1e-8 * E);
    EXPECT_LE(r.max_gap_drift, 1e-8);
    EXPECT_LE(r.max_velocity_drift, 1e-7);
    // per collision (the records of one instant): energy and the Coulomb cone
    double t_prev = -1.0;
    double dE = 0.0;
    for (const EventRecord& ev : rec.events) {
      if (ev.kind != EventKind::kImpact && ev.kind != EventKind::kClosure) continue;
      EXPECT_LE(std::abs(ev.Lambda.x()), mu * std::abs(ev.Lambda.y()) * (1.0 + 1e-9) + 1e-12);
      if (ev.t != t_prev) {
        if (law == LawKind::kStronge) {
          EXPECT_LE(dE, 1e-9 * E) << "collision at t = " << t_prev;
          ++stronge_collisions;
        }
        dE = 0.0;
      }
      t_prev = ev.t;
      dE += ev.delta_energy;
    }
    if (law == LawKind::kStronge) {
      EXPECT_LE(dE, 1e-9 * E);
    }
  }
  EXPECT_GT(stronge_collisions, 500);
}

TEST(EngineProperty, PainleveResolvedByImpactsWithoutCollision) {
  // rods and blocks with large friction (μ ∈ [1.4, 3], Stronge's law) under the policy
  // kImpactWithoutCollision: jammed sliding contacts take an impulse instead of stopping the run
  // (laws/impact_without_collision.hpp); every such event opens the contact, keeps the Coulomb
  // cone and loses energy, and the ledgers balance
  std::mt19937_64 rng(777);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  int resolved = 0, runs_with = 0;
  for (int i = 0; i < 40; ++i) {
    model::Surface s;
    s.amplitude = U(rng) < 0.5 ? 0.0 : 0.05 + 0.2 * U(rng);
    s.omega = 1.0 + 4.0 * U(rng);
    const double mu = 1.4 + 1.6 * U(rng);
    const LawChoice lc{LawKind::kStronge, {mu, U(rng)}};
    const model::PlanarBodyModel m =
        i % 3 == 2 ? model::make_block(1.0, 0.2 + 0.3 * U(rng), 0.6 + U(rng), 9.81, s, lc)
                   : model::make_rod(1.0, 1.0, 9.81, s, lc);
    SimulationOptions o;
    o.t_end = 4.0;
    o.max_events = 100000;
    o.painleve = PainlevePolicy::kImpactWithoutCollision;
    // the lowest contact on the surface, sliding: a tilt near the rod's jam angle atan 2
    const double tilt = (U(rng) < 0.5 ? 1.0 : -1.0) * (0.7 + 0.8 * U(rng));
    Vec3 q{0.0, 3.0, tilt}, qd{3.0 * U(rng) - 1.5, 0.0, 2.0 * U(rng) - 1.0};
    int low = 0;
    for (int c = 1; c < m.num_contacts(); ++c)
      if (m.contact(c, 0.0, q, qd).g_N < m.contact(low, 0.0, q, qd).g_N) low = c;
    q.y() -= m.contact(low, 0.0, q, qd).g_N;
    const model::ContactKinematics k = m.contact(low, 0.0, q, qd);
    qd.y() += s.hdot(0.0) - k.J.row(1).dot(qd);  // v_N = 0 relative to the surface
    const InitialState init{0.0, q, qd};
    TrajectoryRecorder rec;
    const SimulationResult r = simulate(m, init, o, &rec);
    SCOPED_TRACE("run " + std::to_string(i) + ": " + r.message);
    // a stop remains only where the policy cannot act (two closed contacts, k_N = 0)
    EXPECT_TRUE(r.reason == StopReason::kEndTime || r.reason == StopReason::kPainleve);
    const double E =
        1.0 + std::abs(r.energy.initial) + r.energy.impact_loss + std::abs(r.energy.surface_work);
    EXPECT_LE(std::abs(r.energy.balance()), 1e-8 * E);
    int here = 0;
    for (const EventRecord& ev : rec.events) {
      if (ev.kind != EventKind::kImpactWithoutCollision) continue;
      ++here;
      EXPECT_EQ(ev.v_pre.y(), 0.0);
      EXPECT_GT(ev.v_post.y(), 0.0);
      EXPECT_EQ(ev.v_post.x(), 0.0);  // always ends in stick
      EXPECT_LE(std::abs(ev.Lambda.x()), mu * ev.Lambda.y() * (1.0 + 1e-12));
      EXPECT_LE(ev.delta_energy, 1e-12);
    }
    resolved += here;
    runs_with += here > 0 ? 1 : 0;
  }
  EXPECT_GE(runs_with, 3);  // the sample does reach the jam
  RecordProperty("impacts_without_collision", resolved);
}

}  // namespace
}  // namespace clatter::hybrid
