// The ball in a corner through the engine (model kind "planar_body_lines",
// model/planar_body_lines.hpp; issue 8; [R] Rodriguez 2014 §6.1, Table 6.1; spec/004_multibody.md
// Ex. 1 and §9).
//
// Table 6.1: a disk (I = ½mR², the digest's fit; R = 0.5 m) reaches the floor and the wall at once
// with q̇⁻ = (8.000, −4.430, 0); μ_d = 0.35, μ_s = 0.6, e* = 0.715; post-impact q̇⁺ = (−5.504,
// 4.893, −9.786), v_t1 = −10.397. The digest (§9) reproduces the table to ≤ 0.6 % only with the
// thesis's normal work (4.7) and its latest-parabola compression rule; with the physical work
// ∫Σ v_N dp_N it gets (−2.53, 4.07, −8.14).
//
// The engine calls the multi-point library with fixed settings (hybrid/simultaneous_impact.hpp):
// WorkDefinition::kIntegral and CompressionRule::kFirstMinimum (so that one contact is exactly
// Stronge's law and the kinetic energy never increases). The engine's collision therefore equals
// the library's with those settings (asserted to 1e-12: the same code on the same input), and it
// does NOT reproduce Table 6.1: the measured values are asserted below, with the reason.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/io/scenario.hpp"
#include "clatter/model/planar_body_lines.hpp"
#include "clatter/model/registry.hpp"
#include "clatter/multipoint/bodies.hpp"
#include "clatter/multipoint/collision.hpp"

