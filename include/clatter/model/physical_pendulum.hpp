#pragma once
/// @file
/// A physical pendulum striking a fixed line ([Bi] §4.2, spec/002_pendulum.md §3.7, §3.9): a rigid
/// body turning about a fixed, lossless pivot O at the origin, under gravity, whose tip (a point or
/// a circle rigidly attached to the pendulum) strikes a fixed straight line. Kind
/// "physical_pendulum". Units SI, angles in radians.
///
/// Coordinates: q = (φ), the angle of the arm from the downward vertical, CCW positive:
/// @verbatim
///   arm direction  a(φ) = (sin φ, −cos φ),  a′ = (cos φ, sin φ),  a″ = −a
///   centre of mass G = d a,   tip centre P = ℓ a,   M = I_O (inertia about the pivot, ≥ m d²)
///   V = −m g d cos φ,   f = −m g d sin φ,   P_a = 0
///   line through (0, h) at angle α:  tangent t = (cos α, sin α),  normal n = (−sin α, cos α)
///   gap        g_N = n·(P − (0, h)) − ρ
///   velocities (contact point P − ρn of the tip, which turns with the pendulum):
///     v_T = (ℓ t·a′ + ρ) φ̇,   v_N = ℓ (n·a′) φ̇               (w = 0: the line is fixed)
///   J = [ℓ t·a′ + ρ;  ℓ n·a′],   γ = −ℓ φ̇² (t·a, n·a)
/// @endverbatim
/// For a horizontal line (α = 0) and a point tip the contact happens at cos φ_c = −h/ℓ, and the
/// tip's velocity makes the angle θ = φ_c with the line: the [Bi] pendulum with
/// (v_T, v_N) = −V₀ (cos θ, sin θ), V₀ = ℓ|φ̇|, whose rigid rebound with Stronge's energetic law is
/// V_f/V₀ = e* √((tan θ − μ)/(tan θ + μ)) (compliant/pendulum_rigid.hpp).
///
/// [Bi]'s pendulum (spec §3.7, §4.4: R = 5 mm, L = 0.1 m) is a ball of radius R on a massless arm:
/// com_distance = tip_distance = L, inertia = m (L² + 2R²/5) (so m K = m L²/I_O = 0.999), its
/// contact taken at distance L (tip_radius = 0, as the digest's W = K n nᵀ does).
///
/// With one coordinate, W = J M⁻¹ Jᵀ = J Jᵀ/I_O has rank 1 (AC − B² = 0): its impacts are resolved
/// by laws/rank_one_impact.hpp (the rigid rebound of [Bi] §4.2.1.4).
///
/// Parameters by name: mass, com_distance (d), inertia (I_O), tip_distance (ℓ), tip_radius (ρ),
/// gravity, line_height (h), line_angle (α), and the contact's (system.hpp; contact "tip").

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/model/system.hpp"

namespace clatter::model {

struct PhysicalPendulumParameters {
  double mass{1.0};          ///< m > 0 [kg]
  double com_distance{1.0};  ///< d ≥ 0, pivot to centre of mass [m]
  double inertia{1.0};       ///< I_O ≥ m d², > 0, about the pivot [kg m²]
  double tip_distance{1.0};  ///< ℓ > 0, pivot to the tip's centre [m]
  double tip_radius{0.0};    ///< ρ ≥ 0 [m]
  double gravity{9.81};      ///< g ≥ 0 [m/s²], acting along −y
  double line_height{-1.0};  ///< h: the line passes through (0, h) [m]
  double line_angle{0.0};    ///< α ∈ (−π/2, π/2) [rad]
};

class PhysicalPendulum final : public System {
 public:
  /// Throws InvalidArgument naming "model.<key>" for out-of-range parameters (see
  /// PhysicalPendulumParameters), or when the pivot is not strictly on the open side of the line.
  PhysicalPendulum(const PhysicalPendulumParameters& p, const LawChoice& law);

  [[nodiscard]] std::string_view kind() const override { return "physical_pendulum"; }
  [[nodiscard]] int nq() const override { return 1; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override;
  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double mass_scale() const override { return p_.mass; }
  [[nodiscard]] double velocity_scale(double t, const VecQ& q, const VecQ& qd) const override;

  [[nodiscard]] const PhysicalPendulumParameters& params() const { return p_; }

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override;
  [[nodiscard]] ParameterSet own_parameters() const override;
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override;

 private:
  PhysicalPendulumParameters p_;
};

/// Validates p, naming `prefix` + key ("model.inertia").
void validate(const PhysicalPendulumParameters& p, const std::string& prefix);

}  // namespace clatter::model
