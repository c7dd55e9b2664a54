#pragma once
/// @file
/// A planar rigid body with point or circular contact features above a moving horizontal surface
/// (surface.hpp), under gravity. The ball, the slender rod of the seeds, a block and a disk are
/// instances (scenario presets), not separate code.
///
/// Coordinates (world frame, y up, the surface normal n = (0, 1)):
/// @verbatim
///   q = (x, y, θ)   centre of mass G and body angle,   q̇ = (ẋ, ẏ, ω),   M = diag(m, m, I)
///   feature i: centre c_i (body frame) and radius ρ_i (0 for a vertex)
///   c_W = R(θ) c_i = (c_x cosθ − c_y sinθ,  c_x sinθ + c_y cosθ)
///   contact point P_i = G + c_W − ρ_i n,   r = P_i − G = (c_W.x, c_W.y − ρ_i)
///   gap       g_N = y + c_W.y − ρ_i − h(t)
///   velocity  v_T = ẋ − ω r_y − u,   v_N = ẏ + ω r_x − ḣ = ġ_N      (relative to the surface)
///   Jacobian  J_T = [1, 0, −r_y],   J_N = [0, 1, r_x]                 (v = J q̇ − (u, ḣ))
///   dv/dt = J q̈ + γ,   γ = (−ω² c_W.x − u̇,  −ω² c_W.y − ḧ)
///   free flight: q̈ = (0, −g, 0)
/// @endverbatim
/// The slender rod of [BP] §4 / [B] §5.3: m = 1, half-length L = 1, I = mL²/3, features
/// P1 = (−L, 0) and P2 = (+L, 0), so that P1 = G − L(cosθ, sinθ) and P2 = G + L(cosθ, sinθ).
/// A ball of radius R: one feature at the centre with ρ = R (R = 0: a point mass).
/// Units SI; angles in radians.

#include <array>
#include <string>
#include <vector>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/core/types.hpp"
#include "clatter/core/value_slope.hpp"
#include "clatter/laws/impact_law.hpp"
#include "clatter/model/planar_body.hpp"
#include "clatter/model/surface.hpp"
#include "clatter/model/system.hpp"

