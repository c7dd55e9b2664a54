// Seed numbers of Nordmark, Dankowicz & Champneys 2009 ([NDC], spec/003_dib.md §5.3–5.4, §5.7):
// the contact matrix W and the rate constants at the two grazing-free boundary cases, and the rows
// of the impact-law Jacobian ∂_z g and ∂_μ g printed in the paper, recomputed here by central
// finite differences of the full rod impact map (closed form + Δq̇ = M⁻¹JᵀΛ).
//
// The rod of [NDC] §2.2: unit mass, length 2, q = (x, y, θ) = position of the contact end P₁ and
// the CCW angle, T = ½ẋ² + ½ẏ² + (ẋ sinθ + ẏ cosθ)θ̇ + (2/3)θ̇², so that
// M = [[1, 0, sinθ], [0, 1, cosθ], [sinθ, cosθ, 4/3]] and J = [[1, 0, 0], [0, 1, 0]].
// W is built by the generic delassus(M, J), not from the closed-form A, B, C.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "clatter/contact/delassus.hpp"
#include "clatter/laws/stronge.hpp"

namespace clatter {
namespace {

using Vec6 = Eigen::Matrix<double, 6, 1>;

MassMatrix<3> ndc_rod_mass(double theta) {
  const double s = std::sin(theta), c = std::cos(theta);
  return (MassMatrix<3>() << 1, 0, s, 0, 1, c, s, c, 4.0 / 3.0).finished();
}
ContactJacobian<3> ndc_rod_jacobian() {
  return (ContactJacobian<3>() << 1, 0, 0, 0, 1, 0).finished();
}

// printed values carry 4 decimals: half a unit of the last digit plus the rounding of the inputs
constexpr double kFourDigits = 2e-4;

TEST(NdcRegression, ContactMatrixAndRateConstantsCase13) {
  // §5.3: z* has θ = 0.8691; Table 3 row 1-3: μ = 0.8507
  const ContactMatrix W = delassus<3>(ndc_rod_mass(0.8691), ndc_rod_jacobian());
  EXPECT_NEAR(W.A, 2.7500, kFourDigits);
  EXPECT_NEAR(W.B, 1.4790, kFourDigits);
  EXPECT_NEAR(W.C, 2.2500, kFourDigits);
  const RateConstants k = RateConstants::make(W, 0.8507);
  EXPECT_NEAR(k.k_T_pos, -0.8604, kFourDigits);
  EXPECT_NEAR(k.k_N_pos, 0.9918, kFourDigits);
  EXPECT_NEAR(k.k_T_neg, 3.8184, kFourDigits);
  EXPECT_NEAR(k.k_N_neg, 3.5082, kFourDigits);
  EXPECT_NEAR(k.k_N_stick, 1.4546, kFourDigits);
  EXPECT_NEAR(W.det(), 4.0, 1e-12);  // [NDC] §2.2 [derived]: AC − B² ≡ 4
}

TEST(NdcRegression, ContactMatrixAndRateConstantsCase59) {
  // §5.4: θ = 2.2817; μ* = 0.544805 (refined critical value, spec §5.7), where k_T⁻ = 0
  const ContactMatrix W = delassus<3>(ndc_rod_mass(2.2817), ndc_rod_jacobian());
  EXPECT_NEAR(W.A, 2.7227, kFourDigits);
  EXPECT_NEAR(W.B, -1.4834, kFourDigits);
  EXPECT_NEAR(W.C, 2.2773, kFourDigits);
  const RateConstants k = RateConstants::make(W, 0.544805);
  EXPECT_NEAR(k.k_T_pos, -2.9667, kFourDigits);
  EXPECT_NEAR(k.k_N_pos, 3.0855, kFourDigits);
  EXPECT_NEAR(k.k_T_neg, 0.0, kFourDigits);
  EXPECT_NEAR(k.k_N_neg, 1.4692, kFourDigits);
  EXPECT_NEAR(k.k_N_stick, 1.4692, kFourDigits);
  EXPECT_TRUE(std::abs(k.k_T_neg) < 1e-4);
}

// The impact law on the full state z = (x, y, θ, v_T, v_N, ω) with the map of a forced region
// (the paper differentiates one region's formula; at a boundary point a finite difference must not
// straddle two regions, spec/003_dib.md §7).
Vec6 impact_map(const Vec6& z, double mu, double e_star, stronge::MapKind map, bool stick_after) {
  const MassMatrix<3> M = ndc_rod_mass(z(2));
  const ContactJacobian<3> J = ndc_rod_jacobian();
  const ContactMatrix W = delassus<3>(M, J);
  const RateConstants k = RateConstants::make(W, mu);
  const Vec2 v{z(3), z(4)};
  // forced first mode: + slip (both cases of §5.3–5.4 have v_T > 0)
  const double kp_T = stick_after ? 0.0 : k.k_T_neg;
  const double kp_N = stick_after ? k.k_N_stick : k.k_N_neg;
  const Vec2 v_post = map == stronge::MapKind::kI
                          ? stronge::map_I(v, k.k_T_pos, k.k_N_pos, e_star)
                          : stronge::map_III(v, k.k_T_pos, k.k_N_pos, kp_T, kp_N, e_star);
  const Vec2 Lambda = W.solve(v_post - v);
  const GeneralizedVelocity<3> qdot = z.tail<3>() + velocity_jump<3>(M, J, Lambda);
  Vec6 out = z;
  out.tail<3>() = qdot;
  return out;
}

Eigen::Matrix<double, 6, 7> jacobian_fd(const std::function<Vec6(const Vec6&, double)>& g,
                                        const Vec6& z, double mu) {
  Eigen::Matrix<double, 6, 7> D;
  constexpr double h = 1e-6;
  for (int j = 0; j < 6; ++j) {
    Vec6 zp = z, zm = z;
    zp(j) += h;
    zm(j) -= h;
    D.col(j) = (g(zp, mu) - g(zm, mu)) / (2 * h);
  }
  D.col(6) = (g(z, mu + h) - g(z, mu - h)) / (2 * h);
  return D;
}

// How far the printed inputs' own rounding moves each Jacobian entry: the sum over the inputs of
// |D(z ± half a unit of its last printed digit) − D(z)| (worst case, to first order).
using Jacobian = Eigen::Matrix<double, 6, 7>;
Jacobian rounding_spread(const std::function<Vec6(const Vec6&, double)>& g, const Vec6& z,
                         double mu, const Vec6& half_unit_z, double half_unit_mu) {
  const Jacobian D = jacobian_fd(g, z, mu);
  Jacobian sum = Jacobian::Zero();
  for (int i = 0; i < 7; ++i) {
    Jacobian worst = Jacobian::Zero();
    for (const double sign : {-1.0, 1.0}) {
      Vec6 zi = z;
      double mui = mu;
      if (i < 6) {
        zi(i) += sign * half_unit_z(i);
      } else {
        mui += sign * half_unit_mu;
      }
      worst = worst.cwiseMax((jacobian_fd(g, zi, mui) - D).cwiseAbs());
    }
    sum += worst;
  }
  return sum;
}

// [NDC] prints the Jacobian to 4 decimals: half a unit of the last digit, 5e-5, plus how far the
// rounding of the printed state and μ* moves the entry (the seed's inputs carry 4–6 digits, so
// their rounding is worse than the printed 4 decimals for the large entries of row 4 and 6).
void expect_row(const Jacobian& D, const Jacobian& spread, int row,
                std::initializer_list<double> want) {
  int j = 0;
  for (double w : want) {
    EXPECT_NEAR(D(row, j), w, 5e-5 + spread(row, j)) << "row " << row + 1 << " col " << j + 1;
    ++j;
  }
}

TEST(NdcRegression, ImpactJacobianCase13Region1) {
  // §5.3: region 1 (Map I), r = 1, at the refined point u* of §5.7 with μ* = 0.850684
  const Vec6 z = (Vec6() << 0.5534, 0.0, 0.86911, 3.28688, -1.89465, -0.01495).finished();
  const auto g = [](const Vec6& x, double mu) {
    return impact_map(x, mu, 1.0, stronge::MapKind::kI, false);
  };
  const auto D = jacobian_fd(g, z, 0.850684);
  const Vec6 half = (Vec6() << 5e-5, 0.0, 5e-6, 5e-6, 5e-6, 5e-6).finished();
  const Jacobian spread = rounding_spread(g, z, 0.850684, half, 5e-7);
  // ∂_z g₁ rows 4–6 and ∂_μ g₁ (last column), as printed
  expect_row(D, spread, 3, {0, 0, -19.9170, 1, 1.7348, 0, -15.4075});
  expect_row(D, spread, 4, {0, 0, 0, 0, -1, 0, 0});
  expect_row(D, spread, 5, {0, 0, 15.1707, 0, -0.0255, 1, 8.8257});
}

TEST(NdcRegression, ImpactJacobianCase59Region5) {
  // §5.4: region 5 (Map III, + slip then stick), r = 1, μ* = 0.544805 (§5.7)
  const Vec6 z = (Vec6() << 0.1155, 0.0, 2.28167, 0.28511, -0.32488, -0.13138).finished();
  const auto g = [](const Vec6& x, double mu) {
    return impact_map(x, mu, 1.0, stronge::MapKind::kIII, true);
  };
  const auto D = jacobian_fd(g, z, 0.544805);
  const Vec6 half = (Vec6() << 5e-5, 0.0, 5e-6, 5e-6, 5e-6, 5e-6).finished();
  const Jacobian spread = rounding_spread(g, z, 0.544805, half, 5e-7);
  expect_row(D, spread, 3, {0, 0, 0, 0, 0, 0, 0});  // "row 4 = 0": the map ends in stick
  expect_row(D, spread, 4, {0, 0, -0.0226, -0.0686, -0.7532, 0, -0.0447});
  expect_row(D, spread, 5, {0, 0, 0.1620, 0.5348, -0.8579, 1, -0.0219});
}

// The same rod through the closed-form rod specialisation of [NDC] §2.2:
// Δθ̇ = −(3/4)(sinθ Δv_T + cosθ Δv_N).
TEST(NdcRegression, RodVelocityUpdateClosedForm) {
  const double theta = 0.8691;
  const MassMatrix<3> M = ndc_rod_mass(theta);
  const Vec2 dv{0.37, -1.2};
  const ContactMatrix W = delassus<3>(M, ndc_rod_jacobian());
  const auto dq = velocity_jump<3>(M, ndc_rod_jacobian(), W.solve(dv));
  EXPECT_NEAR(dq(0), dv.x(), 1e-14);
  EXPECT_NEAR(dq(1), dv.y(), 1e-14);
  EXPECT_NEAR(dq(2), -0.75 * (std::sin(theta) * dv.x() + std::cos(theta) * dv.y()), 1e-14);
}

}  // namespace
}  // namespace clatter