namespace clatter::model {
namespace {

using hybrid::EventKind;
using hybrid::EventRecord;

constexpr double kR = 0.5;
constexpr double kPi = 3.141592653589793;

struct Events final : hybrid::Recorder {
  void on_event(const EventRecord& e) override { list.push_back(e); }
  std::vector<EventRecord> list;
};

LawChoice corner_law() {
  LawChoice law;
  law.kind = LawKind::kStronge;
  law.params.e = 0.715;
  law.params.mu = 0.35;
  return law;
}

// floor y = 0 and a wall x = x_wall on the right; contacts "ball-ground", "ball-wall"
PlanarBodyLines corner(double x_wall) {
  ObstacleLine ground{"ground", {0.0, 0.0}, 0.5 * kPi};
  ObstacleLine wall{"wall", {x_wall, 0.0}, kPi};
  PlanarBodyLines m(1.0, 0.5 * kR * kR, {0.0, -9.81}, {{"ball", {0.0, 0.0}, kR}}, {ground, wall},
                    corner_law());
  std::vector<Contact> cs = {m.contact(0), m.contact(1)};
  for (Contact& c : cs) {
    c.mu_s = 0.6;
    c.mu_d = 0.35;
  }
  auto with = m.with_contacts(cs);
  return dynamic_cast<const PlanarBodyLines&>(*with);
}

multipoint::CollisionResult library(const Vec3& qd_pre, multipoint::WorkDefinition w,
                                    multipoint::CompressionRule rule) {
  multipoint::BallInCorner p;
  p.qdot_pre = qd_pre;
  multipoint::Params params;
  params.e_star = {0.715};
  params.work = w;
  params.compression = rule;
  return multipoint::resolve_collision(multipoint::ball_in_corner(p), params);
}

// --- conformance: J against differences of the gap and of the material contact point, γ against
// differences of v along a motion (tilted, oscillating, belt lines; an offset round feature) ---
TEST(PlanarBodyLines, JacobianAndGammaMatchFiniteDifferences) {
  ObstacleLine a{"a", {0.3, -0.2}, 1.1, 0.05, 3.0, 0.4, 0.7};
  ObstacleLine b{"b", {2.0, 0.5}, 2.9, 0.0, 0.0, 0.0, -1.2};
  const PlanarBodyLines m(2.0, 0.3, {0.4, -9.0},
                          {{"f", {0.2, -0.1}, 0.15}, {"v", {-0.3, 0.2}, 0.0}}, {a, b},
                          corner_law());
  VecQ q(3), qd(3);
  q << 0.9, 1.3, 0.7;
  qd << 1.1, -0.6, 2.3;
  const double t = 0.37, h = 1e-6;
  for (int c = 0; c < m.num_contacts(); ++c) {
    ContactGeometry g;
    m.contact_geometry(c, t, q, qd, g);
    for (int k = 0; k < 3; ++k) {
      VecQ qp = q, qm = q;
      qp(k) += h;
      qm(k) -= h;
      ContactGeometry gp, gm;
      m.contact_geometry(c, t, qp, qd, gp);
      m.contact_geometry(c, t, qm, qd, gm);
      EXPECT_NEAR(g.J(1, k), (gp.g_N - gm.g_N) / (2.0 * h), 1e-8) << "J_N " << c << " " << k;
    }
    // ġ_N along the motion (the line moves too) is v_N
    ContactGeometry gp, gm;
    m.contact_geometry(c, t + h, VecQ(q + h * qd), qd, gp);
    m.contact_geometry(c, t - h, VecQ(q - h * qd), qd, gm);
    EXPECT_NEAR(g.v.y(), (gp.g_N - gm.g_N) / (2.0 * h), 1e-8) << "v_N " << c;
    // v_T: the material point of the body at P, against the line's surface moving at u along t̂
    const ObstacleLine& l = m.line_of(c);
    const Vec2 n = l.normal();
    const Vec2 tt = l.tangent();
    // the material point at r₀ = c_W − ρ n̂ at τ = 0, carried by the body: G + τV + R(τω) r₀
    const Vec2 cW(
        std::cos(q(2)) * m.feature_of(c).c_B.x() - std::sin(q(2)) * m.feature_of(c).c_B.y(),
        std::sin(q(2)) * m.feature_of(c).c_B.x() + std::cos(q(2)) * m.feature_of(c).c_B.y());
    const Vec2 r0 = cW - m.feature_of(c).radius * n;
    const auto material = [&](double tau) {
      const double ang = tau * qd(2);
      return Vec2(q(0) + tau * qd(0) + std::cos(ang) * r0.x() - std::sin(ang) * r0.y(),
                  q(1) + tau * qd(1) + std::sin(ang) * r0.x() + std::cos(ang) * r0.y());
    };
    const Vec2 vP = (material(h) - material(-h)) / (2.0 * h);
    EXPECT_NEAR(g.v.x(), tt.dot(vP) - l.belt_velocity, 1e-8) << "v_T " << c;
    // γ = dv/dt − J q̈ along (t + τ, q + τ q̇), q̈ = 0
    const Vec2 dv = (gp.v - gm.v) / (2.0 * h);
    EXPECT_NEAR(g.gamma.x(), dv.x(), 1e-6 * (1.0 + std::abs(dv.x()))) << "gamma_T " << c;
    EXPECT_NEAR(g.gamma.y(), dv.y(), 1e-6 * (1.0 + std::abs(dv.y()))) << "gamma_N " << c;
  }
  // dV/dq = −f
  for (int k = 0; k < 3; ++k) {
    VecQ qp = q, qm = q;
    qp(k) += h;
    qm(k) -= h;
    const double dV = (m.potential_energy(t, qp) - m.potential_energy(t, qm)) / (2.0 * h);
    EXPECT_NEAR(-dV, m.applied_forces(t, q, qd, VecA())(k), 1e-6);
  }
}

// at the corner the model's multi-point input is the library's ball_in_corner (bodies.hpp)
TEST(PlanarBodyLines, MultipointInputIsTheLibrarysBallInCorner) {
  const PlanarBodyLines m = corner(4.0);
  std::array<bool, kMaxContacts> active{};
  active[0] = active[1] = true;
  multipoint::Input in;
  VecQ s;
  VecQ q(3);
  q << 4.0 - kR, kR, 0.3;
  ASSERT_TRUE(m.multipoint_input(0.0, q, active, in, s));
  const multipoint::Input lib = multipoint::ball_in_corner({});
  EXPECT_TRUE(in.M.isApprox(lib.M, 1e-15));
  EXPECT_TRUE(in.J.isApprox(lib.J, 1e-15)) << in.J << "\n" << lib.J;
  ASSERT_EQ(in.contacts.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_TRUE(in.contacts[k].frame.T1.isApprox(lib.contacts[k].frame.T1, 1e-15)) << k;
    EXPECT_TRUE(in.contacts[k].frame.N.isApprox(lib.contacts[k].frame.N, 1e-15)) << k;
    EXPECT_EQ(in.contacts[k].mu_s, 0.6);
    EXPECT_EQ(in.contacts[k].mu_d, 0.35);
    EXPECT_TRUE((in.body_points[k].r_G - lib.body_points[k].r_G).norm() < 1e-15) << k;
  }
  EXPECT_TRUE(s.isZero());
}

// the collision from Table 6.1's pre-impact state, the ball placed at both contacts
TEST(BallCornerEngine, Table61CollisionThroughTheEngine) {
  const double x_wall = 4.114;
  const PlanarBodyLines m = corner(x_wall);
  hybrid::SimulationOptions o;
  o.t_end = 0.05;
  Events rec;
  const hybrid::SimulationResult r = hybrid::simulate(
      m, hybrid::InitialState(0.0, {x_wall - kR, kR, 0.0}, {8.0, -4.43, 0.0}), o, &rec);
  EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime) << r.message;
  ASSERT_FALSE(rec.list.empty());
  const EventRecord& e = rec.list.front();
  ASSERT_EQ(e.kind, EventKind::kImpact);
  EXPECT_EQ(e.t, 0.0);
  EXPECT_EQ(r.multipoint_fallbacks, 0);
  // both contacts took an impulse in one multi-point collision
  ASSERT_GE(rec.list.size(), 2u);
  EXPECT_EQ(rec.list[1].t, 0.0);
  EXPECT_GT(rec.list[0].Lambda.y(), 0.0);
  EXPECT_GT(rec.list[1].Lambda.y(), 0.0);
  // the same as the library's single-collision preset with the engine's settings
  const multipoint::CollisionResult lib =
      library({8.0, -4.43, 0.0}, multipoint::WorkDefinition::kIntegral,
              multipoint::CompressionRule::kFirstMinimum);
  ASSERT_EQ(lib.status, multipoint::Status::kOk);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(e.qd_post(i), lib.qdot_post(i), 1e-12) << i;
  // Table 6.1 (thesis work (4.7), latest parabola): q̇⁺ = (−5.504, 4.893, −9.786); the library
  // with those settings reproduces it within 1 % (rodriguez_tables_test.cpp)
  const multipoint::CollisionResult thesis =
      library({8.0, -4.43, 0.0}, multipoint::WorkDefinition::kThesis,
              multipoint::CompressionRule::kLatestParabola);
  const double table[3] = {-5.504, 4.893, -9.786};
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(thesis.qdot_post(i), table[i], 0.01 * std::abs(table[i])) << i;
  // NOT REPRODUCED through the engine. The engine's fixed settings are the ∫Σ v_N dp_N work AND
  // the first-minimum compression rule; the table needs the thesis's (4.7) work and the
  // latest-parabola rule, and the digest's "physical work" number (−2.53, 4.07, −8.14) (spec §9)
  // keeps the latest-parabola rule (rodriguez_tables_test.cpp). With the first minimum (the work
  // at the first vertex, kept after the wall sticks and the ground reverses) the engine gives
  // (−2.5966, 4.0886, −8.1773), 53 %, 16 % and 16 % off the table. Its value is checked above
  // against the library with the same settings (an independent assembly of the collision: the
  // library's preset builds M, J and the pair constraints itself); it is not pinned here to a
  // number of its own. What is asserted is the verdict: the table is not reproduced this way.
  for (int i = 0; i < 3; ++i)
    EXPECT_GT(std::abs(e.qd_post(i) - table[i]), 0.1 * std::abs(table[i])) << i;
  const multipoint::CollisionResult digest =
      library({8.0, -4.43, 0.0}, multipoint::WorkDefinition::kIntegral,
              multipoint::CompressionRule::kLatestParabola);
  const double physical[3] = {-2.53, 4.07, -8.14};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(digest.qdot_post(i), physical[i], 0.005) << i;
}

// thrown from (0, 1.5) at (8, 0): floor and wall are reached at the same instant and resolved
// together; the pre-impact state is Table 6.1's (8.000, −4.430, 0) (g = 9.81: −4.4294)
TEST(BallCornerEngine, ScenarioThrowIntoTheCorner) {
  const io::Scenario sc =
      io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/ball_corner.toml");
  EXPECT_EQ(sc.kind, "planar_body_lines");
  Events rec;
  const hybrid::SimulationResult r = hybrid::simulate(*sc.model, sc.initial, sc.options, &rec);
  EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime) << r.message;
  EXPECT_EQ(r.multipoint_fallbacks, 0);
  ASSERT_GE(rec.list.size(), 2u);
  const EventRecord& e = rec.list[0];
  EXPECT_EQ(e.kind, EventKind::kImpact);
  EXPECT_NEAR(e.t, std::sqrt(2.0 / 9.81), 1e-9);
  EXPECT_NEAR(e.qd_pre(0), 8.0, 1e-9);
  EXPECT_NEAR(e.qd_pre(1), -4.430, 1e-3);  // Table 6.1 pre-impact q̇₂
  EXPECT_EQ(rec.list[1].t, e.t);           // the wall in the same collision
  EXPECT_NE(rec.list[1].contact, e.contact);
  const multipoint::CollisionResult lib =
      library(Vec3(e.qd_pre(0), e.qd_pre(1), e.qd_pre(2)), multipoint::WorkDefinition::kIntegral,
              multipoint::CompressionRule::kFirstMinimum);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(e.qd_post(i), lib.qdot_post(i), 1e-9) << i;
  // the energy ledger balances over the run (the impact's loss booked)
  EXPECT_LE(std::abs(r.energy.balance()), 1e-9 * (1.0 + std::abs(r.energy.initial)));
}

