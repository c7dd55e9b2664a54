#pragma once
/// @file
/// Periodic orbits of a ball bouncing on the surface h(t) = A sin ωt with one impact every n
/// forcing periods (the impact oscillator of Holmes 1982; the symmetric motion of the seeds' rod,
/// [BP] §4.3, [B] §5.3–5.4), their stability, and the closed forms that check them.
///
/// The state just after an impact is z = (φ, v): the phase φ = ωt of the impact and the absolute
/// post-impact velocity v. The impact map P(z; ω) is computed by the engine (hybrid::simulate of
/// the ball's model up to its next impact: closed-form flight, guaranteed first root, the
/// contact's law), so the analysis is of exactly what the engine simulates.
/// @verbatim
///   orbit with m impacts in n forcing periods:   P^m(φ, v) = (φ + 2πn, v)
///   Floquet multipliers:  eigenvalues of D(P^m) (2×2), by central differences of the map, and
///   independently from the monodromy of the flow in x = (y, ẏ, τ) with the saltation matrix of
///   the impact ([B] §5.4, spec/000_thesis.md §5.4 with its sign fixes):
///     M = S · F,  F = [[1, Δt, 0], [0, 1, 0], [0, 0, 1]]  (flight of duration Δt)
///     S = G + (f⁺ − G f⁻) h_xᵀ / (h_x f⁻),   h = y − A sin ωτ,  h_x = (1, 0, −Aω cos ωτ)
///     G = [[1, 0, 0], [0, −e, −(1+e) Aω² sin ωτ], [0, 0, 1]],  f∓ = (v∓, −g, 1)
///   whose product over the m impacts has the eigenvalues {1 (along the flow), λ₁, λ₂}
///   closed form (Newton restitution e, spec/001_hybrid_scheme.md §6.4, [B] §6.3 [DERIVED]):
///     Γ = Aω²/g,  Γ cos φ = nπ(1 − e)/(1 + e),  v = gπn/ω  (absolute),
///     det DP = e²,  tr DP = 1 + e² − (1 + e)² Γ sin φ      (stable branch: sin φ > 0)
///     fold (SN): Γ_SN = nπ(1 − e)/(1 + e);  period doubling: Γ_PD² = Γ_SN² + (2(1+e²)/(1+e)²)²
/// @endverbatim
/// Grazing: the flight touches the surface between its impacts; the margin is the smallest gap
/// along the open flight (it tends to 0 at a grazing bifurcation).

#include <array>
#include <complex>
#include <vector>

#include "clatter/model/planar_body_model.hpp"

namespace clatter::analysis {

struct ImpactState {
  double phase{0.0};     ///< φ = ωt of the impact [rad] (not reduced mod 2π)
  double velocity{0.0};  ///< absolute post-impact velocity [m/s]
};

class ImpactOscillator {
 public:
  /// The ball of `model` (one contact; A, ω from its surface, e from its law).
  /// Throws InvalidArgument("model", …) unless the model has exactly one contact, a vertically
  /// oscillating surface (A > 0) and no belt.
  explicit ImpactOscillator(const model::PlanarBodyModel& model);

  [[nodiscard]] double omega() const { return model_.surface().omega; }
  [[nodiscard]] double amplitude() const { return model_.surface().amplitude; }
  [[nodiscard]] double restitution() const { return model_.feature(0).law.params.e; }
  [[nodiscard]] double gravity() const { return model_.gravity(); }
  /// The same oscillator at another frequency.
  [[nodiscard]] ImpactOscillator at_omega(double omega) const;

