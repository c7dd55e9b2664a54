// Newton's cradle over time through the engine (model kind "pendulum_chain",
// model/pendulum_chain.hpp; issue 8; [R] Rodriguez 2014 §6.3, Table 6.4, App. D;
// spec/004_multibody.md Ex. 3, 3b and §9).
//
// The balls of [R]: L = 0.30 m, R = 0.05 m, pivots 2R apart (touching at rest), solid spheres
// (I = mL² + 0.4mR², the m_eff = 1.0111m of the digest), frictionless, e* global. Ball A is
// released from rest at the angle that gives the table's impact speed v₁⁻ (energy: I q̇² / 2 =
// m g L (1 − cos θ₀)). The frictionless multi-point law is homogeneous of degree one in the
// incoming velocity, so the table's post-impact centre speeds scale with v₁⁻; [R]'s closed form
// (digest Ex. 3: each event a two-body Stronge impact between the first and the last ball still
// touching, v_first' = v(1 − e)/2, v_last' = v(1 + e)/2) reproduces every row of Table 6.4.
//
// Tolerances: the engine's impact is the multi-point solver in closed form, so the collision
// matches the closed form to 1e-9 of v₁⁻; the table prints 3 decimals (±5e-4 m/s). The impact
// speed follows from energy through a Runge–Kutta flight at tolerance 1e-12 (1e-8 relative).
// Swing heights: the largest angle of each ball after the collision, from the samples refined by
// a parabola through the three samples around the largest (error O(dt³) ≈ 1e-12 rad at dt = 1e-4
// s), against cos θ_max = 1 − I q̇⁺²/(2 m g L), to 1e-7 rad.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/pendulum_chain.hpp"
#include "clatter/model/registry.hpp"
#include "clatter/multipoint/bodies.hpp"
#include "clatter/multipoint/collision.hpp"
#include "clatter/multipoint/multipoint_input.hpp"

