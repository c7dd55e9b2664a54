// Contact kinematics of the planar body model (planar_body_model.hpp) against finite differences
// along a smooth path, against the contact module's closed-form W of a rod end (planar_body.hpp,
// [B] §3.2), and the exact free flight against the general kinematics.

#include "clatter/model/planar_body_model.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>

#include <cmath>
#include <numbers>
#include <random>

namespace clatter::model {
namespace {

Surface moving_surface() {
  Surface s;
  s.height = 0.1;
  s.amplitude = 0.7;
  s.omega = 3.3;
  s.phase = 0.4;
  s.belt_velocity = 0.2;
  s.belt_amplitude = 0.5;
  s.belt_omega = 1.7;
  s.belt_phase = -0.3;
  return s;
}

PlanarBodyModel test_body() {
  const LawChoice law{LawKind::kStronge, {0.3, 0.6}};
  return PlanarBodyModel({1.3, 0.21}, 9.81, moving_surface(),
                         {{"vertex", {0.4, -0.2}, 0.0, law}, {"disk", {-0.1, 0.05}, 0.3, law}});
}

TEST(PlanarBodyModel, VelocityAndAccelerationMatchFiniteDifferences) {
  const PlanarBodyModel m = test_body();
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const double t0 = 2.0 * U(rng);
    const Vec3 q0{U(rng), 1.0 + U(rng), 3.0 * U(rng)};
    const Vec3 qd0{U(rng), U(rng), 2.0 * U(rng)};
    const Vec3 qdd{U(rng), U(rng), U(rng)};  // any smooth path
    const auto at = [&](double s) {
      return std::pair<Vec3, Vec3>{q0 + qd0 * s + 0.5 * qdd * s * s, qd0 + qdd * s};
    };
    const double h = 1e-5;
    for (int c = 0; c < m.num_contacts(); ++c) {
      const ContactKinematics k = m.contact(c, t0, q0, qd0);
      const auto [qp, qdp] = at(h);
      const auto [qm, qdm] = at(-h);
      const ContactKinematics kp = m.contact(c, t0 + h, qp, qdp);
      const ContactKinematics km = m.contact(c, t0 - h, qm, qdm);
      // ġ_N = v_N
      EXPECT_NEAR((kp.g_N - km.g_N) / (2 * h), k.v.y(), 1e-8);
      // dv/dt = J q̈ + γ
      const Vec2 dv = (kp.v - km.v) / (2 * h);
      const Vec2 model = k.J * qdd + k.gamma;
      EXPECT_NEAR(dv.x(), model.x(), 1e-7);
      EXPECT_NEAR(dv.y(), model.y(), 1e-7);
      // v = J q̇ − (u, ḣ)
      const Vec2 v = k.J * qd0 - Vec2{m.surface().u(t0), m.surface().hdot(t0)};
      EXPECT_NEAR(v.x(), k.v.x(), 1e-14);
      EXPECT_NEAR(v.y(), k.v.y(), 1e-14);
    }
  }
}

TEST(PlanarBodyModel, RodEndMatchesTheContactModule) {
  // [B] §3.2: end 1 at G − L(cosθ, sinθ), end 2 at G + L(cosθ, sinθ); W = J M⁻¹ Jᵀ
  const PlanarBodyModel rod = make_rod(1.0, 1.0, 9.81, {}, {});
  for (const double theta : {0.3, 1.1, 2.3, 4.0}) {
    const Vec3 q{0.0, 5.0, theta};
    const Vec3 qd{0.3, -1.0, 0.7};
    for (int end = 1; end <= 2; ++end) {
      const BodyContact bc = rod_end_contact(slender_rod(1.0, 1.0), 1.0, theta, end);
      const ContactKinematics k = rod.contact(end - 1, 0.0, q, qd);
      EXPECT_NEAR(k.r.x(), bc.r_GP.x(), 1e-15);
      EXPECT_NEAR(k.r.y(), bc.r_GP.y(), 1e-15);
      const Mat2 W = k.J * rod.mass_matrix().inverse() * k.J.transpose();
      const ContactMatrix Wb = bc.W();
      EXPECT_NEAR(W(0, 0), Wb.A, 1e-14);
      EXPECT_NEAR(W(0, 1), Wb.B, 1e-14);
      EXPECT_NEAR(W(1, 1), Wb.C, 1e-14);
      const Vec2 v = bc.contact_velocity(qd);
      EXPECT_NEAR(k.v.x(), v.x(), 1e-14);
      EXPECT_NEAR(k.v.y(), v.y(), 1e-14);
      // gap: P_y = y ∓ L sinθ
      EXPECT_NEAR(k.g_N, 5.0 + (end == 1 ? -1.0 : 1.0) * std::sin(theta), 1e-14);
    }
  }
}

TEST(PlanarBodyModel, ExactFlightAgreesWithTheKinematicsAndItsCurvatureBound) {
  const PlanarBodyModel m = test_body();
  const double t0 = 0.37;
  const Vec3 q0{0.1, 2.0, 0.5};
  const Vec3 qd0{0.4, 3.0, -4.0};
  for (int c = 0; c < m.num_contacts(); ++c) {
    const double M2 = m.flight_gap_curvature_bound(c, qd0);
    double worst_curvature = 0.0;
    for (int k = 1; k < 200; ++k) {
      const double tau = 0.01 * k;
      Vec3 q, qd;
      m.flight(tau, q0, qd0, q, qd);
      const ContactKinematics kin = m.contact(c, t0 + tau, q, qd);
      const ValueSlope f = m.flight_gap(c, t0, q0, qd0, tau);
      EXPECT_NEAR(f.value, kin.g_N, 1e-13);
      EXPECT_NEAR(f.slope, kin.v.y(), 1e-13);
      const double h = 1e-4;
      const double curv = (m.flight_gap(c, t0, q0, qd0, tau + h).value - 2.0 * f.value +
                           m.flight_gap(c, t0, q0, qd0, tau - h).value) /
                          (h * h);
      worst_curvature = std::min(worst_curvature, curv);
      // the far step never passes a root: the gap stays ≥ 0 over it while it is positive
      const double s = m.flight_gap_far_step(c, q0, qd0, tau);
      if (f.value > 0.0 && s > 0.0) {
        EXPECT_GE(m.flight_gap(c, t0, q0, qd0, tau + 0.5 * s).value, 0.0);
      }
    }
    EXPECT_GE(worst_curvature, -M2 - 1e-4);
  }
}

// The seeds' levelling (rule VII, [BP] §5.2) rotates the rod about contact c's point to θ = 0 and
// stops its spin: the contact point stays where it was (to round-off: a rotation about it). A rod
// already level and not spinning is reported unchanged and left bit for bit as it was: the engine
// then keeps the contact geometry it computed before the levelling.
TEST(PlanarBodyModel, LevellingKeepsTheContactPointAndLeavesALevelRodAlone) {
  const PlanarBodyModel rod = make_rod(1.0, 1.0, 9.81, moving_surface(), {});
  const model::SymmetricPairs& sym = *rod.symmetry();
  model::VecQ q(3), qd(3);
  q << 0.1, 2.3, 0.05;
  qd << 0.4, -1.2, 0.3;
  const auto point = [](const model::VecQ& x, int c) {
    const double side = c == 0 ? -1.0 : 1.0;  // "P1" at (−L, 0), "P2" at (+L, 0) (make_rod)
    return Vec2{x(0) + side * std::cos(x(2)), x(1) + side * std::sin(x(2))};
  };
  for (int c : {0, 1}) {
    model::VecQ q1 = q, qd1 = qd;
    const Vec2 before = point(q1, c);
    ASSERT_TRUE(sym.level(c, 1 - c, 0.0, q1, qd1));
    EXPECT_EQ(q1(2), rod.level_angle(c, 1 - c, 0.05));
    EXPECT_EQ(qd1(2), 0.0);
    EXPECT_NEAR((point(q1, c) - before).norm(), 0.0, 1e-15);
    EXPECT_EQ(qd1(0), qd(0));
    EXPECT_EQ(qd1(1), qd(1));
    // level and at rest in angle now: nothing changes, not even x and y by round-off
    const model::VecQ q2 = q1, qd2 = qd1;
    EXPECT_FALSE(sym.level(c, 1 - c, 0.0, q1, qd1));
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(q1(k), q2(k));
      EXPECT_EQ(qd1(k), qd2(k));
    }
  }
}

