#pragma once
/// @file
/// The critical parameter of a discontinuity-induced bifurcation of the impact law ([NDC] §4–5,
/// spec/003_dib.md §5): the value p* of a named parameter at which an impact of a periodic orbit
/// (analysis/periodic_problem.hpp) lies on the boundary between two regions of Stronge's law
/// (laws/stronge_boundaries.hpp). Newton on the augmented system
/// @verbatim
///   G(u, p) = ( r(u; p),  H(v⁻, W; μ, e*) ) = 0        (d + 1 equations in (u, p))
///   v⁻, W: the k-th impact of the orbit's flow (pre-impact relative velocity; W = J M⁻¹ Jᵀ of
///   its contact at its configuration);  H: the boundary function of the regions (a, b)
///   J_G by central differences of the flow (steps 1e-6 (1 + |·|): 2(d + 1) flows), or
///   (CriticalJacobian::kVariational) from one run of the variational equations with saltation
///   matrices (analysis/variational.hpp, Stronge's exact law Jacobian in the impact's q̇ block):
///     ∂r/∂u:  autonomous  [M_SS − I, f_S(x(T)); M_aS, f_a(x(T)) − ν],  forced  M_SS − I
///     ∂H/∂u:  from Φ⁻ = ∂x(t_k⁻)/∂x₀ before the k-th impact (h = g_N its trigger):
///             dt_k = −h_x Φ⁻/(h_x f⁻ + h_t),  dx_k = Φ⁻ + f⁻ dt_k,  dH = H_x dx_k + H_t dt_k
///             (h_x, h_t, H_x, H_t by central differences of g_N and H: no flow), ∂H/∂T = 0
///     ∂G/∂p:  central differences of the flow (2 flows)
///     the variational run and the p differences use the model with the formula of the iterate's
///     region forced (ImpactParams::forced_region, when the contact's impacts in the period
///     share it), so that near the boundary the Jacobian is one side's instead of the mix that
///     steps across the boundary give (the difference Jacobian's case); per iteration: 4 flows
///     (one of them the variational run, whose RK4 replay of the 6 × 6 equations costs more)
///   the step halves while |G| does not decrease
/// @endverbatim
/// Near the boundary the flow's map is only C⁰ or C¹ in (u, p) (the two regions' formulas meet
/// there), so the difference Jacobian mixes the two sides: Newton still converges (to the
/// tolerance, in more iterations), since H is smooth and the two sides agree on the boundary.

#include <cstdint>
#include <string>

#include "clatter/analysis/periodic_problem.hpp"

namespace clatter::analysis {

enum class CriticalJacobian : std::uint8_t { kDifferences, kVariational };

struct CriticalPointOptions {
  std::string parameter;  ///< p, by name
  int impact{0};          ///< k: which impact of the orbit (0: the first)
  int region_a{1};        ///< the boundary between these two regions
  int region_b{3};
  double tol{1e-10};  ///< |G|∞ ≤ tol (1 + |u|∞)
  int max_iter{40};
  CriticalJacobian jacobian{CriticalJacobian::kDifferences};
};

/// Throws InvalidArgument naming the field: empty parameter, impact < 0, regions that share no
/// boundary, tol ≤ 0, max_iter outside [1, 1000].
void validate(const CriticalPointOptions& o);

struct CriticalPoint {
  bool converged{false};
  std::string message;  ///< why not converged
  int iterations{0};
  double p{0.0};               ///< p*
  Eigen::VectorXd u;           ///< the orbit at p*
  double H{0.0};               ///< the boundary function there
  double residual{0.0};        ///< |G|∞
  hybrid::EventRecord impact;  ///< the impact on the boundary
  int flows{0};                ///< runs of the engine's flow (each run of the variational
                               ///< equations counts as one, beside its own replay)
  int variational_runs{0};     ///< runs of the variational equations
};

/// H of the k-th impact of the flow from u with model m; false if the flow fails or has fewer
/// impacts (or the contact's law is not Stronge's closed form).
[[nodiscard]] bool impact_boundary_value(const PeriodicProblem& problem, const model::System& m,
                                         const Eigen::VectorXd& u, const CriticalPointOptions& o,
                                         double& H, hybrid::EventRecord* impact = nullptr);

/// Newton on G from (u0, the problem model's value of the parameter).
[[nodiscard]] CriticalPoint locate_critical_point(const PeriodicProblem& problem,
                                                  const Eigen::VectorXd& u0,
                                                  const CriticalPointOptions& o);

}  // namespace clatter::analysis
