#pragma once
/// @file
/// The double pendulum whose lower end touches a belt ([B] §6.2–6.3; geometry, inertia and the
/// corrected velocity terms in model/double_pendulum_belt.hpp) as a model::System (kind
/// "double_pendulum_belt"): q = (θ, φ), one contact "end" with the belt plane.
/// @verbatim
///   contact  g_N = c₂(q),  J = N(q) = ∂c/∂q (rows: along the belt n₁, normal),
///            w = (V, 0) (the belt moves along n₁),  v = N q̇ − w,  γ = Ṅ q̇
///   forces   f = −(L(q, q̇) + U(q))     (U holds gravity and the constant torque T)
///   energy   T = ½ q̇ᵀ M(q) q̇,  V = −(m₁+m₂) g l₁ cos θ − m₂ g l₂ cos φ − T θ
/// @endverbatim
/// Parameters: m1, m2 [kg], l1, l2 [m], gravity [m/s²], torque [N·m], d [m] (normal distance of
/// the top joint from the belt), belt_velocity [m/s], and the contact's (model/system.hpp).

#include "clatter/model/double_pendulum_belt.hpp"
#include "clatter/model/system.hpp"

namespace clatter::model {

class DoublePendulumBeltModel final : public System {
 public:
  /// Throws InvalidArgument naming the field for bad geometry (DoublePendulumBelt::validate) or
  /// a bad law.
  DoublePendulumBeltModel(const DoublePendulumBelt& pendulum, const LawChoice& law);

  [[nodiscard]] const DoublePendulumBelt& pendulum() const { return p_; }

  [[nodiscard]] std::string_view kind() const override { return "double_pendulum_belt"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override {
    return {"theta", "phi"};
  }
  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double mass_scale() const override { return p_.m1 + p_.m2; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override;
  [[nodiscard]] ParameterSet own_parameters() const override;
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override;

 private:
  DoublePendulumBelt p_;
};

}  // namespace clatter::model
