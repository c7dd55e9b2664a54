#pragma once
/// @file
/// A planar rigid body against several obstacle lines at any angle, under gravity in any direction
/// (kind "planar_body_lines"; issue 8: "gravity is a vector; an obstacle is a line at any angle,
/// moving or fixed"). The ball in a corner of [R] Rodriguez 2014 §6.1 (Table 6.1; spec/004 Ex. 1)
/// is a ball against a floor and a wall. PlanarBodyModel (one horizontal moving line, exact
/// flight, the seeds' symmetric reduction) stays the model of the seeds' single-surface systems.
///
/// Coordinates (world frame): q = (x, y, θ) of the centre of mass G and the body angle,
/// q̇ = (ẋ, ẏ, ω), M = diag(m, m, I), f = m (g_x, g_y, 0), V = −m (g_x x + g_y y).
/// Features i: centre c_i (body frame) and radius ρ_i ≥ 0 (0: a vertex); c_W = R(θ) c_i.
/// Lines l: a point p_l, a unit normal n̂_l pointing into the free side, the tangent
/// t̂_l = (n_y, −n_x) (the floor n̂ = (0, 1) has t̂ = (1, 0); a wall on the right, n̂ = (−1, 0),
/// has t̂ = (0, 1)); the line oscillates along its normal, h_l(t) = A sin(Ω t + φ), and its surface
/// moves along t̂ at the belt velocity u_l (a belt; constant).
/// Contact (i, l): every feature against every line, in feature-major order, named
/// "<feature>-<line>" (at most kMaxContacts = 8 pairs):
/// @verbatim
///   r = c_W − ρ n̂   (contact point P = G + r)
///   gap       g_N = n̂·(G + c_W − p) − ρ − h(t)                                   [m]
///   velocity  v_T = t̂·(V + ω ẑ×r) − u,   v_N = n̂·(V + ω ẑ×r) − ḣ = ġ_N,  ẑ×r = (−r_y, r_x)
///   Jacobian  J_T = [t_x, t_y, t̂·(ẑ×r)],   J_N = [n_x, n_y, n̂·(ẑ×r)],   w = (u, ḣ)
///   γ = (−ω² t̂·c_W,  −ω² n̂·c_W − ḧ)
/// @endverbatim
/// A line is a full line, not a segment: a feature is in contact with it wherever it is along it
/// (the corner's floor and wall extend through each other; the ball meets each on its own side).
///
/// Several contacts closing at once are resolved by the multi-point law of [R] through
/// multipoint_input (the body's contact points with frames (t̂, n̂)); the obstacles must move as
/// one rigid frame (equal world velocities u t̂ + ḣ n̂ of the active lines), otherwise the model
/// declines (the engine then resolves the contacts one after another). Units SI, angles in radians.
///
/// Exact free flight (every contact open): G(τ) = G₀ + V₀τ + ½g⃗τ², θ(τ) = θ₀ + ωτ, so a gap is
/// @verbatim
///   g_N(τ) = n̂·(G(τ) − p) + n̂·R(θ(τ)) c − ρ − h(t₀ + τ)
///   g̈_N(τ) = n̂·g⃗ − ω² n̂·c_W(τ) − ḧ  ≥  −M₂,   M₂ = max(0, −n̂·g⃗ + ω²|c| + |A|Ω²)
/// @endverbatim
/// which is the bound first_root_curvature_bound needs (integrate/root_finding.hpp): from any τ
/// with g_N > 0 the step s* = (ġ + √(ġ² + 2M₂g))/M₂ cannot pass a root, so the earliest root is
/// found. The far step uses g_N(τ) ≥ s(τ) − K with s(τ) = n̂·(G(τ) − p) (a quadratic with
/// s̈ = n̂·g⃗) and K = |c| + ρ + |A|: no root before the first zero of s − K (for n̂·g⃗ > 0, gravity
/// away from the line, s − K may never vanish: infinite step).
///
/// Parameters by name: "mass", "inertia", "gravity.x", "gravity.y", and per line L: "L.x", "L.y"
/// (the point p), "L.angle" (direction of the normal, atan2(n_y, n_x) [rad]), "L.amplitude",
/// "L.omega", "L.phase", "L.belt_velocity"; the contacts' "contact.<feature>-<line>.e" etc.