namespace clatter::model {
namespace {

using hybrid::EventKind;
using hybrid::EventRecord;

constexpr double kL = 0.30;
constexpr double kR = 0.05;
constexpr double kG = 9.81;

struct Log final : hybrid::Recorder {
  void on_event(const EventRecord& e) override { events.push_back(e); }
  void on_sample(const hybrid::Sample& s) override { samples.push_back(s); }
  std::vector<EventRecord> events;
  std::vector<hybrid::Sample> samples;
};

PendulumChain cradle(int n, double m, double e) {
  LawChoice law;
  law.kind = LawKind::kStronge;
  law.params.e = e;
  law.params.mu = 0.0;
  return PendulumChain(
      PendulumChain::touching_row(std::vector<double>(n, m), std::vector<double>(n, kR),
                                  std::vector<double>(n, kL)),
      kG, 0.4, law);
}

// release angle (A pulled back, θ < 0) giving centre speed v at the bottom
double release_angle(double v) {
  const double I_over_m = kL * kL + 0.4 * kR * kR;
  return -std::acos(1.0 - I_over_m * (v / kL) * (v / kL) / (2.0 * kG * kL));
}

double max_angle_from_energy(double qd) {
  const double I_over_m = kL * kL + 0.4 * kR * kR;
  return std::acos(1.0 - I_over_m * qd * qd / (2.0 * kG * kL));
}

struct Run {
  Log log;
  hybrid::SimulationResult result;
  /// The first collision as one record: its first row's time and q̇ before, and the q̇ after of
  /// its last row at that instant (events.csv has a row per contact and impact event; the rows
  /// in between hold the intermediate states, docs/engine.md).
  const EventRecord* first_impact{nullptr};
  EventRecord collision;
  std::vector<const EventRecord*> collision_rows;  ///< every impact row of that instant
};

std::unique_ptr<Run> release(const PendulumChain& model, double v1, double t_end) {
  auto run = std::make_unique<Run>();
  const int n = model.nq();
  VecQ q = VecQ::Zero(n);
  q(0) = release_angle(v1);
  hybrid::SimulationOptions o;
  o.t_end = t_end;
  o.output_dt = 1e-4;
  o.max_dt = 1e-3;
  run->result = hybrid::simulate(model, hybrid::InitialState(0.0, q, VecQ::Zero(n)), o, &run->log);
  for (const EventRecord& e : run->log.events) {
    if (run->first_impact == nullptr && e.kind == EventKind::kImpact) {
      run->collision = e;
      run->first_impact = &run->collision;
    }
    if (run->first_impact == nullptr || e.t != run->collision.t) continue;
    run->collision.qd_post = e.qd_post;
    if (e.kind == EventKind::kImpact) run->collision_rows.push_back(&e);
  }
  return run;
}

// largest angle of ball i over samples in (t0, t1), refined by a parabola through its neighbours
double largest_angle(const Log& log, int i, double t0, double t1) {
  std::size_t best = 0;
  double best_q = -1e300;
  for (std::size_t k = 1; k + 1 < log.samples.size(); ++k) {
    const hybrid::Sample& s = log.samples[k];
    if (s.t <= t0 || s.t >= t1) continue;
    if (s.q(i) > best_q) {
      best_q = s.q(i);
      best = k;
    }
  }
  const double a = log.samples[best - 1].q(i);
  const double b = log.samples[best].q(i);
  const double c = log.samples[best + 1].q(i);
  const double den = a - 2.0 * b + c;
  return den < 0.0 ? b - 0.125 * (c - a) * (c - a) / den : b;
}

// the next impact of any contact after t0
double next_impact(const Log& log, double t0) {
  for (const EventRecord& e : log.events)
    if (e.kind == EventKind::kImpact && e.t > t0 + 1e-9) return e.t;
  return 1e300;
}

// --- conformance: J against differences of the gap and of the material points, γ against
// differences of J q̇ (an uneven chain at a general configuration) ---
TEST(PendulumChain, JacobianAndGammaMatchFiniteDifferences) {
  std::vector<PendulumBall> balls = {
      {0.2, 0.04, 0.35, 0.0}, {0.5, 0.06, 0.30, 0.11}, {0.3, 0.05, 0.25, 0.215}};
  LawChoice law;
  const PendulumChain m(balls, kG, 0.4, law);
  VecQ q(3), qd(3);
  q << 0.31, -0.12, 0.45;
  qd << 1.7, -2.3, 0.9;
  const double h = 1e-6;
  for (int c = 0; c < m.num_contacts(); ++c) {
    ContactGeometry g;
    m.contact_geometry(c, 0.0, q, qd, g);
    EXPECT_NEAR(g.v.y(), g.J.row(1).dot(qd), 1e-15);
    for (int k = 0; k < 3; ++k) {
      VecQ qp = q, qm = q;
      qp(k) += h;
      qm(k) -= h;
      ContactGeometry gp, gm;
      m.contact_geometry(c, 0.0, qp, qd, gp);
      m.contact_geometry(c, 0.0, qm, qd, gm);
      EXPECT_NEAR(g.J(1, k), (gp.g_N - gm.g_N) / (2.0 * h), 1e-8) << "J_N, contact " << c;
    }
    // material points: ball i's point at +r_i n̂ and ball j's at −r_j n̂, carried by the balls'
    // rotations (each ball turns with its string) along q(τ) = q + τ q̇
    const int i = c, j = c + 1;
    const Vec2 n = (m.centre(j, q) - m.centre(i, q)).normalized();
    const Vec2 t(-n.y(), n.x());
    const auto point = [&](int b, double sgn, double tau) {
      const VecQ qt = q + tau * qd;
      const double a = tau * qd(b);
      const Vec2 r = sgn * m.ball(b).radius * n;
      const Vec2 rr(std::cos(a) * r.x() - std::sin(a) * r.y(),
                    std::sin(a) * r.x() + std::cos(a) * r.y());
      return Vec2(m.centre(b, qt) + rr);
    };
    const Vec2 vi = (point(i, 1.0, h) - point(i, 1.0, -h)) / (2.0 * h);
    const Vec2 vj = (point(j, -1.0, h) - point(j, -1.0, -h)) / (2.0 * h);
    EXPECT_NEAR(g.v.x(), t.dot(vj - vi), 1e-8) << "v_T, contact " << c;
    EXPECT_NEAR(g.v.y(), n.dot(vj - vi), 1e-8) << "v_N, contact " << c;
    // γ = d(J q̇)/dt − J q̈ along q(τ) = q + τ q̇ with q̈ = 0
    ContactGeometry gp, gm;
    m.contact_geometry(c, 0.0, VecQ(q + h * qd), qd, gp);
    m.contact_geometry(c, 0.0, VecQ(q - h * qd), qd, gm);
    const Vec2 dv = (gp.v - gm.v) / (2.0 * h);
    EXPECT_NEAR(g.gamma.x(), dv.x(), 1e-6 * (1.0 + std::abs(dv.x()))) << "gamma_T " << c;
    EXPECT_NEAR(g.gamma.y(), dv.y(), 1e-6 * (1.0 + std::abs(dv.y()))) << "gamma_N " << c;
  }
  // M symmetric positive definite and the energy: T = ½ Σ I q̇², dV/dq = −f
  const MatQ M = m.mass_matrix(0.0, q);
  EXPECT_TRUE(M.isApprox(M.transpose()));
  EXPECT_GT(M.diagonal().minCoeff(), 0.0);
  for (int k = 0; k < 3; ++k) {
    VecQ qp = q, qm = q;
    qp(k) += h;
    qm(k) -= h;
    const double dV = (m.potential_energy(0.0, qp) - m.potential_energy(0.0, qm)) / (2.0 * h);
    EXPECT_NEAR(-dV, m.applied_forces(0.0, q, qd, VecA())(k), 1e-7);
  }
}

// at rest and touching the model's multi-point input is the library's cradle (bodies.hpp)
TEST(PendulumChain, MultipointInputAtRestIsTheLibrarysCradle) {
  const PendulumChain m = cradle(5, 1.0, 1.0);
  std::array<bool, kMaxContacts> active{};
  for (int c = 0; c < 4; ++c) active[static_cast<std::size_t>(c)] = true;
  multipoint::Input in;
  VecQ s;
  ASSERT_TRUE(m.multipoint_input(0.0, VecQ::Zero(5), active, in, s));
  multipoint::Cradle p;
  p.masses = std::vector<double>(5, 1.0);
  const multipoint::Input lib = multipoint::cradle(p);
  EXPECT_TRUE(in.M.isApprox(lib.M, 1e-15));
  EXPECT_TRUE(in.J.isApprox(lib.J, 1e-15));
  ASSERT_EQ(in.body_points.size(), lib.body_points.size());
  for (std::size_t k = 0; k < in.body_points.size(); ++k) {
    EXPECT_EQ(in.body_points[k].body, lib.body_points[k].body);
    EXPECT_EQ(in.body_points[k].contact, lib.body_points[k].contact);
    EXPECT_EQ(in.body_points[k].side, lib.body_points[k].side);
    EXPECT_TRUE(in.body_points[k].r_G.isApprox(lib.body_points[k].r_G, 1e-15));
  }
  EXPECT_TRUE(s.isZero());
}

// [R] Table 6.4 / §6.3 Case 1: m = 1 kg, e* = 1, v₁⁻ = 1.304 m/s (q̇₁⁻ = 4.347 rad/s): one
// event, q̇⁺ = (0, 0, 4.347): A and B stop, C leaves with A's speed and swings to A's release angle
TEST(CradleEngine, ThreeBallsElasticTable64Case1) {
  const double v1 = 1.304;
  const PendulumChain model = cradle(3, 1.0, 1.0);
  const auto run = release(model, v1, 0.6);
  ASSERT_NE(run->first_impact, nullptr);
  const EventRecord& e = *run->first_impact;
  // impact speed from energy (Runge–Kutta flight)
  EXPECT_NEAR(kL * e.qd_pre(0), v1, 1e-8 * v1);
  EXPECT_NEAR(e.qd_pre(0), 4.347, 5e-4);  // Table 6.4 case 1, printed q̇₁⁻
  const double w = e.qd_pre(0);
  EXPECT_NEAR(e.qd_post(0), 0.0, 1e-9 * w);
  EXPECT_NEAR(e.qd_post(1), 0.0, 1e-9 * w);
  EXPECT_NEAR(e.qd_post(2), w, 1e-9 * w);
  EXPECT_NEAR(e.qd_post(2), 4.347, 5e-4);  // Table 6.4 case 1, printed q̇₃⁺
  // C swings to the release angle, before anything touches again
  const double t_next = next_impact(run->log, e.t);
  const double th_C = largest_angle(run->log, 2, e.t, t_next);
  EXPECT_NEAR(th_C, max_angle_from_energy(e.qd_post(2)), 1e-7);
  EXPECT_NEAR(th_C, -release_angle(v1), 1e-7);
  EXPECT_EQ(run->result.reason, hybrid::StopReason::kEndTime) << run->result.message;
  // e* = 1 and no friction: no loss; the ledger balances and the energy is conserved
  EXPECT_LE(std::abs(run->result.energy.balance()), 1e-9);
  EXPECT_NEAR(run->result.energy.total(), run->result.energy.initial, 1e-8);
}

// [R] Table 6.4 row "This work, e* = 0.85": m = 0.166 kg, v₁⁻ = 1.0 m/s, two events (A–B–C, then
// A–B): centre speeds (0.006, 0.069, 0.925); closed form (0.005625, 0.069375, 0.925)
TEST(CradleEngine, ThreeBallsTable64Case2) {
  const double v1 = 1.0;
  const double e_star = 0.85;
  const PendulumChain model = cradle(3, 0.166, e_star);
  const auto run = release(model, v1, 0.6);
  ASSERT_NE(run->first_impact, nullptr);
  const EventRecord& e = *run->first_impact;
  const double v = kL * e.qd_pre(0);
  EXPECT_NEAR(v, v1, 1e-8 * v1);
  const double v_first = v * (1.0 - e_star) / 2.0;  // after event 1 (A–B–C)
  const double closed[3] = {v_first * (1.0 - e_star) / 2.0, v_first * (1.0 + e_star) / 2.0,
                            v * (1.0 + e_star) / 2.0};
  const double table[3] = {0.006, 0.069, 0.925};  // Table 6.4, v₁⁻ = 1.0 m/s
  // the rows: event 1 (A–B–C: AB and BC) leaves (v(1 − e*)/2, 0, v(1 + e*)/2), event 2 (AB) the
  // closed form above
  ASSERT_EQ(run->collision_rows.size(), 3u);
  const double after_first[3] = {v_first, 0.0, v * (1.0 + e_star) / 2.0};
  for (int k = 0; k < 3; ++k) {
    const EventRecord& row = *run->collision_rows[static_cast<std::size_t>(k)];
    EXPECT_EQ(row.contact, k < 2 ? k : 0);  // AB, BC, then AB
    for (int i = 0; i < 3; ++i) {
      const double want = k < 2 ? after_first[i] : closed[i];
      EXPECT_NEAR(kL * row.qd_post(i), want, 1e-9 * v) << "row " << k << " ball " << i;
    }
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(kL * e.qd_post(i), closed[i], 1e-9 * v) << "ball " << i;
    EXPECT_NEAR(kL * e.qd_post(i) / v, table[i], 5e-4) << "ball " << i;
  }
  // Σ m q̇⁺² of the table is printed as 0.143 "N·m" (14–15 % above experiment): with centre
  // speeds, Σ m v⁺² = 0.166 (0.0056² + 0.0694² + 0.925²) = 0.1428
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) sum += 0.166 * std::pow(kL * e.qd_post(i), 2);
  EXPECT_NEAR(sum, 0.143, 5e-4);
  // every ball swings to the height its post-collision speed gives (they separate: q̇_A⁺ < q̇_B⁺ <
  // q̇_C⁺, and meet again only after the apexes)
  const double t_next = next_impact(run->log, e.t);
  for (int i = 0; i < 3; ++i) {
    const double th = largest_angle(run->log, i, e.t, t_next);
    EXPECT_NEAR(th, max_angle_from_energy(e.qd_post(i)), 1e-7) << "ball " << i;
  }
}

// [R] App. D Case 2: five balls, m = 1 kg, e* = 0.8, v₁⁻ = 1.304 m/s, four events A–E, A–D,
// A–C, A–B; the digest's closed form: contact-point (centre) speeds (0.00013, 0.00117, 0.0117,
// 0.117, 1.174) m/s (App. D gives no numbers, only the ordering q̇₁⁺ < … < q̇₅⁺)
TEST(CradleEngine, FiveBallsAppendixDCase2) {
  const double v1 = 1.304;
  const double e_star = 0.8;
  const PendulumChain model = cradle(5, 1.0, e_star);
  const auto run = release(model, v1, 0.6);
  ASSERT_NE(run->first_impact, nullptr);
  const EventRecord& e = *run->first_impact;
  const double v = kL * e.qd_pre(0);
  EXPECT_NEAR(v, v1, 1e-8 * v1);
  // closed form: event k between A and ball 5 − k leaves A with v(1 − e)/2 each time
  double closed[5];
  double a = v;
  for (int last = 4; last >= 1; --last) {
    closed[last] = a * (1.0 + e_star) / 2.0;
    a *= (1.0 - e_star) / 2.0;
  }
  closed[0] = a;
  const double digest[5] = {0.00013, 0.00117, 0.0117, 0.117, 1.174};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(kL * e.qd_post(i), closed[i], 1e-9 * v) << "ball " << i;
    EXPECT_NEAR(kL * e.qd_post(i), digest[i], 0.005 * digest[i] + 5e-6) << "ball " << i;
  }
  const double t_next = next_impact(run->log, e.t);
  for (int i = 1; i < 5; ++i) {
    const double th = largest_angle(run->log, i, e.t, t_next);
    EXPECT_NEAR(th, max_angle_from_energy(e.qd_post(i)), 1e-7) << "ball " << i;
  }
}

