#pragma once
/// @file
/// Continuation of the periodic orbits of any model (analysis/shooting.hpp) in any named
/// parameter p, with detection of their bifurcations.
/// @verbatim
///   unknowns  y = (u, p);  residual r(u; p) (periodic_problem.hpp), d equations, d + 1 unknowns
///   J = [∂r/∂u | ∂r/∂p]  (central differences of the engine's flow)
///   tangent   t: the null vector of J, the last column of Q in Jᵀ = Q R (full QR), oriented
///             along the previous tangent (the first one towards `direction` in p)
///   predictor ŷ = y_k + Δs t_k;  corrector: Newton on [r(y); t_k·(y − ŷ)] = 0
///   test functions of the multipliers λ_i (eig of D P):
///     fold (SN)          τ_SN = ∏(λ_i − 1) = det(D P − I)
///     period doubling    τ_PD = ∏(λ_i + 1) = det(D P + I)
///     Neimark–Sacker     τ_NS = ∏_{i<j}(λ_i λ_j − 1)   (a complex pair crossing |λ| = 1)
///   along the orbit: the grazing margin (the smallest interior local minimum of an open
///   contact's gap; → 0 at a grazing), the itinerary of impact-law regions (contact, region) of
///   the impacts, and the number of stick events (a sticking phase gained or lost)
///   a sign change of a τ, the margin falling below grazing_tol, or a change of itinerary
///   between two points is located by bisection on Δs (each trial a corrected point)
/// @endverbatim
/// Every loop is bounded: max_points, max_corrector_iterations, the step halves down to ds_min;
/// OrbitBranch::end says why the branch stopped.

#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/analysis/shooting.hpp"
#include "clatter/core/enum_names.hpp"

namespace clatter::analysis {

struct OrbitPoint;

struct OrbitBranchOptions {
  std::string parameter;  ///< the continuation parameter, by name
  double p_min{-1e300};   ///< the branch ends outside [p_min, p_max]
  double p_max{1e300};
  int direction{1};  ///< +1: first towards increasing p, −1: decreasing
  double ds{0.01};   ///< first step (Euclidean in (u, p))
  double ds_min{1e-8};
  double ds_max{0.1};
  int max_points{400};
  double tol{1e-9};  ///< corrector: |r|∞ ≤ tol (1 + |u|∞)
  int max_corrector_iterations{8};
  double locate_tol{1e-7};  ///< bifurcations are located to this step width
  /// a margin below this [m] ends a branch whose corrector fails as a grazing (past it the
  /// flight would cross the obstacle: the engine sees a new low-velocity impact and the map
  /// changes its form); along a branch, a margin below grazing_tol/1000 is recorded as one
  double grazing_tol{1e-4};
  double multiplier_tol{1e-3};  ///< a located SN/PD/NS must have |λ ∓ 1| or ||λ| − 1| below this
  /// a point with a multiplier of modulus above this ends the branch (single shooting loses its
  /// accuracy there)
  double max_multiplier{1e6};
  /// end the branch at its first located fold, period doubling or Neimark–Sacker point
  /// (OrbitBranchEnd::kBifurcation; the located point is the branch's last): the segment of a
  /// period-doubling cascade between two doublings
  bool stop_at_bifurcation{false};
  /// called after each point is added to the branch (progress), with the number of points so
  /// far; may be empty. An exception it throws ends the continuation and propagates.
  std::function<void(const OrbitPoint&, int points)> on_point;
};

/// Throws InvalidArgument naming the field for an empty parameter, an inverted range, steps not
/// 0 < ds_min ≤ ds ≤ ds_max, direction not ±1, max_points < 2, tolerances ≤ 0.
void validate(const OrbitBranchOptions& o);

struct OrbitPoint {
  double p{0.0};
  Eigen::VectorXd u;
  double period{0.0};
  std::vector<std::complex<double>> multipliers;
  Eigen::MatrixXd DP;  ///< the section map's Jacobian (its eigenvalues are the multipliers)
  bool stable{false};
  double tau_sn{0.0}, tau_pd{0.0}, tau_ns{0.0};
  double margin{0.0};  ///< grazing margin [m] (+∞ if no open contact has an interior minimum)
  /// the smallest normal speed −v_N⁻ of the orbit's impacts [m/s] (+∞ if none): a grazing
  /// impact where it tends to zero
  double min_impact_speed{std::numeric_limits<double>::infinity()};
  std::vector<std::pair<int, int>> itinerary;  ///< (contact, region) of the impacts
  int sticks{0};                               ///< stick events along the orbit
  int slip_onsets{0};                          ///< slip-onset events along the orbit
  int lift_offs{0};                            ///< lift-off events along the orbit
  /// autonomous sections: the anchor's rate at the return (periodic_problem.hpp, section_rate)
  double section_rate{std::numeric_limits<double>::quiet_NaN()};
  /// not empty: the multipliers come from differences that straddled a change of the events
  /// (Orbit::monodromy_warning); such a point takes no part in locating SN, PD or NS
  std::string monodromy_warning;
};

enum class OrbitEventKind : std::uint8_t {
  kFold,
  kPeriodDoubling,
  kNeimarkSacker,
  kGrazing,
  kRegionChange,    ///< an impact's law region changes: where discontinuity-induced
                    ///< bifurcations of the impact law start ([NDC] §4)
  kStickChange,     ///< a sticking phase is gained or lost
  kSlipLiftChange,  ///< a slip onset or a lift-off is gained or lost (a stance that starts to
                    ///< slide or to leave its obstacle before the next impact)
  kBranchPoint,     ///< "BP": a real multiplier crosses +1 where the branch does not turn back
                    ///< (a pitchfork: a symmetric orbit that loses its symmetry, as two gears'
                    ///< rattle does; or a transcritical point): other branches meet this one
};
[[nodiscard]] std::string_view to_string(OrbitEventKind k);

struct OrbitBifurcation {
  OrbitEventKind kind{OrbitEventKind::kFold};
  OrbitPoint at;       ///< the located point (the last one before the change, for discrete kinds)
  std::string detail;  ///< e.g. the itineraries on both sides
  /// PD: the eigenvector of the multiplier −1 in the solved components (branch switching)
  Eigen::VectorXd eigenvector{};
};

enum class OrbitBranchEnd : std::uint8_t {
  kParameterRange,
  kGrazing,
  kMaxPoints,
  kStepTooSmall,
  kMultiplierBound,
  kBifurcation,  ///< OrbitBranchOptions::stop_at_bifurcation
  /// an autonomous section the orbits stop crossing: the anchor's rate at the section falls
  /// through 0 between two points (past it the orbits turn back before the anchor's value, and
  /// the solutions found are their other crossing: the same orbits again)
  kSectionTangency,
};
[[nodiscard]] std::string_view to_string(OrbitBranchEnd e);

}  // namespace clatter::analysis

