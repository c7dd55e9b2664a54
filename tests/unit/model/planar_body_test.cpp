// Contact kinematics of a planar rigid body ([B] §3.2, [BP] §2): the closed-form W and velocity
// jump of BodyContact against the generic W = J M⁻¹ Jᵀ and Δq̇ = M⁻¹JᵀΛ (an independent path),
// the slender-rod specialisation for both ends, the two-body sum, and input validation.

#include "clatter/model/planar_body.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "clatter/contact/delassus.hpp"

namespace clatter::model {
namespace {

MassMatrix<3> body_mass(const PlanarBody& b) { return Eigen::Vector3d(b.m, b.m, b.I).asDiagonal(); }

TEST(PlanarBody, ClosedFormMatchesGenericDelassus) {
  const PlanarBody body{2.5, 0.7};
  for (double theta = -3.0; theta <= 3.0; theta += 0.37) {
    for (int end : {1, 2}) {
      const BodyContact c = rod_end_contact(body, 0.8, theta, end);
      const ContactMatrix generic = delassus<3>(body_mass(body), c.jacobian());
      const ContactMatrix closed = c.W();
      EXPECT_NEAR(closed.A, generic.A, 1e-14);
      EXPECT_NEAR(closed.B, generic.B, 1e-14);
      EXPECT_NEAR(closed.C, generic.C, 1e-14);
      const Vec2 Lambda{0.3, 1.1};
      EXPECT_LE((c.velocity_jump(Lambda) - velocity_jump<3>(body_mass(body), c.jacobian(), Lambda))
                    .norm(),
                1e-14);
    }
  }
}

// [B] §3.2 / [BP] §3.6: uniform rod m = L = 1, I = 1/3: A = 1 + 3 sin²θ, B = −3 sinθ cosθ,
// C = 1 + 3 cos²θ, the same for both ends; det W = 4.
TEST(PlanarBody, SlenderRodBothEnds) {
  const PlanarBody rod = slender_rod(1.0, 1.0);
  EXPECT_DOUBLE_EQ(rod.I, 1.0 / 3.0);
  for (double theta = 0.05; theta < std::numbers::pi; theta += 0.2) {
    const double s = std::sin(theta), c = std::cos(theta);
    for (int end : {1, 2}) {
      const ContactMatrix W = rod_end_contact(rod, 1.0, theta, end).W();
      EXPECT_NEAR(W.A, 1 + 3 * s * s, 1e-14);
      EXPECT_NEAR(W.B, -3 * s * c, 1e-14);
      EXPECT_NEAR(W.C, 1 + 3 * c * c, 1e-14);
      EXPECT_NEAR(W.det(), 4.0, 1e-13);
    }
  }
  // contact velocity of end 1: (V_T + L sinθ θ̇, V_N − L cosθ θ̇) ([B] §3.2)
  const BodyContact p1 = rod_end_contact(rod, 1.0, 0.3, 1);
  const Vec2 v = p1.contact_velocity({0.2, -1.0, 0.5});
  EXPECT_NEAR(v.x(), 0.2 + std::sin(0.3) * 0.5, 1e-15);
  EXPECT_NEAR(v.y(), -1.0 - std::cos(0.3) * 0.5, 1e-15);
  // [BP] §3.6 impulse recovery: θ̇ += 3(sΛ_T − cΛ_N) for P₁, 3(−sΛ_T + cΛ_N) for P₂
  const Vec2 Lambda{0.4, 0.9};
  const double s = std::sin(0.3), c = std::cos(0.3);
  EXPECT_NEAR(p1.velocity_jump(Lambda).z(), 3 * (s * Lambda.x() - c * Lambda.y()), 1e-14);
  EXPECT_NEAR(rod_end_contact(rod, 1.0, 0.3, 2).velocity_jump(Lambda).z(),
              3 * (-s * Lambda.x() + c * Lambda.y()), 1e-14);
}

// Energy bookkeeping: the body's kinetic-energy change equals ½ Λ·(v⁻ + v⁺) in contact space.
TEST(PlanarBody, ContactSpaceEnergyEqualsBodyEnergy) {
  const BodyContact c = rod_end_contact({1.3, 0.2}, 0.6, 1.1, 1);
  const Vec3 qdot{0.4, -2.0, 1.5};
  const Vec2 Lambda{-0.3, 0.8};
  const Vec3 qdot_post = qdot + c.velocity_jump(Lambda);
  const double dE_body = c.kinetic_energy(qdot_post) - c.kinetic_energy(qdot);
  const double dE_contact =
      0.5 * Lambda.dot(c.contact_velocity(qdot) + c.contact_velocity(qdot_post));
  EXPECT_NEAR(dE_body, dE_contact, 1e-14);
}

// [BP] §2: W = w + w′ for two bodies, and the relative velocity change equals W Λ when body ′
// receives −Λ.
TEST(PlanarBody, TwoBodies) {
  const BodyContact a = rod_end_contact({1.0, 0.3}, 0.5, 0.4, 1);
  const BodyContact b = rod_end_contact({2.0, 0.9}, 0.7, 2.0, 2);
  const ContactMatrix W = two_body_W(a, b);
  const Vec2 Lambda{0.2, 1.0};
  const Vec3 qa{0.1, -0.5, 0.3}, qb{0.0, 0.4, -0.2};
  const Vec2 rel_pre = a.contact_velocity(qa) - b.contact_velocity(qb);
  const Vec2 rel_post = a.contact_velocity(qa + a.velocity_jump(Lambda)) -
                        b.contact_velocity(qb + b.velocity_jump(-Lambda));
  EXPECT_LE((rel_post - rel_pre - W.apply(Lambda)).norm(), 1e-14);
}

TEST(PlanarBody, BadInputNamesTheField) {
  try {
    validate(PlanarBody{-1.0, 1.0});
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.field(), "mass");
  }
  EXPECT_THROW(validate(PlanarBody{1.0, 0.0}), InvalidArgument);
  EXPECT_THROW((void)rod_end_contact({1, 1}, 1.0, 0.2, 3), InvalidArgument);
  EXPECT_THROW((void)rod_end_contact({1, 1}, -1.0, 0.2, 1), InvalidArgument);
  Eigen::Matrix3d M = Eigen::Matrix3d::Identity();
  M(2, 2) = -1.0;
  EXPECT_THROW((void)delassus<3>(M, ContactJacobian<3>::Identity()), InvalidArgument);
}

}  // namespace
}  // namespace clatter::model
