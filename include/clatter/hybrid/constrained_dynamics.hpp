#pragma once
/// @file
/// Accelerations and contact forces of the body with its closed contacts held
/// ([BP] §4.1 states S2, S3, S5 in general form; [B] §5.3 with the corrected State 3).
///
/// For the closed contacts, with rows G (constraint directions) and D (force directions):
/// @verbatim
///   sliding (s = sgn v_T):  G = J_N,          D = J_N − s μ_d J_T,   λ_T = −s μ_d λ_N
///   sticking:               G = [J_T; J_N],   D = [J_T; J_N]
///   M q̈ = f + Dᵀ λ,   G q̈ + γ_G = a*              (γ from dv/dt = J q̈ + γ)
///   K λ = a* − γ_G − G M⁻¹ f,   K = G M⁻¹ Dᵀ
///   a*_N = −2ζω_b v_N − ω_b² g_N,   a*_T = −ω_b v_T   (Baumgarte terms: drift is damped, and they
///                                                      vanish on the exact constraint)
/// @endverbatim
/// For one sliding contact K = J_N M⁻¹ (J_N − sμJ_T)ᵀ = k_N, the normal rate constant of the slip
/// mode (rate_constants.hpp): k_N ≤ 0 is the Painlevé situation (no consistent λ_N ≥ 0, or two);
/// it is reported, not resolved. Redundant rows (a flat rod sticking at both ends) make K singular:
/// the minimum-norm λ is used, and then the tangential force of sticking contacts with the same
/// J_T row is shared in proportion to their normal forces (so that each is in its cone exactly
/// when the group is; a flat rod's two ends get equal shares).
/// The relative contact accelerations a = J q̈ + γ of every contact (open ones too: the free
/// accelerations) are returned; λ_N < 0 means the contact would pull (lift-off). With
/// ContactScope::kClosed only the closed contacts' kinematics and accelerations are computed
/// (the right-hand side of a Runge–Kutta phase, whose cost then does not grow with open contacts).

#include <array>
#include <cstdint>

#include "clatter/hybrid/contact_mode.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {

using model::kMaxContacts;
using model::VecA;
using model::VecQ;
using Modes = std::array<ContactMode, kMaxContacts>;

/// Baumgarte constraint stabilization: ω_b [1/s] and damping ratio ζ. ω_b = 0 disables it. The
/// default 1/s corrects drift over about a second; a stiffer ω_b adds large, fast terms to the
/// equations (ω_b² h(t)) that cost Runge–Kutta steps (ω_b = 10: 3.4 times as many when riding a
/// table) for no gain, since closed contacts start exactly on their constraints.
struct Stabilization {
  double omega{1.0};
  double zeta{1.0};
};

/// The result, and the model evaluation it was computed from (M, f, ψ, P_a, contacts).
struct ConstrainedDynamics {
  model::Evaluation eval;                   ///< the system at (t, q, q̇, a)
  VecQ qdd{};                               ///< q̈
  std::array<Vec2, kMaxContacts> lambda{};  ///< (λ_T, λ_N) per contact [N]
  std::array<Vec2, kMaxContacts> accel{};   ///< (a_T, a_N) = J q̈ + γ [m/s²]
  std::array<double, kMaxContacts> k_N{};   ///< sliding contacts: J_N M⁻¹ (J_N − sμ_d J_T)ᵀ
  int painleve_contact{-1};                 ///< a sliding contact with k_N ≤ 0, or −1
  double painleve_k_N{0.0};                 ///< its k_N

  /// Kinematics of contact c.
  [[nodiscard]] const model::ContactGeometry& kin(int c) const {
    return eval.contacts[static_cast<std::size_t>(c)];
  }
};

/// Which contacts' kinematics (ConstrainedDynamics::kin) and accelerations are computed.
enum class ContactScope : std::uint8_t {
  kAll,     ///< every contact
  kClosed,  ///< the closed ones (modes); the entries of open contacts are left as they were
};

/// Fills `out` (no allocation: a scratch object reused by the caller). Sliding contacts use the
/// dynamic coefficient μ_d of model::Contact. λ and k_N are set for every contact (0 if open).
/// @pre q, q̇, a finite.
void constrained_dynamics(const model::System& model, double t, const VecQ& q, const VecQ& qd,
                          const VecA& aux, const Modes& modes, const Stabilization& stab,
                          ConstrainedDynamics& out, ContactScope scope = ContactScope::kAll);
/// The same, returned by value (tests and cold paths), for a model without auxiliary states.
[[nodiscard]] ConstrainedDynamics constrained_dynamics(const model::System& model, double t,
                                                       const VecQ& q, const VecQ& qd,
                                                       const Modes& modes,
                                                       const Stabilization& stab);

}  // namespace clatter::hybrid
