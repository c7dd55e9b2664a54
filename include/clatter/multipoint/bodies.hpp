#pragma once
/// @file
/// The models of [R] thesis Ch. 6, 8 and App. D as multi-point impact inputs: mass matrix M, the
/// stacked Jacobian J of their contacts, contact frames and body points, at the collision instant
/// (spec/004_multibody.md §5). Each factory throws InvalidArgument naming the field for bad
/// parameters. Frames are sign-consistent: N points into the body that receives +Λ, v_N < 0
/// approaching. Planar models use q = (x, y, θ) of the centre of mass, v_P = V + θ̇ (−r_y, r_x).
///
/// 3-D rigid bodies use the thesis's body-fixed 1-2-3 Euler angles (q₄, q₅, q₆) (thesis 3.9):
/// @verbatim
///   ω = S(q) (q̇₄, q̇₅, q̇₆),  S = [[1, 0, s₅], [0, c₄, −s₄c₅], [0, s₄, c₄c₅]]
///   R = [b₁ b₂ b₃],  b₁ = (c₅c₆, s₄s₅c₆ + c₄s₆, −c₄s₅c₆ + s₄s₆),
///                   b₂ = (−c₅s₆, c₄c₆ − s₄s₅s₆, s₄c₆ + c₄s₅s₆),  b₃ = b₁ × b₂
///   M = diag(m 𝟙₃, Sᵀ R I_body Rᵀ S)      row of a contact axis e at r:  [eᵀ, (r × e)ᵀ S]
/// @endverbatim
/// (singular at q₅ = ±90°; all models here are at q₄ = q₅ = q₆ = 0 where S = 𝟙).

#include <cstdint>
#include <vector>

#include "clatter/multipoint/multipoint_input.hpp"

