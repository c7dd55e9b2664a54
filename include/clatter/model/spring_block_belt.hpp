#pragma once
/// @file
/// The stick-slip oscillator: a block (a point mass) on a belt moving at constant speed, held by
/// a spring and a damper to a fixed wall (the classic friction oscillator, e.g. Popp & Stelter
/// 1990; Leine et al. 1998). Kind "spring_block_belt". Units SI.
/// @verbatim
///   q = (x, y): position of the block (x from the spring's rest position, y above the belt)
///   M = m I,   f = (−k x − c ẋ, −m g),   V = ½ k x² + m g y,   P_a = −c ẋ²
///   contact "bottom":  g_N = y,  J = [1 0; 0 1],  w = (v_b, 0),  v = (ẋ − v_b, ẏ),  γ = 0
/// @endverbatim
/// With μ_s > μ_d and c = 0 its attractor is the stick-slip cycle (closed form, derived for the
/// tests): stick until k x = μ_s m g (x_s), slip about x_d = μ_d m g / k with ω₀ = √(k/m) through
/// the arc π + 2 atan(v_b / (ω₀ (x_s − x_d))), back to ẋ = v_b at x = 2 x_d − x_s, and stick again:
/// @verbatim
///   T = (π + 2 atan(v_b / (ω₀ Δ)))/ω₀ + 2Δ / v_b,   Δ = x_s − x_d = (μ_s − μ_d) m g / k
/// @endverbatim
/// Every start reaching the stick phase joins the same cycle, so its Poincaré map has a zero
/// multiplier. Parameters by name: mass, stiffness, damping, gravity, belt_velocity, and the
/// contact's (system.hpp; contact "bottom": mu_s, mu_d).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/model/system.hpp"

namespace clatter::model {

struct SpringBlockBeltParameters {
  double mass{1.0};           ///< m > 0 [kg]
  double stiffness{1.0};      ///< k > 0 [N/m]
  double damping{0.0};        ///< c ≥ 0 [N s/m]
  double gravity{9.81};       ///< g > 0 [m/s²]
  double belt_velocity{1.0};  ///< v_b [m/s]
};

class SpringBlockBelt final : public System {
 public:
  /// Throws InvalidArgument naming "model.<key>" for out-of-range parameters.
  SpringBlockBelt(const SpringBlockBeltParameters& p, const Contact& contact);

  [[nodiscard]] std::string_view kind() const override { return "spring_block_belt"; }
  [[nodiscard]] int nq() const override { return 2; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override;
  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double applied_power(double t, const VecQ& q, const VecQ& qd,
                                     const VecA& aux) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double mass_scale() const override { return p_.mass; }

  [[nodiscard]] const SpringBlockBeltParameters& params() const { return p_; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override;
  [[nodiscard]] ParameterSet own_parameters() const override;
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override;

 private:
  SpringBlockBeltParameters p_;
};

/// Validates p, naming `prefix` + key ("model.stiffness").
void validate(const SpringBlockBeltParameters& p, const std::string& prefix);

}  // namespace clatter::model