  /// P^m: the state after the m-th next impact (m ≥ 1). Returns false if a flight does not end
  /// in a bounce (the ball stays on the surface, or the run stops).
  [[nodiscard]] bool map(const ImpactState& z, int m, ImpactState& out) const;
  /// D(P^m) = D P(z_{m−1}) ⋯ D P(z_0), each factor by central differences (steps 1e-6 rad in φ,
  /// 1e-6 (1 + |v|) in v).
  [[nodiscard]] bool jacobian(const ImpactState& z, int m, Eigen::Matrix2d& DP) const;
  /// ∂P^m/∂ω at fixed (φ, v): the chain rule over the impacts, with ∂P/∂ω of each by central
  /// differences (step 1e-6 (1 + ω)).
  [[nodiscard]] bool omega_derivative(const ImpactState& z, int m, Eigen::Vector2d& dP) const;
  /// P^m, D(P^m) and (if dP_domega is not null) ∂P^m/∂ω in one pass over the impacts: 7 maps
  /// per impact instead of the 12 of separate calls.
  [[nodiscard]] bool linearize(const ImpactState& z, int m, ImpactState& out, Eigen::Matrix2d& DP,
                               Eigen::Vector2d* dP_domega) const;
  /// The 3×3 monodromy (S_m F_m) ⋯ (S_1 F_1) of m flights and impacts from z (saltation route,
  /// Newton law; independent of the finite differences of `jacobian`).
  [[nodiscard]] bool monodromy_saltation(const ImpactState& z, int m, Eigen::Matrix3d& M) const;
  /// The smallest interior local minimum of the gap along the m flights from z [m] (the grazing
  /// margin: it reaches 0 at a grazing bifurcation); +∞ if no flight has one, −1 if a flight
  /// does not end in a bounce.
  [[nodiscard]] double grazing_margin(const ImpactState& z, int m) const;
  /// The apex heights of the centre in the m flights from z [m] (the start height if the flight
  /// leaves downwards); fewer if a flight does not end in a bounce.
  [[nodiscard]] std::vector<double> apexes(const ImpactState& z, int m) const;

 private:
  // one impact from z: P(z), DP(z), and ∂P/∂ω(z) from the oscillators at ω ± h (if not null)
  bool linearize_one(const ImpactState& z, const ImpactOscillator* hi, const ImpactOscillator* lo,
                     ImpactState& next, Eigen::Matrix2d& D, Eigen::Vector2d& dw) const;

  model::PlanarBodyModel model_;
};

/// Eigenvalues of a real 2×2 matrix.
[[nodiscard]] std::array<std::complex<double>, 2> eigenvalues(const Eigen::Matrix2d& A);

/// A periodic orbit with m impacts in n forcing periods: P^m(φ, v) = (φ + 2πn, v).
struct PeriodicOrbit {
  ImpactState z{};
  int impacts{1};  ///< m
  int periods{1};  ///< n
  bool converged{false};
  int iterations{0};
  double residual{0.0};
  Eigen::Matrix2d DP{Eigen::Matrix2d::Zero()};
  std::array<std::complex<double>, 2> multipliers{};
  bool stable{false};  ///< both |λ| < 1
};

/// Newton shooting for P^m(z) = z + (2πn, 0) from the guess z0, with the finite-difference
/// Jacobian. Bounded (max_iter); `converged` says whether |residual| < tol. Throws
/// InvalidArgument naming `impacts` or `periods` outside [1, 1024].
[[nodiscard]] PeriodicOrbit find_periodic_orbit(const ImpactOscillator& osc, ImpactState z0,
                                                int impacts, int periods, double tol = 1e-11,
                                                int max_iter = 30);

/// The closed form of the orbits with one impact each n periods (Newton restitution).
struct ClosedFormOrbit {
  bool exists{false};      ///< Γ ≥ Γ_SN
  ImpactState stable{};    ///< sin φ > 0
  ImpactState unstable{};  ///< sin φ < 0 (a saddle)
  double trace_stable{0.0};
  double determinant{0.0};
  double omega_sn{0.0};
  double omega_pd{0.0};
};
/// Throws InvalidArgument naming the argument unless A, ω, g > 0 are finite, e ∈ [0, 1], n ≥ 1.
[[nodiscard]] ClosedFormOrbit closed_form_orbit(double A, double omega, double g, double e, int n);

}  // namespace clatter::analysis
