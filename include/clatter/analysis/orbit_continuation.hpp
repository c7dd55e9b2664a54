#pragma once
/// @file
/// Pseudo-arclength continuation in the surface frequency ω of the periodic orbits of the impact
/// oscillator (analysis/impact_oscillator.hpp), with detection of their bifurcations ([BP] §4.3
/// Fig. 10, [B] §5.3.1 Fig 5.10: saddle-node SN, period doubling PD, grazing G) and switching onto
/// the period-doubled branch.
/// @verbatim
///   unknowns  x = (φ, v, ω);   residual  F(x) = P^m_ω(φ, v) − (φ + 2πn, v)   (2 equations)
///   J = [D(P^m) − I | ∂P^m/∂ω]  (2×3, central differences of the engine's map)
///   tangent   t = J₁ × J₂ / |J₁ × J₂|   (the null vector of J), oriented along the previous one
///   predictor x̂ = x_k + Δs t_k;  corrector: Newton on [F(x); t_k·(x − x̂)] = 0
///   test functions along the branch (λ₁, λ₂ the Floquet multipliers of D(P^m)):
///     SN  τ_SN = det(D(P^m) − I) = (1 − λ₁)(1 − λ₂)   changes sign (a multiplier crosses +1)
///         and the tangent's ω component changes sign (the branch folds back)
///     PD  τ_PD = det(D(P^m) + I) = (1 + λ₁)(1 + λ₂)   changes sign (a multiplier crosses −1)
///     G   the grazing margin (the smallest interior gap of a flight) reaches 0: the branch ends,
///         since past it the flight would pass through the surface (the engine sees an earlier
///         impact and the map changes its form)
///   a sign change is located by the Illinois method on the step Δs from the previous point
/// @endverbatim
/// The Newton law has det D(P^m) = e^{2m} < 1 (area contraction), so no Neimark–Sacker
/// bifurcation occurs and none is tested for.
///
/// Every loop is bounded: max_points along a branch, max_corrector_iterations per point, the step
/// halves down to ds_min before the branch is declared ended; Branch::end says why it stopped.

#include <string_view>
#include <vector>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/core/enum_names.hpp"

namespace clatter::analysis {

struct ContinuationOptions {
  double omega_min{0.1};   ///< the branch ends below this ω [rad/s]
  double omega_max{10.0};  ///< and above this one
  double ds{0.02};         ///< first arclength step in (φ [rad], v [m/s], ω [rad/s])
  double ds_min{1e-9};     ///< a step below this ends the branch
  double ds_max{0.05};     ///< steps grow up to this
  int max_points{4000};    ///< points along one branch
  double tol{1e-10};       ///< corrector: |F| below this
  int max_corrector_iterations{10};
  double locate_tol{1e-10};  ///< bifurcations: step bracket width
  /// grazing: the branch ends as a grazing bifurcation when the last margin is below this [m]
  double grazing_tol{1e-4};
  /// a located SN/PD needs a multiplier within this of +1/−1 (else the sign change was a jump)
  double multiplier_tol{1e-4};
  /// a point with a multiplier above this is refused (single shooting loses its accuracy there)
  double max_multiplier{1e4};
  /// end the branch at its first located SN or PD (BranchEnd::kBifurcation)
  bool stop_at_bifurcation{false};
};

/// Throws InvalidArgument naming the field for a non-positive or inverted ω range, steps that are
/// not 0 < ds_min ≤ ds ≤ ds_max, max_points < 2, tolerances ≤ 0.
void validate(const ContinuationOptions& o);

struct BranchPoint {
  double omega{0.0};
  ImpactState z{};
  std::array<std::complex<double>, 2> multipliers{};
  bool stable{false};
  double margin{0.0};    ///< grazing margin [m] (+∞ if no flight has an interior minimum)
  double apex_min{0.0};  ///< lowest apex of the centre over the orbit's flights [m]
  double apex_max{0.0};  ///< highest one
  double tau_sn{0.0};    ///< det(D(P^m) − I)
  double tau_pd{0.0};    ///< det(D(P^m) + I)
};

enum class BifurcationKind { kSaddleNode, kPeriodDoubling, kGrazing };
[[nodiscard]] std::string_view to_string(BifurcationKind k);

struct Bifurcation {
  BifurcationKind kind{BifurcationKind::kSaddleNode};
  BranchPoint at{};
  /// PD: the eigenvector of the multiplier −1 (in (φ, v)), for branch switching
  Eigen::Vector2d eigenvector{Eigen::Vector2d::Zero()};
};

/// Why a branch ended: it left [omega_min, omega_max]; it grazed; max_points; the step fell below
/// ds_min at a multiplier above max_multiplier, or for another reason (the corrector failed); it
/// stopped at its first SN or PD (ContinuationOptions::stop_at_bifurcation).
enum class BranchEnd {
  kOmegaRange,
  kGrazing,
  kMaxPoints,
  kMultiplierBound,
  kStepTooSmall,
  kBifurcation
};
[[nodiscard]] std::string_view to_string(BranchEnd e);

}  // namespace clatter::analysis