// [R] App. D Case 3 (Table D.3): sequence ABACA, m_A = m_C = m_E = 0.045 kg, m_B = m_D = 0.053 kg,
// v₁⁻ = 1.0 m/s, e* = 0.4 for every event. The thesis's row (0.046, 0.048, 0.113, 0.221, 0.525) is
// NOT reproduced (the digest could not either and calls it non-binding); the digest's closed form
// (C = 1, Stronge's ∫Σ v_N dp_N work) gives (0.005, 0.014, 0.051, 0.193, 0.700), which the engine
// reproduces (printed to 3 decimals: ±5e-4) and which equals the multi-point library with the
// engine's settings to 1e-9. Measured: (0.00531, 0.01405, 0.05100, 0.19286, 0.70000) m/s.
TEST(CradleEngine, FiveUnequalBallsAppendixDCase3) {
  const double v1 = 1.0;
  LawChoice law;
  law.params.e = 0.4;
  law.params.mu = 0.0;
  const std::vector<double> masses = {0.045, 0.053, 0.045, 0.053, 0.045};
  const PendulumChain model(
      PendulumChain::touching_row(masses, std::vector<double>(5, kR), std::vector<double>(5, kL)),
      kG, 0.4, law);
  const auto run = release(model, v1, 0.6);
  ASSERT_NE(run->first_impact, nullptr);
  const EventRecord& e = *run->first_impact;
  const double v = kL * e.qd_pre(0);
  EXPECT_NEAR(v, v1, 1e-8 * v1);
  multipoint::Cradle c;
  c.masses = masses;
  c.v_pre = v;
  multipoint::Params p;
  p.e_star = {0.4};
  p.work = multipoint::WorkDefinition::kIntegral;
  p.compression = multipoint::CompressionRule::kFirstMinimum;
  const multipoint::CollisionResult lib = multipoint::resolve_collision(multipoint::cradle(c), p);
  ASSERT_EQ(lib.status, multipoint::Status::kOk);
  EXPECT_EQ(lib.events.size(), 4u);  // A–E, A–D, A–C, A–B
  const double digest[5] = {0.005, 0.014, 0.051, 0.193, 0.700};
  const double thesis[5] = {0.046, 0.048, 0.113, 0.221, 0.525};
  // the engine's rows, event by event: the rows of one event share its q̇ before and after,
  // which are the library's (the intermediate states included)
  std::size_t event = 0;
  for (std::size_t k = 0; k < run->collision_rows.size(); ++k) {
    const EventRecord& row = *run->collision_rows[k];
    if (k > 0 && row.qd_pre != run->collision_rows[k - 1]->qd_pre) ++event;
    ASSERT_LT(event, lib.events.size());
    for (int i = 0; i < 5; ++i) {
      EXPECT_NEAR(row.qd_pre(i), lib.events[event].qdot_pre(i), 1e-9 * e.qd_pre(0));
      EXPECT_NEAR(row.qd_post(i), lib.events[event].qdot_post(i), 1e-9 * e.qd_pre(0));
    }
  }
  EXPECT_EQ(event + 1, lib.events.size());
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(e.qd_post(i), lib.qdot_post(i), 1e-9 * e.qd_pre(0)) << "ball " << i;
    EXPECT_NEAR(kL * e.qd_post(i), digest[i], 5e-4) << "ball " << i;
    EXPECT_GT(std::abs(kL * e.qd_post(i) - thesis[i]), 0.01) << "ball " << i;  // not reproduced
  }
  const double t_next = next_impact(run->log, e.t);
  for (int i = 1; i < 5; ++i) {
    const double th = largest_angle(run->log, i, e.t, t_next);
    EXPECT_NEAR(th, max_angle_from_energy(e.qd_post(i)), 1e-7) << "ball " << i;
  }
}