#include <string>
#include <vector>

#include "clatter/core/types.hpp"
#include "clatter/laws/impact_law.hpp"
#include "clatter/model/system.hpp"

namespace clatter::model {

/// A contact feature of the body.
struct BodyFeature {
  std::string name;    ///< unique, e.g. "ball", "C1"
  Vec2 c_B{0.0, 0.0};  ///< centre in the body frame [m]
  double radius{0.0};  ///< ρ ≥ 0 [m]
};

/// An obstacle line.
struct ObstacleLine {
  std::string name;                       ///< unique, e.g. "ground", "wall"
  Vec2 point{0.0, 0.0};                   ///< a point p of the line at h = 0 [m]
  double angle{0.5 * 3.141592653589793};  ///< direction of the unit normal n̂ [rad] (π/2: floor)
  double amplitude{0.0};                  ///< A of h = A sin(Ω t + φ) along n̂ [m]
  double omega{0.0};                      ///< Ω ≥ 0 [rad/s]
  double phase{0.0};                      ///< φ [rad]
  double belt_velocity{0.0};              ///< u along t̂ [m/s]

  [[nodiscard]] Vec2 normal() const;
  [[nodiscard]] Vec2 tangent() const;
};

class PlanarBodyLines final : public System, private ExactFlight {
 public:
  /// Throws InvalidArgument naming the field for m, I ≤ 0, non-finite gravity, no features or
  /// lines, more than kMaxContacts pairs, repeated names, a negative radius, Ω < 0, non-finite
  /// values, or a bad law.
  PlanarBodyLines(double mass, double inertia, Vec2 gravity, std::vector<BodyFeature> features,
                  std::vector<ObstacleLine> lines, LawChoice law);

  // --- System ---
  [[nodiscard]] std::string_view kind() const override { return "planar_body_lines"; }
  [[nodiscard]] int nq() const override { return 3; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override;
  [[nodiscard]] MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        ContactGeometry& out) const override;
  void factor_mass(double t, const VecQ& q, MassFactor& out) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double mass_scale() const override { return m_; }
  [[nodiscard]] double velocity_scale(double t, const VecQ& q, const VecQ& qd) const override;
  [[nodiscard]] double rate_bound(const VecQ& qd) const override;
  bool multipoint_input(double t, const VecQ& q, const std::array<bool, kMaxContacts>& active,
                        multipoint::Input& in, VecQ& frame_velocity) const override;
  [[nodiscard]] const ExactFlight* exact_flight() const override { return this; }

  /// Feature and line of contact c.
  [[nodiscard]] const BodyFeature& feature_of(int c) const;
  [[nodiscard]] const ObstacleLine& line_of(int c) const;

 protected:
  [[nodiscard]] std::unique_ptr<System> clone() const override;
  [[nodiscard]] ParameterSet own_parameters() const override;
  [[nodiscard]] std::unique_ptr<System> with_own_parameter(std::string_view name,
                                                           double value) const override;

 private:
  // --- ExactFlight ---
  void flight(double tau, const VecQ& q0, const VecQ& qd0, VecQ& q, VecQ& qd) const override;
  void flight_gaps(double t0, const VecQ& q0, const VecQ& qd0, double tau,
                   GapValues& out) const override;
  [[nodiscard]] double gap_curvature_bound(int c, const VecQ& qd0) const override;
  [[nodiscard]] double far_step(int c, const VecQ& q0, const VecQ& qd0, double tau) const override;
  [[nodiscard]] double apex_time(const VecQ& q0, const VecQ& qd0) const override;
  [[nodiscard]] double coordinate_curvature_bound(int i, const VecQ& q0,
                                                  const VecQ& qd0) const override;

  double m_;
  double I_;
  Vec2 g_;
  std::vector<BodyFeature> features_;
  std::vector<ObstacleLine> lines_;
};

}  // namespace clatter::model