// a line at any angle and gravity as a vector: a point mass released on a line inclined at φ
// slides down with a = g (sin φ − μ cos φ) (tan φ > μ); the same with the line horizontal and
// gravity turned by φ. Tolerance 1e-9 m after 1 s (Runge–Kutta at 1e-12).
TEST(PlanarBodyLines, PointSlidesDownAnInclineOrUnderTiltedGravity) {
  const double phi = 0.5, mu = 0.2, g = 9.81, T = 1.0;
  const double a = g * (std::sin(phi) - mu * std::cos(phi));
  LawChoice law = corner_law();
  law.params.mu = mu;
  hybrid::SimulationOptions o;
  o.t_end = T;
  {
    const ObstacleLine incline{"incline", {0.0, 0.0}, 0.5 * kPi + phi};
    const PlanarBodyLines m(1.0, 1.0, {0.0, -g}, {{"P", {0.0, 0.0}, 0.0}}, {incline}, law);
    const hybrid::SimulationResult r =
        hybrid::simulate(m, hybrid::InitialState(0.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}), o);
    EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime) << r.message;
    const double s = -0.5 * a * T * T;  // along t̂ = (cos φ, sin φ), downhill is −t̂
    EXPECT_NEAR(r.q(0), s * std::cos(phi), 1e-9);
    EXPECT_NEAR(r.q(1), s * std::sin(phi), 1e-9);
    EXPECT_NEAR(r.energy.friction_loss, mu * g * std::cos(phi) * 0.5 * a * T * T, 1e-9);
    EXPECT_LE(std::abs(r.energy.balance()), 1e-9);
  }
  {
    const ObstacleLine floor{"floor", {0.0, 0.0}, 0.5 * kPi};
    const PlanarBodyLines m(1.0, 1.0, {-g * std::sin(phi), -g * std::cos(phi)},
                            {{"P", {0.0, 0.0}, 0.0}}, {floor}, law);
    const hybrid::SimulationResult r =
        hybrid::simulate(m, hybrid::InitialState(0.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}), o);
    EXPECT_EQ(r.reason, hybrid::StopReason::kEndTime) << r.message;
    EXPECT_NEAR(r.q(0), -0.5 * a * T * T, 1e-9);
    EXPECT_NEAR(r.q(1), 0.0, 1e-12);
  }
}