// [R] App. D Table D.1, Case 1: five balls, m = 1 kg, e* = 1, v₁⁻ = 1.0 m/s, one event:
// q̇⁺ = (0, 0, 0, 0, 1.00) (centre speeds); then the motion repeats: every later collision of the
// elastic cradle hands the whole speed to the ball at the other end (over 3 s, 5 collisions)
TEST(CradleEngine, FiveBallsElasticTableD1Case1AndPeriodicity) {
  const double v1 = 1.0;
  const PendulumChain model = cradle(5, 1.0, 1.0);
  const auto run = release(model, v1, 3.0);
  ASSERT_NE(run->first_impact, nullptr);
  const EventRecord& e = *run->first_impact;
  const double v = kL * e.qd_pre(0);
  EXPECT_NEAR(v, v1, 1e-8 * v1);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(kL * e.qd_post(i), 0.0, 1e-9 * v) << "ball " << i;
  EXPECT_NEAR(kL * e.qd_post(4), v, 1e-9 * v);
  EXPECT_NEAR(kL * e.qd_post(4), 1.00, 5e-3);  // Table D.1, printed 1.00
  int collisions = 0;
  double last = -1.0;
  for (const EventRecord& r : run->log.events) {
    if (r.kind != EventKind::kImpact || r.t == last) continue;
    last = r.t;
    ++collisions;
    // the incoming ball is an end ball, all the others at rest; it leaves at rest and the other
    // end ball takes its speed
    const int in = std::abs(r.qd_pre(0)) > std::abs(r.qd_pre(4)) ? 0 : 4;
    const int out = 4 - in;
    const double w = std::abs(r.qd_pre(in));
    EXPECT_NEAR(w * kL, v, 1e-7) << "t = " << r.t;
    for (int i = 0; i < 5; ++i) {
      EXPECT_NEAR(r.qd_post(i), i == out ? r.qd_pre(in) : 0.0, 1e-7 * w) << "t = " << r.t;
    }
  }
  EXPECT_GE(collisions, 5);
  EXPECT_LE(std::abs(run->result.energy.balance()), 1e-9);
}

