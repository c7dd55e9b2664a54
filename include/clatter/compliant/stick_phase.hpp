#pragma once
/// @file
/// Closed-form stick phase of the compliant contact ([Bi] Eq. 3.47, 3.72; spec 002_pendulum.md
/// §3.3): C is fixed, u̇1 = ẋ, u̇3 = ż, and
/// @verbatim
///   ü = −W K u,   K = diag(k1, k3)
/// @endverbatim
/// W K is similar to the symmetric S = K^½ W K^½ ⪰ 0, so with y = K^½ u and S = Q diag(σᵢ) Qᵀ the
/// modal coordinates q = Qᵀy obey q̈ᵢ = −σᵢ qᵢ. σᵢ are the squared frequencies Ω², ω² of [Bi] 3.72
/// (printed with a stray 1/(2m), spec §6 item 3). A singular W (pendulum) gives σ = 0: that mode
/// moves at constant velocity (zero for a pendulum, whose contact velocity lies in range W), so no
/// modal solver divides by a frequency (spec §6 item 9). Impulse: ΔP = −K ∫u dt = −K^½ Q ∫q dt.
///
/// Events (each is a ModalSum, positive during the stick, located by first_root):
/// @verbatim
///   separation        −u3           = 0   (u3 back to 0)
///   slip onset ŝ = +1 −μη u3 − u1   = 0   (u1 = μη|u3|, F1 = −μF3)
///   slip onset ŝ = −1 −μη u3 + u1   = 0   (u1 = −μη|u3|, F1 = +μF3)
///   end of compression −u̇3         = 0
/// @endverbatim
/// Units: SI; τ is the time since the start of the phase [s].

#include "clatter/compliant/compliant_contact.hpp"
#include "clatter/compliant/modal_root.hpp"
#include "clatter/core/eigen.hpp"

namespace clatter::compliant {

class StickFlow {
 public:
  /// @pre validate(model) passes; start is a stick state (u1_dot = x_dot).
  StickFlow(const Model& model, const State& start);

  /// State at τ ≥ 0 after the start (t = start.t + τ).
  [[nodiscard]] State at(double tau) const;

  /// c·u(τ) as a ModalSum, c = (c1, c3).
  [[nodiscard]] ModalSum deformation(double c1, double c3) const;

  /// True when the motion is periodic with one frequency: one σ = 0 mode with no drift (singular
  /// W, velocity in range W) and one σ > 0 mode. Then every event function is c + a cos + b sin.
  [[nodiscard]] bool periodic() const { return periodic_; }
  /// Squared modal frequencies σ₁ ≤ σ₂ [1/s²] (0 for a singular W).
  [[nodiscard]] const Eigen::Vector2d& sigma() const { return sigma_; }
  /// 1/√σ_max [s].
  [[nodiscard]] double time_scale() const;

 private:
  const Model* model_;
  State start_;
  Eigen::Vector2d sigma_;
  Eigen::Matrix2d map_;  // u = map_ q, map_ = K^{-½} Q
  Eigen::Vector2d q0_, qdot0_;
  bool periodic_{false};
};

}  // namespace clatter::compliant