namespace clatter::multipoint {

/// Planar ball in a corner (thesis §6.1, Table 6.1, B.2): ground contact 1 at r = (0, −R) with
/// (T, N) = (x, y), wall contact 2 at r = (R, 0) with (T, N) = (y, −x). Mass and inertia are not
/// given by the thesis; velocities depend only on I/(mR²), and a disk (½) reproduces Table 6.1.
struct BallInCorner {
  double m{1.0};               ///< [kg]
  double R{0.5};               ///< [m] (q₂ = 0.5 m at contact)
  double inertia_factor{0.5};  ///< I = factor · m R²
  double mu_s{0.6};
  double mu_d{0.35};
  Vec3 qdot_pre{8.0, -4.43, 0.0};  ///< Table 6.1 pre-impact (q̇₁, q̇₂, q̇₃)
};
[[nodiscard]] Input ball_in_corner(const BallInCorner& p);

/// Planar rocking block (thesis §6.2, Tables 6.2–6.3; Yilmaz et al. 2009): flat, corners 1 at
/// (−b/2, −h/2) and 2 at (b/2, −h/2), uniform I = m(b² + h²)/12. Pre-impact state (not given by
/// the thesis): rocking about corner 1 with angular velocity ω⁻ < 0, plus a common forward slip
/// v_T⁻ of both corners, so v₁⁻ = (v_T⁻, 0), v₂⁻ = (v_T⁻, ω⁻ b).
struct RockingBlock {
  double m{2.5};
  double b{0.1087};  ///< width [m]
  double h{0.0645};  ///< height [m]
  double mu_s{0.0};
  double mu_d{0.0};
  double omega_pre{-1.0};  ///< ω⁻ [rad/s], < 0
  double slip_pre{0.0};    ///< v_T⁻ of both corners [m/s]
};
[[nodiscard]] Input rocking_block(const RockingBlock& p);

/// The most balls a cradle holds: one speed per ball (≤ kMaxDofs), one contact per neighbouring
/// pair (≤ kMaxContacts).
inline constexpr int kMaxCradleBalls = kMaxContacts + 1 < kMaxDofs ? kMaxContacts + 1 : kMaxDofs;

/// Newton's cradle of pendulums (thesis §6.3, App. D, B.3): ball i hangs at length L (to its
/// centre) from pivot i, pivots 2R apart, q_i the string angle, I_pivot = m_iL² + (2/5)m_iR²
/// (solid spheres). Contact i joins balls i and i+1 at the height of the centres: N = x (from i to
/// i+1), T = y, v_N = L(q̇_{i+1} − q̇_i), v_T = −R(q̇_i + q̇_{i+1}). Ball A (index 0) arrives with
/// centre speed v₁⁻ = L q̇₁⁻; the others are at rest and touching.
struct Cradle {
  std::vector<double> masses{1.0, 1.0, 1.0};  ///< [kg], 2 … kMaxCradleBalls balls
  double L{0.30};
  double R{0.05};
  double v_pre{1.304};  ///< centre speed of ball A [m/s], > 0
  double mu_s{0.0};
  double mu_d{0.0};
};
[[nodiscard]] Input cradle(const Cradle& p);

/// Euler 1-2-3 rate matrix S (ω = S q̇_rot) and rotation R of the thesis (3.9).
[[nodiscard]] Mat3 euler123_rate_matrix(double q4, double q5);
[[nodiscard]] Mat3 euler123_rotation(double q4, double q5, double q6);

/// 3-D sphere hitting a corner (thesis §3.2, §8.1): ground z = 0 at B, walls x = R and y = R at C
/// and D (seen from the centre). Points: B r = (0, 0, −R), N = z, T = (x, y); C r = (R, 0, 0),
/// N = −x, T = (z, y); D r = (0, R, 0), N = −y, T = (x, z). The thesis gives m = 1 kg, R = 0.5 m,
/// μ = 0.35, e* = 0.5, ω⁻ = 0, and calls the velocity "arbitrary".
struct SphereInCorner {
  double m{1.0};
  double R{0.5};
  double mu_s{0.6};
  double mu_d{0.35};
  Vec3 v_pre{1.5, 1.0, -3.0};     ///< centre velocity [m/s]
  Vec3 omega_pre{0.0, 0.0, 0.0};  ///< [rad/s]
};
[[nodiscard]] Input sphere_in_corner(const SphereInCorner& p);

enum class BlockPoints : std::uint8_t {
  kThreeCorners,  ///< A, B, C (thesis §8.2.1): A = (−l/2, −b/2), B = (l/2, −b/2), C = (l/2, b/2)
  kFourCorners,    ///< A, B, C, D (§8.2.2), D = (−l/2, b/2)
  kThreeCentered,  ///< A, B and C = (0, b/2): a triangle around G (§8.2.3, Fig. 8.13b)
};

/// 3-D rocking block on the ground (thesis §8.2), flat at the impact, bottom points at z = −h/2,
/// uniform cuboid inertia. The thesis gives m = 2.5 kg, μ_s = 0.6, μ_d = 0.35, e* = 0.5; l, b, h
/// and the state are not given. Pre-impact state: rocking about the edge A–B (y = −b/2) with
/// angular velocity ω⁻ (ω_x < 0 brings C and D down) and the pivot A moving with slip velocity
/// (v_x, v_y) on the ground: v_G = (v_x, v_y, 0) − ω⁻ × r_A.
struct Block3d {
  double m{2.5};
  double l{0.20};  ///< length along x [m]
  double b{0.10};  ///< width along y [m]
  double h{0.05};  ///< height [m]
  double mu_s{0.6};
  double mu_d{0.35};
  BlockPoints points{BlockPoints::kThreeCorners};
  Vec3 omega_pre{-3.0, 0.0, 0.5};  ///< [rad/s]
  Vec2 slip_pre{0.05, 0.02};       ///< velocity of A on the ground [m/s]
};
[[nodiscard]] Input block_3d(const Block3d& p);

}  // namespace clatter::multipoint