// A resting, touching pair elsewhere in the chain takes no part in a collision. Balls A, B touch at
// rest (AB closed); C, D, E touch at rest with B–C 1 cm apart; E is released and hits D. The
// touching set is {AB (closed), CD, DE}; the engine hands the multi-point law only the contacts
// connected to the impacting one through shared bodies (hybrid/run_impact.cpp). Before, the
// solver returned Status::kDisconnected and the whole set went sequential: C left at 0.8556 v
// instead of [R]'s 0.925 v. The same collision without A and B (the chain C, D, E) is the
// reference, to 1e-9.
TEST(CradleEngine, RestingPairElsewhereDoesNotChangeTheCollision) {
  LawChoice law;
  law.params.e = 0.85;
  law.params.mu = 0.0;
  const double p5[5] = {0.0, 0.1, 0.21, 0.31, 0.41};
  const auto collide = [&](int n) {
    std::vector<PendulumBall> balls;
    for (int i = 5 - n; i < 5; ++i) balls.push_back({0.166, kR, kL, p5[i]});
    const PendulumChain m(balls, kG, 0.4, law);
    VecQ q = VecQ::Zero(n);
    q(n - 1) = -release_angle(1.0);
    Log log;
    hybrid::SimulationOptions o;
    o.t_end = 0.29;  // the collision at 0.2824, before C reaches B
    const hybrid::SimulationResult r =
        hybrid::simulate(m, hybrid::InitialState(0.0, q, VecQ::Zero(n)), o, &log);
    EXPECT_EQ(r.multipoint_fallbacks, 0) << n << " balls";
    return VecQ(r.qd.tail(3));
  };
  const VecQ five = collide(5);
  const VecQ three = collide(3);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(five(i), three(i), 1e-9) << i;
}