namespace clatter::model {

/// A contact feature of the body and the law of its contact with the surface.
struct ContactFeature {
  std::string name;    ///< e.g. "P1", "P2", "ball"
  Vec2 c_B{0.0, 0.0};  ///< centre in the body frame [m]
  double radius{0.0};  ///< ρ ≥ 0 [m]; 0 for a vertex
  LawChoice law{};     ///< impact law, restitution and friction coefficient μ (the contact's
                       ///< sustained μ_s = μ_d = law μ unless the scenario says otherwise)
};

/// Kinematics of one contact at (t, q, q̇).
struct ContactKinematics {
  double g_N{0.0};   ///< gap [m]
  Vec2 v{0.0, 0.0};  ///< (v_T, v_N) relative to the surface [m/s]
  Eigen::Matrix<double, 2, 3> J{Eigen::Matrix<double, 2, 3>::Zero()};  ///< rows J_T, J_N
  Vec2 gamma{0.0, 0.0};                                                ///< dv/dt − J q̈ [m/s²]
  Vec2 r{0.0, 0.0};                                                    ///< P − G [m]
};

/// model::System of a planar body (kind "planar_body"): q = (x, y, θ); parameters "mass",
/// "inertia", "gravity", "surface.<field>" (surface.hpp) and the contacts' (system.hpp). Offers
/// exact free flight, sustained contact in closed form and the seeds' symmetric reduction.
///
/// Sustained contact in closed form (model::CarriedMotion), with the sticking set S at t₀, the
/// surface's material at x_s(t) = ∫u dt and height h(t):
/// @verbatim
///   rigid    G = [J_T; J_N]_{c∈S} of rank 3 (e.g. a flat rod sticking at both ends): the body
///   moves
///            with the surface,  q(t) = q₀ + (x_s(t) − x_s(t₀), h(t) − h(t₀), 0),  q̇ = (u, ḣ, 0),
///            λ = P F(t),  P = G (GᵀG)⁻¹ (the minimum-norm forces),  F = M q̈ − f = m (u̇, ḧ + g, 0);
///            offered only where these are also the forces of hybrid/constrained_dynamics.hpp,
///            which shares the tangential force of contacts with equal J_T rows in proportion to
///            their normal forces: equal normal shares, or no tangential force (u̇ ≡ 0 and
///            λ_T ≡ 0); a block on two corners of an accelerating belt is left to Runge–Kutta
///   rolling  S = one feature at the centre of mass (a ball, a point) and u̇ ≡ 0 (U = 0): it rolls
///            or spins uniformly on the surface, x = x₀ + ẋ₀ τ, θ = θ₀ + ω₀ τ, y = y₀ + h(t) −
///            h(t₀), λ = (0, m (ḧ + g))   (v_T ≡ 0 ⇒ λ_T (1/m + ρ²/I) = u̇ = 0)
/// @endverbatim
/// Bounds for φ = p·F (p the row combination w·P_c): φ ≥ p_y m g − |p_x| m U Ω − |p_y| m A ω²,
/// |φ̈| ≤ |p_x| m U Ω³ + |p_y| m A ω⁴. Other sets (one end of a rod sticking: it pivots) are not
/// offered: the engine integrates them.
class PlanarBodyModel final : public model::System,
                              private model::ExactFlight,
                              private model::CarriedMotion,
                              private model::SymmetricPairs {
 public:
  static constexpr int kDof = 3;
  using Q = Vec3;
  using VecQ = model::VecQ;
  using VecA = model::VecA;

  /// Throws InvalidArgument naming the field for m, I ≤ 0, g < 0, a bad surface, no or more than
  /// kMaxContacts features, a negative radius, or a bad law parameter (μ < 0, e ∉ [0, 1]).
  PlanarBodyModel(PlanarBody body, double gravity, Surface surface,
                  std::vector<ContactFeature> features);

  // --- model::System ---
  [[nodiscard]] std::string_view kind() const override { return "planar_body"; }
  [[nodiscard]] int nq() const override { return 3; }
  [[nodiscard]] std::vector<std::string> coordinate_names() const override;
  [[nodiscard]] model::MatQ mass_matrix(double t, const VecQ& q) const override;
  [[nodiscard]] VecQ applied_forces(double t, const VecQ& q, const VecQ& qd,
                                    const VecA& aux) const override;
  void contact_geometry(int c, double t, const VecQ& q, const VecQ& qd,
                        model::ContactGeometry& out) const override;
  void contact_geometries(
      double t, const VecQ& q, const VecQ& qd,
      std::array<model::ContactGeometry, model::kMaxContacts>& out) const override;
  void evaluate(double t, const VecQ& q, const VecQ& qd, const VecA& aux,
                model::Evaluation& out) const override;
  [[nodiscard]] double gap_scale(int c, double /*t*/, const VecQ& q) const override {
    return gap_scale(c, Vec3(q(0), q(1), q(2)));
  }
  void factor_mass(double t, const VecQ& q, model::MassFactor& out) const override;
  [[nodiscard]] double kinetic_energy(double t, const VecQ& q, const VecQ& qd) const override;
  [[nodiscard]] double potential_energy(double t, const VecQ& q) const override;
  [[nodiscard]] double force_scale() const override;
  [[nodiscard]] double mass_scale() const override { return body_.m; }
  [[nodiscard]] double velocity_scale(double t, const VecQ& q, const VecQ& qd) const override;
  [[nodiscard]] double rate_bound(const VecQ& qd) const override;
  [[nodiscard]] const model::ExactFlight* exact_flight() const override { return this; }
  [[nodiscard]] const model::SymmetricPairs* symmetry() const override { return this; }
  [[nodiscard]] const model::CarriedMotion* carried_motion() const override { return this; }
  bool multipoint_input(double t, const VecQ& q,
                        const std::array<bool, model::kMaxContacts>& active, multipoint::Input& in,
                        VecQ& frame_velocity) const override;

  [[nodiscard]] const ContactFeature& feature(int i) const {
    return features_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] const PlanarBody& body() const { return body_; }
  [[nodiscard]] const Surface& surface() const { return surface_; }
  [[nodiscard]] double gravity() const { return g_; }
  /// The same body and contacts above another surface (for parameter sweeps).
  [[nodiscard]] PlanarBodyModel with_surface(const Surface& surface) const {
    PlanarBodyModel m = *this;
    validate(surface);
    m.surface_ = surface;
    return m;
  }

  /// M and M⁻¹ (constant for a rigid body in these coordinates).
  [[nodiscard]] Mat3 mass_matrix() const { return Vec3(body_.m, body_.m, body_.I).asDiagonal(); }
  [[nodiscard]] Vec3 solve_mass(const Vec3& f) const {
    return {f.x() / body_.m, f.y() / body_.m, f.z() / body_.I};
  }
  /// Applied generalized force (gravity) [N, N, N·m].
  [[nodiscard]] Vec3 applied_forces() const { return {0.0, -body_.m * g_, 0.0}; }

  using model::System::contact;  // the contact's name, law and friction
  /// Kinematics of contact i in the planar body's own types.
  [[nodiscard]] ContactKinematics contact(int i, double t, const Vec3& q, const Vec3& qd) const;

  [[nodiscard]] double kinetic_energy(const Vec3& qd) const {
    return 0.5 * (body_.m * (qd.x() * qd.x() + qd.y() * qd.y()) + body_.I * qd.z() * qd.z());
  }
  /// Potential energy of gravity, m g y [J].
  [[nodiscard]] double potential_energy(const Vec3& q) const { return body_.m * g_ * q.y(); }

  // --- exact free flight: x, y ballistic, constant spin ---
  /// State after a free flight of duration τ from (q0, q̇0).
  void flight(double tau, const Vec3& q0, const Vec3& qd0, Vec3& q, Vec3& qd) const;
  /// Gap of feature i and its rate after a free flight of τ from (t0, q0, q̇0).
  [[nodiscard]] ValueSlope flight_gap(int i, double t0, const Vec3& q0, const Vec3& qd0,
                                      double tau) const;
  /// Gaps, rates and curvatures of all features after a free flight of τ (one evaluation of the
  /// pose): g̈_N = −g − θ̇² c_y − ḧ(t).
  void flight_gaps(double t0, const Vec3& q0, const Vec3& qd0, double tau, GapValues& out) const;
  /// M₂ with g̈_N ≥ −M₂ along any free flight with the spin of q̇0.
  [[nodiscard]] double flight_gap_curvature_bound(int i, const Vec3& qd0) const;
  /// M₃ = |θ̇|³|c| + |A|ω³ ≥ |g⃛_N| along any free flight with the spin of q̇0.
  [[nodiscard]] double flight_gap_jerk_bound(int i, const Vec3& qd0) const;
  /// A safe step from τ (gap ≥ y(τ) − K, solved for the next zero of the right side) with
  /// K = ρ + h_max − (R(θ₀)c_B)_y without spin, K = |c| + ρ + h_max with it.
  [[nodiscard]] double flight_gap_far_step(int i, const Vec3& q0, const Vec3& qd0,
                                           double tau) const;
  /// A magnitude scale of the terms of the gap, for round-off tolerances [m].
  [[nodiscard]] double gap_scale(int i, const Vec3& q) const;

  /// The body angle nearest θ at which features i and j are level (equal heights).
  [[nodiscard]] double level_angle(int i, int j, double theta) const;

 protected:
  [[nodiscard]] std::unique_ptr<model::System> clone() const override;
  [[nodiscard]] model::ParameterSet own_parameters() const override;
  [[nodiscard]] double own_parameter(std::string_view name) const override;
  [[nodiscard]] std::unique_ptr<model::System> with_own_parameter(std::string_view name,
                                                                  double value) const override;

 private:
  void fill_geometry(int c, const Surface::State& s, const VecQ& q, const VecQ& qd,
                     model::ContactGeometry& out) const;
  // --- model::ExactFlight ---
  void flight(double tau, const VecQ& q0, const VecQ& qd0, VecQ& q, VecQ& qd) const override;
  void flight_gaps(double t0, const VecQ& q0, const VecQ& qd0, double tau,
                   GapValues& out) const override;
  [[nodiscard]] double gap_curvature_bound(int c, const VecQ& qd0) const override;
  [[nodiscard]] double gap_jerk_bound(int c, const VecQ& qd0) const override;
  [[nodiscard]] double far_step(int c, const VecQ& q0, const VecQ& qd0, double tau) const override;
  [[nodiscard]] bool gaps_coincide(int i, int j, const VecQ& q0, const VecQ& qd0) const override;
  [[nodiscard]] double apex_time(const VecQ& q0, const VecQ& qd0) const override;
  [[nodiscard]] double coordinate_curvature_bound(int i, const VecQ& q0,
                                                  const VecQ& qd0) const override;
  // --- model::CarriedMotion ---
  struct Carriage;
  [[nodiscard]] Carriage carriage(const Contacts& stick, const VecQ& q0) const;
  /// Whether a carried motion of `stick` is the rolling one (carriage()'s kRolling), without
  /// carriage()'s rank test: carry() asks it at every sample.
  [[nodiscard]] bool rolls(const Contacts& stick) const;
  [[nodiscard]] bool carries(const Contacts& stick, double t0, const VecQ& q0,
                             const VecQ& qd0) const override;
  void carry(const Contacts& stick, double t0, const VecQ& q0, const VecQ& qd0, double tau, VecQ& q,
             VecQ& qd) const override;
  void carried_forces(const Contacts& stick, double t0, const VecQ& q0, const VecQ& qd0, double tau,
                      std::array<Vec2, kMaxContacts>& lambda,
                      std::array<Vec2, kMaxContacts>& rate) const override;
  void carried_force_bounds(const Contacts& stick, double t0, const VecQ& q0, const VecQ& qd0,
                            int c, const Vec2& w, double& curvature, double& lower) const override;
  [[nodiscard]] double carried_coordinate_curvature_bound(const Contacts& stick, double t0,
                                                          const VecQ& q0, const VecQ& qd0,
                                                          int i) const override;
  // --- model::SymmetricPairs ---
  [[nodiscard]] double level_distance(int c, int j, const VecQ& q) const override;
  [[nodiscard]] double level_gap_window(int j, double theta_crit) const override;
  bool level(int c, int j, double t, VecQ& q, VecQ& qd) const override;

  PlanarBody body_;
  double g_;
  Surface surface_;
  std::vector<ContactFeature> features_;
};

/// Presets of the seeds' bodies, with the law, μ and e of every contact.
/// Ball of mass m and radius R (R = 0: point mass; I = 2mR²/5, or m·1 m² for R = 0, where the
/// spin is decoupled) with one contact "ball".
[[nodiscard]] PlanarBodyModel make_ball(double m, double R, double gravity, Surface surface,
                                        LawChoice law);
/// Uniform slender rod of mass m and half-length L (I = mL²/3), contacts "P1" (−L, 0), "P2" (+L,
/// 0).
[[nodiscard]] PlanarBodyModel make_rod(double m, double L, double gravity, Surface surface,
                                       LawChoice law);
/// Rectangular block of mass m, half-width b, half-height h (I = m(b² + h²)/3), four corners.
[[nodiscard]] PlanarBodyModel make_block(double m, double b, double h, double gravity,
                                         Surface surface, LawChoice law);

}  // namespace clatter::model