// gaps_coincide lets the engine search one of two gaps: whenever it says so, the two gaps, their
// rates and curvatures, far steps and bounds must be equal bit for bit at every τ (else the search
// could miss the second contact's earlier root)
TEST(PlanarBodyModel, CoincidingGapsAreEqualBitForBit) {
  const PlanarBodyModel rod = make_rod(1.0, 1.0, 9.81, moving_surface(), {});
  const PlanarBodyModel block = make_block(2.5, 0.1087, 0.0645, 9.81, moving_surface(), {});
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int coinciding = 0;
  int rod_flat = 0;  // the rod levelled at θ = 0 without spin: its ends' gaps are the same terms
  for (const PlanarBodyModel* m : {&rod, &block}) {
    const model::ExactFlight& ef = *m->exact_flight();
    for (int trial = 0; trial < 400; ++trial) {
      model::VecQ q0(3), qd0(3);
      const double theta = 3.0 * U(rng);
      // a third of the trials levelled without spin (the symmetric motion), a third levelled
      // and spinning (the gaps part at once), the rest generic
      const bool level = trial % 3 != 2;
      const bool spin = trial % 3 != 0;
      q0 << U(rng), 2.0 + U(rng), level ? m->level_angle(0, 1, theta) : theta;
      qd0 << U(rng), 3.0 * U(rng), spin ? 2.0 * U(rng) : 0.0;
      const bool same = ef.gaps_coincide(0, 1, q0, qd0);
      if (qd0(2) != 0.0) {
        EXPECT_FALSE(same);
      }
      if (m == &rod && level && !spin && q0(2) == 0.0) {
        ++rod_flat;
        EXPECT_TRUE(same);
      }
      if (!same) continue;
      ++coinciding;
      EXPECT_EQ(ef.gap_curvature_bound(0, qd0), ef.gap_curvature_bound(1, qd0));
      EXPECT_EQ(ef.gap_jerk_bound(0, qd0), ef.gap_jerk_bound(1, qd0));
      const double t0 = 10.0 * U(rng);
      for (int k = 0; k < 50; ++k) {
        const double tau = 0.05 * k;
        model::GapValues out;
        ef.flight_gaps(t0, q0, qd0, tau, out);
        EXPECT_EQ(out[0].value, out[1].value);
        EXPECT_EQ(out[0].slope, out[1].slope);
        EXPECT_EQ(out[0].curvature, out[1].curvature);
        EXPECT_EQ(ef.far_step(0, q0, qd0, tau), ef.far_step(1, q0, qd0, tau));
      }
    }
  }
  EXPECT_GT(rod_flat, 30);
  EXPECT_GE(coinciding, rod_flat);
}