// the scenario files run and name their kind
TEST(CradleEngine, ScenarioFilesRun) {
  for (const char* name : {"cradle3.toml", "cradle5.toml"}) {
    const io::Scenario sc = io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/" + name);
    EXPECT_EQ(sc.kind, "pendulum_chain");
    Log log;
    const hybrid::SimulationResult r = hybrid::simulate(*sc.model, sc.initial, sc.options, &log);
    EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime) << name << ": " << r.message;
    EXPECT_GE(r.impacts, 1) << name;
    EXPECT_LE(std::abs(r.energy.balance()), 1e-9) << name;
  }
}

// bad parameters name their key and the allowed range
TEST(PendulumChain, BadParametersNameTheKey) {
  const auto message = [](std::vector<std::pair<std::string, double>> values) {
    NumberSpec spec(std::move(values));
    try {
      (void)make_model("pendulum_chain", spec);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"n", 3}, {"length", -0.3}}).find("model.length"), std::string::npos);
  EXPECT_NE(message({{"n", 1}}).find("model.n"), std::string::npos);
  EXPECT_NE(message({{"n", PendulumChain::kMaxBalls + 1}}).find("model.n"), std::string::npos);
  EXPECT_NE(message({{"n", 3}, {"mass", 0.0}}).find("model.mass"), std::string::npos);
  EXPECT_NE(message({{"n", 3}, {"spacing", -0.1}}).find("model.spacing"), std::string::npos);
  const PendulumChain m = cradle(3, 1.0, 1.0);
  EXPECT_THROW((void)m.with_parameter("B.length", 0.0), InvalidArgument);
  EXPECT_THROW((void)m.with_parameter("D.mass", 1.0), InvalidArgument);
  EXPECT_DOUBLE_EQ(m.with_parameter("B.length", 0.4)->parameter("B.length"), 0.4);
  EXPECT_DOUBLE_EQ(m.with_parameter("contact.AB.e", 0.5)->parameter("contact.AB.e"), 0.5);
}

}  // namespace
}  // namespace clatter::model
