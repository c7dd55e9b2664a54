#pragma once
/// @file
/// The rod dragged on a belt of [NDC] §5.3 (spec/003_dib.md §2.2, §5.2): a homogeneous rod of
/// unit mass and length 2 (I_G = 1/3) whose end P1 touches the fixed line y = 0; a spring and
/// damper pull it towards a reference moving at v_dr, a van der Pol force drives it vertically,
/// a torsional spring and damper hold its angle. No gravity. Kind "rod_on_belt". Dimensionless
/// (the paper's units).
///
/// Coordinates: q = (x, y, θ), (x, y) = P1, θ the CCW angle of the rod with P2 to the left of P1:
/// @verbatim
///   G = (x − cos θ, y + sin θ),   P2 = (x − 2 cos θ, y + 2 sin θ)
///   T = ẋ²/2 + ẏ²/2 + (ẋ sin θ + ẏ cos θ) θ̇ + (2/3) θ̇²
///   M(q) = [[1, 0, s], [0, 1, c], [s, c, 4/3]]     (s = sin θ, c = cos θ; det M = 1/3)
///   forces at G ([NDC] §5.3), ξ = x − v_dr t:
///     S_x = −k_x ξ − c_x (ẋ − v_dr)
///     S_y = −k_y (y − y₀) − c_y ((y − y₀)² − y₁²) ẏ          (van der Pol)
///     R   = −k_θ (θ − θ₀) − c_θ θ̇                          (torque about G)
///   f = (S_x − c θ̇²,  S_y + s θ̇²,  R + S_x s + S_y c)     (generalized force + velocity terms)
///   contact P1 on y = 0:  g_N = y,  J = [[1, 0, 0], [0, 1, 0]],  w = 0,  γ = 0
///   W = J M⁻¹ Jᵀ = [[1 + 3s², 3sc], [3sc, 1 + 3c²]]           ([NDC] Eq. 12: A, B, C)
///   energies: V = ½k_x ξ² + ½k_y (y − y₀)² + ½k_θ (θ − θ₀)²    (a bookkeeping potential:
///     the springs act at G, so their generalized forces are not −∂V/∂q; the difference is in P_a)
///   P_a = dE/dt − λ·v = q̇ᵀ f_applied + ∂V/∂q q̇ + ∂V/∂t
///       = −c_x (ẋ − v_dr) ẋ − c_y ((y − y₀)² − y₁²) ẏ² − c_θ θ̇²
///         + (S_x s + S_y c) θ̇ − k_x ξ v_dr
/// @endverbatim
/// The impact law is the contact's (scenario [law]); the paper's r is Stronge's energetic
/// restitution e* of the law "stronge" (spec/003_dib.md §1, §3.1), so the parameter "r" is the
/// contact's law e. μ is the law's μ and the sustained friction (the paper has no sustained
/// contact). Parameters by name: r, mu (the base's "mu"), v_dr, k_x, k_y, k_theta, c_x, c_y,
/// c_theta, y0, y1, theta0. Only P1 touches (the paper ignores P2, §7 [gap]).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/model/system.hpp"

namespace clatter::model {

struct RodOnBeltParameters {
  double v_dr{0.0};     ///< belt (reference) speed
  double k_x{0.0};      ///< horizontal spring, ≥ 0
  double k_y{0.0};      ///< vertical spring, ≥ 0
  double k_theta{0.0};  ///< torsional spring, ≥ 0
  double c_x{0.0};      ///< horizontal damper, ≥ 0
  double c_y{0.0};      ///< van der Pol coefficient, ≥ 0
  double c_theta{0.0};  ///< torsional damper, ≥ 0
  double y0{0.0};       ///< vertical spring offset
  double y1{0.0};       ///< half-width of the negative-damping band, ≥ 0
  double theta0{0.0};   ///< rest angle [rad]
};

class RodOnBelt final : public System {
 public:
  /// Throws InvalidArgument naming "model.<key>" for a negative stiffness, damping or y1, a
  /// non-finite value, or a bad law (e ∉ [0, 1], μ < 0).
  RodOnBelt(const RodOnBeltParameters& p, const LawChoice& law);

  [[nodiscard]] std::string_view kind() const override { return "rod_on_belt"; }
  [[nodiscard]] int nq() const override { return 3; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override;
  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override;
  [[nodiscard]] double kinetic_energy(double t, const VecQ& q, const VecQ& qd) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double applied_power(double t, const VecQ& q, const VecQ& qd,
                                     const VecA& aux) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double velocity_scale(double t, const VecQ& q, const VecQ& qd) const override;
  /// M, f, P_a and the contact with one sin/cos of θ (the functions above evaluate it each).
  void evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& aux,
                Evaluation& out) const override;

  [[nodiscard]] const RodOnBeltParameters& params() const { return p_; }
  /// The force components (S_x, S_y, R) at G [NDC] §5.3.
  [[nodiscard]] Vec3 forces_at_G(double t, const VecQ& q, const VecQ& qd) const;

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override;
  [[nodiscard]] ParameterSet own_parameters() const override;
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override;

 private:
  // f and P_a at (t, q, q̇) given s = sin θ, c = cos θ
  void forces_and_power(double t, const VecQ& q, const VecQ& qd, double s, double c, VecQ& f,
                        double& power) const;
  RodOnBeltParameters p_;
};

/// Validates p, naming `prefix` + key ("model.k_x").
void validate(const RodOnBeltParameters& p, const std::string& prefix);

}  // namespace clatter::model