namespace clatter {
template <>
struct EnumNames<analysis::OrbitBranchEnd> {
  static constexpr std::array<const char*, 7> names{
      "parameter_range",  "grazing",     "max_points",      "step_too_small",
      "multiplier_bound", "bifurcation", "section_tangency"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() ==
                static_cast<std::size_t>(analysis::OrbitBranchEnd::kSectionTangency) + 1);
};
}  // namespace clatter

namespace clatter::analysis {

struct OrbitBranch {
  std::vector<OrbitPoint> points;
  std::vector<OrbitBifurcation> bifurcations;
  OrbitBranchEnd end{OrbitBranchEnd::kMaxPoints};
  std::string message;  ///< why it ended, in words
};

/// The point of `orbit` (converged) of the model p.model at parameter value p.model's.
[[nodiscard]] OrbitPoint orbit_point(const PeriodicProblem& problem, const model::System& m,
                                     double p, const Orbit& orbit, const OrbitBranchOptions& o);

/// Continues the converged orbit `start` of problem.model in options.parameter.
[[nodiscard]] OrbitBranch continue_orbits(const PeriodicProblem& problem, const Orbit& start,
                                          const OrbitBranchOptions& options);

/// The branch of the doubled orbit born at the period-doubling point `pd` of a branch of
/// `problem` (forced: 2n forcing periods; autonomous: period 2T): pseudo-arclength on the doubled
/// problem from the PD point along (w, 0), w the −1 eigenvector (the pitchfork of the doubled
/// map), the first point accepted only if the single map moves it (it is not the old orbit), then
/// continued away from the PD point with `options` (its direction is replaced). Returns a branch
/// with no points and end kStepTooSmall, saying why, if no doubled orbit is found.
[[nodiscard]] OrbitBranch continue_period_doubled(const PeriodicProblem& problem,
                                                  const OrbitBifurcation& pd,
                                                  const OrbitBranchOptions& options);

/// The doubled problem of `problem` (the same section, twice the periods).
[[nodiscard]] PeriodicProblem doubled_problem(const PeriodicProblem& problem);

}  // namespace clatter::analysis