TEST(PlanarBodyModel, LevelAngleLevelsTheTwoFeatures) {
  const PlanarBodyModel block = make_block(2.5, 0.1087, 0.0645, 9.81, {}, {});
  for (const double theta : {0.05, 1.5, 3.1, -2.0}) {
    const double lev = block.level_angle(0, 1, theta);
    EXPECT_LE(std::abs(lev - theta), std::numbers::pi / 2 + 1e-12);
    const Vec3 q{0.0, 1.0, lev};
    EXPECT_NEAR(block.contact(0, 0.0, q, Vec3::Zero()).g_N,
                block.contact(1, 0.0, q, Vec3::Zero()).g_N, 1e-14);
  }
  const PlanarBodyModel rod = make_rod(1.0, 1.0, 9.81, {}, {});
  EXPECT_NEAR(rod.level_angle(0, 1, 3.14), std::numbers::pi, 1e-15);
  EXPECT_NEAR(rod.level_angle(0, 1, -0.001), 0.0, 1e-15);
}

TEST(PlanarBodyModel, BadInputNamesTheField) {
  const LawChoice law{};
  const auto field = [](auto&& make) {
    try {
      make();
    } catch (const InvalidArgument& e) {
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field([&] {
              return PlanarBodyModel({-1.0, 1.0}, 9.81, {}, {{"a", {0, 0}, 0, law}});
            }),
            "mass");
  EXPECT_EQ(field([&] {
              return PlanarBodyModel({1.0, 1.0}, -1.0, {}, {{"a", {0, 0}, 0, law}});
            }),
            "gravity");
  EXPECT_EQ(field([&] { return PlanarBodyModel({1.0, 1.0}, 9.81, {}, {}); }), "contacts");
  EXPECT_EQ(field([&] {
              return PlanarBodyModel({1.0, 1.0}, 9.81, {}, {{"a", {0, 0}, -1, law}});
            }),
            "contact.radius");
  EXPECT_EQ(field([&] {
              return PlanarBodyModel({1.0, 1.0}, 9.81, {},
                                     {{"a", {0, 0}, 0, {LawKind::kNewton, {-0.1, 0.5}}}});
            }),
            "contact.a.law.mu");
  EXPECT_EQ(field([&] {
              return PlanarBodyModel({1.0, 1.0}, 9.81, {},
                                     {{"a", {0, 0}, 0, {LawKind::kNewton, {0.1, 1.5}}}});
            }),
            "contact.a.law.e");
  Surface s;
  s.omega = -1.0;
  EXPECT_EQ(field([&] {
              return PlanarBodyModel({1.0, 1.0}, 9.81, s, {{"a", {0, 0}, 0, law}});
            }),
            "surface.omega");
  EXPECT_EQ(field([&] { return make_rod(1.0, 0.0, 9.81, {}, law); }), "half_length");
}

}  // namespace
}  // namespace clatter::model
