#pragma once
/// @file
/// The double pendulum whose lower end slides on a vertical belt ([B] §6.2–6.3, Figs 6.3 and 6.6;
/// spec/000_thesis.md §7 with its fixes): massless links l₁, l₂, point masses m₁, m₂ at their
/// ends, absolute angles q = (θ, φ), a constant torque T at the top joint, the belt in the plane
/// at normal distance d from the top joint, moving with velocity V along its tangent n₁.
/// @verbatim
///   contact point   c = (−l₁ cos θ − l₂ cos φ,  l₁ sin θ + l₂ sin φ + d)   (c₁ along n₁, c₂ = gap)
///   ċ = N q̇,        N = ∂c/∂q = [[l₁ sin θ, l₂ sin φ], [l₁ cos θ, l₂ cos φ]]
///   M(q) q̈ + L(q, q̇) + U(q) = Nᵀ λ,    λ = (λ₁, λ₂) = (tangential, normal) contact force
///   M = [[(m₁+m₂) l₁², m₂ l₁ l₂ cos(θ−φ)], [m₂ l₁ l₂ cos(θ−φ), m₂ l₂²]]
///   L = m₂ l₁ l₂ sin(θ−φ) (φ̇², −θ̇²)ᵀ            ([FIX]: [B] prints (φ̇², θ̇²))
///   U = ((m₁+m₂) g l₁ sin θ − T,  m₂ g l₂ sin φ)ᵀ
///   W = N M⁻¹ Nᵀ = [[A, B], [B, C]]               (computed, not [B]'s garbled (6.23))
///   slip velocity relative to the belt  v_T = ċ₁ − V;  Coulomb in sliding: λ₁ = −μ sgn(v_T) λ₂
///   Painlevé: k_N = C − μ sgn(v_T) B < 0,  critical μ_c = C / (sgn(v_T) B)
/// @endverbatim
/// Units: m, kg, s, rad, N·m. The potential is V = −(m₁+m₂) g l₁ cos θ − m₂ g l₂ cos φ.

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/core/types.hpp"

namespace clatter::model {

struct DoublePendulumBelt {
  double m1{0.5}, m2{0.5};    ///< point masses [kg]
  double l1{1.0}, l2{1.0};    ///< link lengths [m]
  double g{9.81};             ///< gravity [m/s²]
  double torque{0.0};         ///< T at the top joint [N·m]
  double d{0.0};              ///< normal distance of the top joint from the belt plane [m]
  double belt_velocity{0.0};  ///< V along n₁ [m/s]

  /// Throws InvalidArgument naming the field unless masses, lengths, g > 0 and all finite.
  void validate() const;

  [[nodiscard]] Mat2 mass_matrix(const Vec2& q) const;
  /// L(q, q̇) + U(q): everything but the inertia and the contact force.
  [[nodiscard]] Vec2 bias(const Vec2& q, const Vec2& qd) const;
  [[nodiscard]] Mat2 contact_jacobian(const Vec2& q) const;  ///< N
  [[nodiscard]] Vec2 contact_position(const Vec2& q) const;  ///< c
  /// Ṅ q̇ (the velocity-product part of c̈).
  [[nodiscard]] Vec2 contact_bias(const Vec2& q, const Vec2& qd) const;
  [[nodiscard]] ContactMatrix delassus(const Vec2& q) const;  ///< W = N M⁻¹ Nᵀ
  /// q̈ = M⁻¹(Nᵀλ − L − U).
  [[nodiscard]] Vec2 acceleration(const Vec2& q, const Vec2& qd, const Vec2& lambda) const;
  /// The same pendulum with d chosen so that the end touches the belt at q (c₂(q) = 0).
  [[nodiscard]] DoublePendulumBelt touching(const Vec2& q) const;

  /// [B] (6.29)–(6.30) as printed: the normal force and the torque of a static sliding
  /// equilibrium (q̇ = q̈ = 0) with λ₁ = +μ₀λ₂. (The printed sign of friction is the one that
  /// keeps λ₂ > 0 in [B]'s configurations; it is opposite to the slip −V that its impact
  /// experiment uses; spec/000_thesis.md §7 "sign caveat". Used only to set T.)
  struct Equilibrium {
    double lambda_N{0.0};
    double torque{0.0};
  };
  [[nodiscard]] Equilibrium printed_equilibrium(const Vec2& q, double mu0) const;
};

}  // namespace clatter::model