// exact flight: the closed-form gaps are the model's gaps along the closed-form motion, the
// curvature bound and the far step hold (sampled), and a run with exact flight lands where the
// Runge–Kutta run lands (the ball thrown into the corner)
TEST(PlanarBodyLines, ExactFlightGapsBoundsAndRunAgreeWithRungeKutta) {
  ObstacleLine a{"a", {0.3, -0.2}, 1.1, 0.05, 3.0, 0.4, 0.7};
  ObstacleLine b{"b", {2.0, 5.5}, -2.0, 0.02, 7.0, 0.0, -1.2};
  const PlanarBodyLines m(2.0, 0.3, {0.4, -9.0},
                          {{"f", {0.2, -0.1}, 0.15}, {"v", {-0.3, 0.2}, 0.0}}, {a, b},
                          corner_law());
  const ExactFlight* fl = m.exact_flight();
  ASSERT_NE(fl, nullptr);
  VecQ q0(3), qd0(3);
  q0 << 0.9, 1.3, 0.7;
  qd0 << 1.1, 2.6, 4.3;
  const double t0 = 0.37;
  GapValues gaps;
  for (int c = 0; c < m.num_contacts(); ++c) {
    const double M2 = fl->gap_curvature_bound(c, qd0);
    double g_prev = 0.0, g_prev2 = 0.0;
    const double dtau = 1e-3;
    for (int k = 0; k <= 600; ++k) {
      const double tau = k * dtau;
      VecQ q, qd;
      fl->flight(tau, q0, qd0, q, qd);
      fl->flight_gaps(t0, q0, qd0, tau, gaps);
      ContactGeometry g;
      m.contact_geometry(c, t0 + tau, q, qd, g);
      EXPECT_NEAR(gaps[static_cast<std::size_t>(c)].value, g.g_N, 1e-12) << c << " " << tau;
      EXPECT_NEAR(gaps[static_cast<std::size_t>(c)].slope, g.v.y(), 1e-12) << c << " " << tau;
      // second differences ≥ −M₂ (up to O(dτ²) and round-off)
      if (k >= 2) {
        const double second = (g.g_N - 2.0 * g_prev + g_prev2) / (dtau * dtau);
        EXPECT_GE(second, -M2 - 1e-3) << c << " " << tau;
      }
      g_prev2 = g_prev;
      g_prev = g.g_N;
      // no root within the far step (sampled)
      if (g.g_N > 0.0 && k % 50 == 0) {
        const double far = std::min(fl->far_step(c, q0, qd0, tau), 10.0);
        for (int j = 1; j <= 20; ++j) {
          fl->flight_gaps(t0, q0, qd0, tau + far * j / 20.0 * (1.0 - 1e-12), gaps);
          EXPECT_GT(gaps[static_cast<std::size_t>(c)].value, -1e-12) << c << " " << tau;
        }
      }
    }
  }
  // the corner: exact flight and Runge–Kutta reach the same collision
  const io::Scenario sc =
      io::load_scenario(std::string(CLATTER_EXAMPLES_DIR) + "/ball_corner.toml");
  hybrid::SimulationOptions rk = sc.options;
  rk.exact_flight = false;
  Events ex_rec, rk_rec;
  const hybrid::SimulationResult ex = hybrid::simulate(*sc.model, sc.initial, sc.options, &ex_rec);
  const hybrid::SimulationResult rr = hybrid::simulate(*sc.model, sc.initial, rk, &rk_rec);
  EXPECT_GT(ex.gap_evaluations, 0);
  EXPECT_EQ(rr.gap_evaluations, 0);
  ASSERT_EQ(ex_rec.list.size(), rk_rec.list.size());
  for (std::size_t k = 0; k < ex_rec.list.size(); ++k) {
    EXPECT_NEAR(ex_rec.list[k].t, rk_rec.list[k].t, 1e-9) << k;
    EXPECT_EQ(ex_rec.list[k].contact, rk_rec.list[k].contact) << k;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(ex_rec.list[k].qd_post(i), rk_rec.list[k].qd_post(i), 1e-8) << k << " " << i;
  }
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(ex.q(i), rr.q(i), 1e-8) << i;
}

TEST(PlanarBodyLines, BadParametersNameTheKey) {
  const auto message = [](std::vector<std::pair<std::string, double>> values) {
    NumberSpec spec(std::move(values));
    try {
      (void)make_model("planar_body_lines", spec);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"mass", -1.0}, {"inertia", 1.0}}).find("model.mass"), std::string::npos);
  EXPECT_NE(message({{"mass", 1.0}, {"inertia", 0.0}}).find("model.inertia"), std::string::npos);
  EXPECT_NE(message({{"mass", 1.0}, {"inertia", 1.0}}).find("model.lines"), std::string::npos);
  const PlanarBodyLines m = corner(4.0);
  EXPECT_THROW((void)m.with_parameter("wall.omega", -1.0), InvalidArgument);
  EXPECT_THROW((void)m.with_parameter("door.x", 1.0), InvalidArgument);
  EXPECT_DOUBLE_EQ(m.with_parameter("wall.x", 5.0)->parameter("wall.x"), 5.0);
  EXPECT_DOUBLE_EQ(m.with_parameter("gravity.x", 1.0)->parameter("gravity.x"), 1.0);
}

}  // namespace
}  // namespace clatter::model
