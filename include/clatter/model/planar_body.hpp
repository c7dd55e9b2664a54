#pragma once
/// @file
/// A planar rigid body with a point contact, expressed in the contact frame (T, N)
/// ([B] §3.2, [BP] §2). Generalized coordinates q = (q_T, q_N, θ): centre of mass G in the contact
/// frame and the angle of the body; mass matrix M = diag(m, m, I). The contact point P is at
/// r_GP = (r_T, r_N) from G, so that
/// @verbatim
///   v_P = (V_T − θ̇ r_N,  V_N + θ̇ r_T),    J = [[1, 0, −r_N],
///                                               [0, 1,  r_T]]
///   W = J M⁻¹ Jᵀ:  A = 1/m + r_N²/I,  B = −r_T r_N / I,  C = 1/m + r_T²/I
/// @endverbatim
/// Slender rod ([B] §3.2, [BP] §2): half-length L, angle θ, end 1 at P₁ = G − L(cosθ, sinθ) and end
/// 2 at P₂ = G + L(cosθ, sinθ). For end 1, A = 1/m + L² sin²θ/I, B = −L² sinθ cosθ/I, C = 1/m + L²
/// cos²θ/I (the thesis prints B without L², an erratum); end 2 has the same W. For a uniform rod I
/// = m L²/3, and with m = L = 1: A = 1 + 3 sin²θ, B = −3 sinθ cosθ, C = 1 + 3 cos²θ. (In [NDC]'s
/// angle convention B has the opposite sign; W is always built from the model here.) Two bodies
/// touching at P: the relative contact velocity is v_P − v′_P and W = w + w′ ([BP] §2); body ′
/// receives −Λ. Units SI, angles in radians.

#include <cmath>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/core/error.hpp"
#include "clatter/core/types.hpp"

namespace clatter::model {

struct PlanarBody {
  double m{1.0};  ///< mass [kg], in [1e-100, 1e100]
  double I{1.0};  ///< moment of inertia about G [kg·m²], in [1e-100, 1e100]
};

/// Throws InvalidArgument naming "mass" or "inertia" unless both lie in [1e-100, 1e100].
void validate(const PlanarBody& body);

/// The contact point of a body: offset r_GP from the centre of mass, in the contact frame [m].
struct BodyContact {
  PlanarBody body{};
  Vec2 r_GP{0.0, -1.0};

  /// Rows J_T, J_N acting on (V_T, V_N, θ̇).
  [[nodiscard]] Eigen::Matrix<double, 2, 3> jacobian() const {
    return (Eigen::Matrix<double, 2, 3>() << 1.0, 0.0, -r_GP.y(), 0.0, 1.0, r_GP.x()).finished();
  }
  /// Contact-point velocity v_P = J (V_T, V_N, θ̇).
  [[nodiscard]] Vec2 contact_velocity(const Vec3& qdot) const {
    return {qdot.x() - qdot.z() * r_GP.y(), qdot.y() + qdot.z() * r_GP.x()};
  }
  [[nodiscard]] ContactMatrix W() const {
    const double r_T = r_GP.x();
    const double r_N = r_GP.y();
    const double inv_m = 1.0 / body.m;
    const double inv_I = 1.0 / body.I;
    return {inv_m + r_N * r_N * inv_I, -r_T * r_N * inv_I, inv_m + r_T * r_T * inv_I};
  }
  /// Δq̇ = M⁻¹ Jᵀ Λ for q̇ = (V_T, V_N, θ̇).
  [[nodiscard]] Vec3 velocity_jump(const Vec2& Lambda) const {
    const double inv_m = 1.0 / body.m;
    return {Lambda.x() * inv_m, Lambda.y() * inv_m,
            (-r_GP.y() * Lambda.x() + r_GP.x() * Lambda.y()) / body.I};
  }
  /// Kinetic energy ½ m |V|² + ½ I θ̇² [J].
  [[nodiscard]] double kinetic_energy(const Vec3& qdot) const {
    return 0.5 * body.m * (qdot.x() * qdot.x() + qdot.y() * qdot.y()) +
           0.5 * body.I * qdot.z() * qdot.z();
  }
};

/// Contact at an end of a rod of half-length L [m] at angle θ [rad]: end 1 at G − L(cosθ, sinθ),
/// end 2 at G + L(cosθ, sinθ). Throws InvalidArgument naming "offset", "angle" or "end".
[[nodiscard]] inline BodyContact rod_end_contact(const PlanarBody& body, double L, double theta,
                                                 int end) {
  require(std::isfinite(L) && L > 0.0, "offset", "must be finite and > 0", L);
  require_finite(theta, "angle");
  require(end == 1 || end == 2, "end", "must be 1 or 2", end);
  const double signed_L = end == 1 ? -L : L;
  return {body, {signed_L * std::cos(theta), signed_L * std::sin(theta)}};
}

/// Uniform slender rod: I = m L²/3.
[[nodiscard]] inline PlanarBody slender_rod(double m, double L) { return {m, m * L * L / 3.0}; }

/// W = w + w′ for two bodies touching at one point.
[[nodiscard]] inline ContactMatrix two_body_W(const BodyContact& a, const BodyContact& b) {
  const ContactMatrix wa = a.W();
  const ContactMatrix wb = b.W();
  return {wa.A + wb.A, wa.B + wb.B, wa.C + wb.C};
}

}  // namespace clatter::model
