// Sustained-contact dynamics (constrained_dynamics.hpp) against the seeds' closed forms for the
// slender rod on the oscillating floor: State 2 ([BP] Eqs 33–37, [B] Eq. 5.14) and the corrected
// State 3 (spec/001_hybrid_scheme.md §4.1 [derived]: the printed α4–α6 do not give d̈2 = 0), and
// against the rate constants of the impact library (k_N of the slip mode).

#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/model/planar_body_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "clatter/laws/rate_constants.hpp"

namespace clatter::hybrid {
namespace {

using model::ContactKinematics;

constexpr double kG = 9.81;

model::Surface floor_of(double A, double w) {
  model::Surface s;
  s.amplitude = A;
  s.omega = w;
  return s;
}

// puts end `end` (0: P1, 1: P2) on the surface with zero normal velocity
void place_on_surface(const model::PlanarBodyModel& rod, int end, double t, Vec3& q, Vec3& qd) {
  const ContactKinematics k = rod.contact(end, t, q, qd);
  q.y() -= k.g_N;
  qd.y() -= k.v.y();
}

Modes one_closed(int c, ContactMode m) {
  Modes modes{};
  modes.fill(ContactMode::kOpen);
  modes[static_cast<std::size_t>(c)] = m;
  return modes;
}

TEST(ConstrainedDynamics, RodState2AndCorrectedState3MatchTheSeeds) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const double A = 1.0, w = 4.405;
  for (int trial = 0; trial < 200; ++trial) {
    const double mu = 0.5 * (1.0 + U(rng));  // μ ∈ [0, 1] < 4/3: no Painlevé for the rod
    const model::PlanarBodyModel rod =
        model::make_rod(1.0, 1.0, kG, floor_of(A, w), {LawKind::kStronge, {mu, 0.8}});
    const double t = 10.0 * U(rng);
    const double th = 3.0 * U(rng);
    const double thd = 3.0 * U(rng);
    for (int end = 0; end < 2; ++end) {
      Vec3 q{0.0, 2.0, th};
      Vec3 qd{U(rng), 0.0, thd};
      place_on_surface(rod, end, t, q, qd);
      const double v_T = rod.contact(end, t, q, qd).v.x();
      const ContactMode mode = sliding_mode(v_T);
      const ConstrainedDynamics cd =
          constrained_dynamics(rod, t, q, qd, one_closed(end, mode), Stabilization{});
      // the seeds' s: λ1 = sμλ2 with s = −sgn(v_T)
      const double s = v_T > 0.0 ? -1.0 : 1.0;
      const double sn = std::sin(th), cs = std::cos(th);
      const double floor_acc = A * w * w * std::sin(w * t);
      double lambda2 = 0.0;
      double alpha3 = 0.0;
      if (end == 0) {  // State 2 (P1 held), [BP] Eq. 37
        lambda2 =
            (kG - sn * thd * thd - floor_acc) / (1.0 + 3.0 * cs * cs - 3.0 * s * mu * cs * sn);
        alpha3 = (3.0 * s * mu * sn - 3.0 * cs) * lambda2;
      } else {  // State 3 (P2 held), corrected
        lambda2 =
            (kG + sn * thd * thd - floor_acc) / (1.0 + 3.0 * cs * cs - 3.0 * s * mu * sn * cs);
        alpha3 = (3.0 * cs - 3.0 * s * mu * sn) * lambda2;
      }
      const double scale = 1.0 + std::abs(lambda2);
      EXPECT_NEAR(cd.lambda[static_cast<std::size_t>(end)].y(), lambda2, 1e-12 * scale);
      EXPECT_NEAR(cd.lambda[static_cast<std::size_t>(end)].x(), s * mu * lambda2, 1e-12 * scale);
      EXPECT_NEAR(cd.qdd.x(), s * mu * lambda2, 1e-12 * scale);
      EXPECT_NEAR(cd.qdd.y(), -kG + lambda2, 1e-12 * scale);
      EXPECT_NEAR(cd.qdd.z(), alpha3, 1e-11 * scale);
      // d̈ = 0 on the constraint (the Baumgarte terms vanish at g_N = v_N = 0)
      EXPECT_NEAR(cd.accel[static_cast<std::size_t>(end)].y(), 0.0, 1e-11 * scale);
      // the denominator is k_N of the slip mode (rate_constants.hpp, W from the model)
      const ContactKinematics k = rod.contact(end, t, q, qd);
      const Mat2 W = k.J * Vec3(1.0, 1.0, 3.0).asDiagonal() * k.J.transpose();
      const RateConstants rc = RateConstants::make(ContactMatrix::from_matrix(W), mu);
      EXPECT_NEAR(cd.k_N[static_cast<std::size_t>(end)], v_T > 0.0 ? rc.k_N_pos : rc.k_N_neg,
                  1e-13);
      EXPECT_EQ(cd.painleve_contact, -1);
    }
  }
}

TEST(ConstrainedDynamics, PrintedState3IsWrong) {
  // the printed α5 of [BP] (State 3) does not hold P2 on the floor: documents the erratum
  const double mu = 0.3, th = 0.7, thd = 1.3, t = 0.2, A = 1.0, w = 4.405;
  const model::PlanarBodyModel rod =
      model::make_rod(1.0, 1.0, kG, floor_of(A, w), {LawKind::kStronge, {mu, 0.8}});
  Vec3 q{0.0, 2.0, th};
  Vec3 qd{0.5, 0.0, thd};
  place_on_surface(rod, 1, t, q, qd);
  const double s = rod.contact(1, t, q, qd).v.x() > 0.0 ? -1.0 : 1.0;
  const double sn = std::sin(th), cs = std::cos(th);
  const double num = -kG + sn * thd * thd - A * w * w * std::sin(w * t);
  const double den = 3.0 * s * mu * cs * sn - 1.0 - 3.0 * cs * cs;
  const double printed_qdd_y = -kG + num / den;
  const double printed_qdd_th = (3.0 * s * mu * sn - 3.0 * cs) * num / den;
  // d̈2 = q̈2 − sinθ θ̇² + cosθ θ̈ + Aω² sin ωt must vanish
  const double d2dd =
      printed_qdd_y - sn * thd * thd + cs * printed_qdd_th + A * w * w * std::sin(w * t);
  EXPECT_GT(std::abs(d2dd), 0.1);
}

TEST(ConstrainedDynamics, StickHoldsBothDirections) {
  const model::PlanarBodyModel rod =
      model::make_rod(1.0, 1.0, kG, floor_of(1.0, 2.0), {LawKind::kStronge, {0.9, 0.5}});
  Vec3 q{0.0, 2.0, 0.4};
  Vec3 qd{0.0, 0.0, 0.3};
  place_on_surface(rod, 0, 0.1, q, qd);
  qd.x() -= rod.contact(0, 0.1, q, qd).v.x();  // v_T = 0
  const ConstrainedDynamics cd =
      constrained_dynamics(rod, 0.1, q, qd, one_closed(0, ContactMode::kStick), Stabilization{});
  EXPECT_NEAR(cd.accel[0].x(), 0.0, 1e-12);
  EXPECT_NEAR(cd.accel[0].y(), 0.0, 1e-12);
  EXPECT_GT(cd.lambda[0].y(), 0.0);
}

TEST(ConstrainedDynamics, FlatRodSlidingOnBothEnds) {
  // both ends on a fixed floor, sliding forward: λ_N = mg/2 each, ẍ = −μg, no rotation
  const double mu = 0.2;
  const model::PlanarBodyModel rod =
      model::make_rod(1.0, 1.0, kG, {}, {LawKind::kStronge, {mu, 0.5}});
  const Vec3 q{0.0, 0.0, 0.0};
  const Vec3 qd{2.0, 0.0, 0.0};
  Modes modes{};
  modes.fill(ContactMode::kOpen);
  modes[0] = modes[1] = ContactMode::kSlidePositive;
  const ConstrainedDynamics cd = constrained_dynamics(rod, 0.0, q, qd, modes, Stabilization{});
  EXPECT_NEAR(cd.lambda[0].y(), kG / 2, 1e-12);
  EXPECT_NEAR(cd.lambda[1].y(), kG / 2, 1e-12);
  EXPECT_NEAR(cd.qdd.x(), -mu * kG, 1e-12);
  EXPECT_NEAR(cd.qdd.z(), 0.0, 1e-12);
  // both sticking: the tangential rows are redundant; the minimum-norm forces are used
  modes[0] = modes[1] = ContactMode::kStick;
  const ConstrainedDynamics st =
      constrained_dynamics(rod, 0.0, q, Vec3::Zero(), modes, Stabilization{});
  EXPECT_NEAR(st.qdd.norm(), 0.0, 1e-12);
  EXPECT_NEAR(st.lambda[0].y(), kG / 2, 1e-12);
  EXPECT_NEAR(st.lambda[0].x(), 0.0, 1e-12);
}

TEST(ConstrainedDynamics, PainleveIsReported) {
  // μ > 4/3 at θ = atan 2 with the slip direction that makes k_N = C − μB < 0 ([B] §7: μ_c = 4/3)
  const double mu = 1.6;
  const double th = std::atan(2.0);
  const model::PlanarBodyModel rod =
      model::make_rod(1.0, 1.0, kG, {}, {LawKind::kStronge, {mu, 0.5}});
  for (const double vx : {-1.0, 1.0}) {
    Vec3 q{0.0, 2.0, th};
    Vec3 qd{vx, 0.0, 0.0};
    place_on_surface(rod, 0, 0.0, q, qd);
    const ConstrainedDynamics cd = constrained_dynamics(
        rod, 0.0, q, qd, one_closed(0, sliding_mode(rod.contact(0, 0.0, q, qd).v.x())),
        Stabilization{});
    const double C = 1.0 + 3.0 * std::cos(th) * std::cos(th);
    const double B = -3.0 * std::sin(th) * std::cos(th);  // W_TN of end 1 ([NDC] sign)
    const double k_N = C - (vx > 0 ? 1.0 : -1.0) * mu * B;
    EXPECT_NEAR(cd.k_N[0], k_N, 1e-12);
    EXPECT_EQ(cd.painleve_contact, k_N <= 0.0 ? 0 : -1);
  }
}

}  // namespace
}  // namespace clatter::hybrid