namespace clatter {
template <>
struct EnumNames<analysis::BranchEnd> {
  static constexpr std::array<const char*, 6> names{
      "omega_range", "grazing", "max_points", "multiplier_bound", "step_too_small", "bifurcation"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() == static_cast<std::size_t>(analysis::BranchEnd::kBifurcation) + 1);
};
}  // namespace clatter

namespace clatter::analysis {

struct Branch {
  int impacts{1};
  int periods{1};
  std::vector<BranchPoint> points;  ///< in the order of continuation
  std::vector<Bifurcation> bifurcations;
  BranchEnd end{BranchEnd::kMaxPoints};
};

/// Continues the converged orbit `start` of `osc` (at osc.omega()), first towards increasing ω
/// if direction > 0, decreasing if < 0. @pre start.converged.
[[nodiscard]] Branch continue_orbit(const ImpactOscillator& osc, const PeriodicOrbit& start,
                                    int direction, const ContinuationOptions& options);

/// Both ways from `start`, joined into one branch ordered along it (the part towards decreasing ω
/// first, reversed). `end` is the end of the increasing part; `end_low` receives the other one.
[[nodiscard]] Branch continue_both_ways(const ImpactOscillator& osc, const PeriodicOrbit& start,
                                        const ContinuationOptions& options,
                                        BranchEnd* end_low = nullptr);

/// The period-doubled branch (2m impacts in 2n periods) born at the PD point `pd` of a branch
/// with m impacts in n periods: pseudo-arclength from the PD point along its −1 eigenvector
/// (the standard branch switch at a pitchfork of P^{2m}). Returns an empty branch if the switch
/// does not land on an orbit of period 2m distinct from the period-m one.
[[nodiscard]] Branch continue_period_doubled(const ImpactOscillator& osc, const Bifurcation& pd,
                                             int impacts, int periods,
                                             const ContinuationOptions& options);

/// The period-doubling cascade from the PD point `pd` of a branch with m = `impacts` impacts in
/// n = `periods` periods: the PD points of the branches of 2m, 4m, … impacts, each switched onto
/// and followed to its first bifurcation, up to `levels` doublings (the steps shrink by 4 per
/// level, as the doublings accumulate geometrically, Feigenbaum's δ ≈ 4.669). Returns `pd` and
/// the PD points found, in order; fewer than levels + 1 if a level ends otherwise.
/// Throws InvalidArgument naming `levels` outside [1, 8].
[[nodiscard]] std::vector<Bifurcation> period_doubling_cascade(const ImpactOscillator& osc,
                                                               const Bifurcation& pd, int impacts,
                                                               int periods, int levels,
                                                               const ContinuationOptions& options);

}  // namespace clatter::analysis
