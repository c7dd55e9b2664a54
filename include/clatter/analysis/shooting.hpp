#pragma once
/// @file
/// Periodic orbits of any model by Newton shooting on the problem of analysis/periodic_problem.hpp,
/// with their monodromy, Floquet multipliers and the events along them.
/// @verbatim
///   Newton:  J δ = −r(u),  u ← u + s δ  (s = 1, ½, … while |r| does not decrease; ≤ 6 halvings)
///            J = ∂r/∂u by central differences of the engine's flow
///   stop:    |r|∞ ≤ tol (1 + |u|∞)  → converged;  max_iter iterations → not converged
///   multipliers: eig(D P) (periodic_problem.hpp), D P from the monodromy by differences of the
///            flow (default) or by variational equations and saltation matrices (variational.hpp)
/// @endverbatim

#include <complex>
#include <string>
#include <vector>

#include "clatter/analysis/periodic_problem.hpp"
#include "clatter/analysis/variational.hpp"

namespace clatter::analysis {

enum class MonodromyMethod : std::uint8_t { kDifferences, kVariational };

struct ShootingOptions {
  double tol{1e-10};  ///< residual tolerance (relative to 1 + |u|∞)
  int max_iter{30};
  MonodromyMethod monodromy{MonodromyMethod::kDifferences};
  VariationalOptions variational{};
};

/// Throws InvalidArgument naming the field for tol ≤ 0 or max_iter outside [1, 1000].
void validate(const ShootingOptions& o);

struct Orbit {
  bool converged{false};
  int iterations{0};
  double residual{0.0};                           ///< |r|∞ at u
  std::string message;                            ///< why not converged
  Eigen::VectorXd u;                              ///< the unknowns
  StateVector x0;                                 ///< the full state on the section
  double t0{0.0};                                 ///< the section's time
  double period{0.0};                             ///< T
  Eigen::MatrixXd monodromy;                      ///< M restricted to C
  Eigen::MatrixXd DP;                             ///< the section's Jacobian
  std::vector<std::complex<double>> multipliers;  ///< eig(D P), by decreasing modulus
  bool stable{false};                             ///< converged, and every |λ| < 1
  std::vector<hybrid::EventRecord> events;        ///< the events along one period
  /// not empty: the monodromy's differences straddled a change of the events (the orbit on a
  /// discontinuity of its flow: periodic_problem.hpp, monodromy_differences), which it names
  std::string monodromy_warning;
};

/// Newton shooting from the guess u0, then characterize() at the result (even if not converged).
[[nodiscard]] Orbit find_orbit(const PeriodicProblem& p, const model::System& m,
                               const Eigen::VectorXd& u0, const ShootingOptions& o = {});

/// Fills x0, t0, period, monodromy, DP, multipliers, stable and events of `orbit` at orbit.u;
/// false (with orbit.message) if the flow or the monodromy fails.
bool characterize(const PeriodicProblem& p, const model::System& m, Orbit& orbit,
                  const ShootingOptions& o = {});

/// Where the differences of orbit.monodromy straddled a change of the events
/// (orbit.monodromy_warning set: the orbit on a stick boundary, an obstacle next to the section)
/// on a forced or anchored section, the variational monodromy (saltation at each event,
/// analysis/variational.hpp) replaces them, and the warning is cleared. False (nothing changed)
/// if there was no warning, on an impact section, or if the variational route fails.
bool replace_straddled_monodromy(const PeriodicProblem& p, const model::System& m, Orbit& orbit,
                                 const VariationalOptions& vo = {});

/// Eigenvalues of a real square matrix, by decreasing modulus.
[[nodiscard]] std::vector<std::complex<double>> multipliers_of(const Eigen::MatrixXd& DP);

}  // namespace clatter::analysis

namespace clatter::analysis {

/// Multiple shooting ([B] §5.4's single shooting loses digits as |λ| grows; each segment here
/// spans T/K): forced sections only. Unknowns the solved components at the K nodes
/// t_k = t₀ + kT/K, the other components held at the reference (cyclic or constrained);
/// @verbatim
///   r_k = x(t_{k+1}; t_k, x_k)[S] − x_{k+1}[S],  k = 0 … K−1,  x_K ≡ x_0
///   J: block-cyclic, diagonal blocks M_k = ∂x(t_{k+1})[S]/∂x_k[S] (differences), −I beside
///   M = M_{K−1} ⋯ M_0,  multipliers eig(M)
/// @endverbatim
/// The nodes start on the flow from u0. Returns the orbit at the first node (as find_orbit);
/// throws InvalidArgument naming `segments` outside [1, 64] or an autonomous section.
[[nodiscard]] Orbit find_orbit_multiple(const PeriodicProblem& p, const model::System& m,
                                        const Eigen::VectorXd& u0, int segments,
                                        const ShootingOptions& o = {});

}  // namespace clatter::analysis
