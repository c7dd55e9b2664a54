#pragma once
/// @file
/// A row of pendulums whose balls touch their neighbours: Newton's cradle with any number of balls,
/// masses, radii and string lengths ([R] Rodriguez 2014 §6.3, App. D, spec/004_multibody.md Ex. 3,
/// 3b; kind "pendulum_chain").
///
/// Ball i (i = 0 … n − 1, named A, B, C, …) is a solid ball of mass m_i and radius r_i fixed to a
/// massless rigid string (it turns with the string) of length L_i (pivot to centre), hanging from
/// pivot (p_i, 0) in the vertical x-y plane, y up, gravity g along −y:
/// @verbatim
///   q_i = string angle from the downward vertical (q_i > 0 swings the ball towards +x)   [rad]
///   centre  c_i = (p_i + L_i sin q_i, −L_i cos q_i),   ċ_i = q̇_i a_i,  a_i = L_i (cos q_i, sin
///   q_i) M = diag(I_i),  I_i = m_i L_i² + k m_i r_i²   (k = inertia_factor; 2/5: solid spheres,
///   [R]) f_i = −m_i g L_i sin q_i,   V = −Σ m_i g L_i cos q_i   (V = 0 at the pivots' height)
/// @endverbatim
/// Contact c joins balls i = c and j = c + 1 (only neighbours touch; with very different lengths
/// the model does not see non-neighbouring balls). With d = c_j − c_i, D = |d|, the normal n̂ = d/D
/// points from ball i to ball j and t̂ = ẑ × n̂ = (−n̂_y, n̂_x):
/// @verbatim
///   gap       g_N = D − r_i − r_j                                    [m]
///   relative velocity of the contact points, ball j's minus ball i's (P_i = c_i + r_i n̂,
///   P_j = c_j − r_j n̂; each ball turns at q̇ of its string):
///   v_N = n̂·(ċ_j − ċ_i) = ġ_N,   v_T = t̂·(ċ_j − ċ_i) − r_i q̇_i − r_j q̇_j
///   J_N: column i −n̂·a_i, column j n̂·a_j;   J_T: column i −(t̂·a_i + r_i), column j t̂·a_j − r_j
///   w = 0 (the obstacle is the neighbouring ball, its motion is in J)
///   γ_N = (t̂·Δ)²/D + n̂·(κ_j − κ_i),   γ_T = −(t̂·Δ)(n̂·Δ)/D + t̂·(κ_j − κ_i)
///   with Δ = ċ_j − ċ_i and κ_i = q̇_i² L_i (−sin q_i, cos q_i) (the centripetal acceleration)
/// @endverbatim
/// At rest with touching neighbours (q = 0, p_j − p_i = r_i + r_j): n̂ = x, t̂ = y, v_N = L(q̇_j −
/// q̇_i), v_T = −r_i q̇_i − r_j q̇_j, the frame of multipoint::cradle (bodies.hpp).
///
/// Several contacts closing at once (a ball hitting a row of touching balls) are resolved by the
/// multi-point law of [R] through multipoint_input: every ball is a rigid body with its contact
/// points at ±r n̂ from its centre, so an interior ball's two points give the constraint p_left =
/// p_right of [R] (B.28–B.33). The balls are the obstacles of each other: the frame velocity is 0.
///
/// Size: 2 ≤ n ≤ kMaxContacts + 1 = 9 balls (n − 1 contacts; the engine holds at most
/// kMaxContacts = 8 contacts). No exact flight (the pendulum is not closed-form): the engine
/// integrates with Runge–Kutta. Units SI, angles in radians.
///
/// Parameters by name: "gravity", "inertia_factor", and per ball X = A, B, …: "X.mass" [kg],
/// "X.radius" [m], "X.length" [m], "X.pivot" (p_X [m]); the contacts "AB", "BC", … have the usual
/// "contact.AB.e" etc. (system.hpp).

#include <string>
#include <vector>

#include "clatter/laws/impact_law.hpp"
#include "clatter/model/system.hpp"

namespace clatter::model {

/// One pendulum of the chain.
struct PendulumBall {
  double mass{1.0};     ///< m_i > 0 [kg]
  double radius{0.05};  ///< r_i > 0 [m]
  double length{0.3};   ///< L_i > 0, pivot to centre [m]
  double pivot{0.0};    ///< p_i [m], strictly increasing along the chain
};

class PendulumChain final : public System {
 public:
  /// one coordinate per ball, one contact per neighbouring pair
  static constexpr int kMaxBalls = kMaxContacts + 1 < kMaxDof ? kMaxContacts + 1 : kMaxDof;

  /// Throws InvalidArgument naming the field ("A.mass", "B.pivot", "gravity", …) for n ∉ [2,
  /// kMaxBalls], m, r, L ≤ 0 or not finite, pivots not strictly increasing, g < 0, inertia_factor <
  /// 0, or a bad law (contact.hpp).
  PendulumChain(std::vector<PendulumBall> balls, double gravity, double inertia_factor,
                LawChoice law);

  /// Pivots spaced so that neighbours touch at rest (p_{i+1} − p_i = r_i + r_{i+1}), from p_0 = 0.
  [[nodiscard]] static std::vector<PendulumBall> touching_row(const std::vector<double>& masses,
                                                              const std::vector<double>& radii,
                                                              const std::vector<double>& lengths);

  // --- System ---
  [[nodiscard]] std::string_view kind() const override { return "pendulum_chain"; }
  [[nodiscard]] int nq() const override { return static_cast<int>(balls_.size()); }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override;
  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override;
  void factor_mass(double t, const VecQ& q, MassFactor& out) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double mass_scale() const override;
  [[nodiscard]] double velocity_scale(double t, const VecQ& q, const VecQ& qd) const override;
  [[nodiscard]] double rate_bound(const VecQ& qd) const override;
  bool multipoint_input(double t, const VecQ& q, const std::array<bool, kMaxContacts>& active,
                        multipoint::Input& in, VecQ& frame_velocity) const override;

  [[nodiscard]] const PendulumBall& ball(int i) const {
    return balls_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] double gravity() const { return g_; }
  /// I_i = m_i L_i² + k m_i r_i² [kg m²].
  [[nodiscard]] double pivot_inertia(int i) const;
  /// Centre of ball i at q [m].
  [[nodiscard]] Vec2 centre(int i, const VecQ& q) const;
  /// The ball's name: "A", "B", …
  [[nodiscard]] static std::string ball_name(int i);

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override;
  [[nodiscard]] ParameterSet own_parameters() const override;
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override;

 private:
  std::vector<PendulumBall> balls_;
  double g_;
  double k_;
};

}  // namespace clatter::model
