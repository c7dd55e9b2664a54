#pragma once
/// @file
/// The period-n orbits of a ball on a table oscillating as A sin ωt, continued in ω for each
/// Newton restitution e, as one operation for every front end (`clatter orbits` without a
/// scenario, Python's orbit_branch; [BP] Fig. 10, [B] Fig 5.10): from the stable orbit halfway
/// between the closed-form SN and PD, both ways, with SN, PD and grazing located; with cascade K,
/// the period-doubling cascade from the stable branch's PD, K doublings deep, the stable
/// segments of the doubled branches between them, the ratios of its intervals and the
/// accumulation point (Feigenbaum's δ).
///
/// It is the generic machinery on the ball's model (model::make_ball, point mass, Newton law):
/// the orbit problem of analysis/periodic_problem.hpp on the stroboscopic section ωt ≡ π (mod
/// 2π), unknowns (y, ẏ) there, continued by analysis/orbit_branch.hpp, the cascade by
/// continue_period_doubled on the doubled problems. The section stays clear of the impacts: on
/// the period-1 branch the impact phase satisfies Γ cos φ = nπ(1 − e)/(1 + e) > 0, so
/// φ ∈ (−π/2, π/2). The closed form (analysis/impact_oscillator.hpp) gives the start only; it
/// and the ball's own impact map remain independent references in the tests.
///
/// Each point is described by its orbit's run from the section. Its landings are its impacts and
/// its closures (a rebound below the engine's V_tol, the end of a chatter: at small e the ball
/// lands plastically, rides the table and lifts off, a motion the generic engine follows and the
/// ball's own impact map cannot); its take-offs are its impacts and lift-offs. Listed: the
/// number of landings ("impacts"), the first landing after the section (its phase ωt reduced to
/// [−π, π), the absolute velocity after it), the apexes of the flights (y + v⁺²/2g after an
/// upward take-off, else y). An orbit that never flies has none of these (empty in the CSV,
/// null in the JSON).
/// Files:
/// @verbatim
///   branches.csv      e,impacts,periods,omega,phase,velocity,apex_min,apex_max,
///                     lambda1_re,lambda1_im,lambda2_re,lambda2_im,stable,margin
///   bifurcations.csv  e,impacts,periods,kind,omega,phase,velocity,apex_max,lambda1,lambda2,
///                     margin,closed_form_omega (SN and PD of the n-period orbit; empty otherwise)
///   summary.json      the options, per e the branch ends, bifurcations and cascade, files
/// @endverbatim
/// Numbers in the CSV files have 12 significant digits ("inf" for an infinite margin, empty for
/// a value the orbit lacks).

#include <array>
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "clatter/analysis/impact_oscillator.hpp"
#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter orbits` without a scenario, with their defaults.
struct BallOrbitsRequest {
  std::vector<double> e{0.9, 0.7, 0.5, 0.3, 0.1};  ///< Newton restitutions, each in (0, 1)
  double amplitude{1.0};                           ///< A [m]
  double gravity{9.81};                            ///< g [m/s²]
  int periods{1};                                  ///< forcing periods per impact, in [1, 16]
  double omega_min{0.5};                           ///< the branches end outside [ω_min, ω_max]
  double omega_max{7.0};
  int cascade{0};  ///< doublings of the cascade followed, in [0, 8]
};

/// Throws InvalidArgument naming "e", "amplitude", "gravity", "periods", "omega_range" or
/// "cascade".
void validate(const BallOrbitsRequest& request);

/// One orbit of a branch, as branches.csv lists it.
struct BallOrbitPoint {
  int impacts{1};        ///< landings per orbit (impacts and closures)
  int periods{1};        ///< forcing periods per orbit
  double omega{0.0};     ///< ω [rad/s]
  double phase{0.0};     ///< ωt of the first landing after the section, in [−π, π) [rad]
  double velocity{0.0};  ///< the absolute velocity after it [m/s]
  double apex_min{0.0};  ///< lowest apex of the ball over the orbit's flights [m]
  double apex_max{0.0};  ///< highest one [m]
  std::array<std::complex<double>, 2> multipliers{};  ///< by decreasing modulus
  bool stable{false};
  double margin{0.0};  ///< grazing margin [m] (+∞: no flight has an interior gap minimum)
};

/// One row of bifurcations.csv.
struct BallBifurcation {
  analysis::OrbitEventKind kind{analysis::OrbitEventKind::kFold};
  BallOrbitPoint at;
  /// the closed form's SN or PD of the n-period orbit where this one is it (to 1e-6), else NaN
  double closed_form_omega{0.0};
  int level{0};  ///< 0: of the n-period branch; k ≥ 1: the PD of the cascade's k-th doubled branch
};

/// One level of the cascade: the PD point where the orbit of `impacts` impacts in `periods`
/// forcing periods is born.
struct CascadeLevel {
  int impacts{2};
  int periods{2};
  double omega_pd{0.0};
};

/// What was found for one restitution.
struct BallOrbitsOfE {
  double e{0.0};
  analysis::ClosedFormOrbit closed_form;  ///< at ω = 1 (its SN and PD)
  double start_omega{0.0};
  int branch_points{0};  ///< points of the n-period branch (the first ones of `points`)
  /// the n-period branch ordered along it (the decreasing part reversed, then the increasing
  /// one), then the doubled branches' stable segments
  std::vector<BallOrbitPoint> points;
  std::vector<BallBifurcation> bifurcations;      ///< the branch's, then the cascade's deeper PDs
  analysis::OrbitBranchEnd end_high{};            ///< the end of the increasing part
  analysis::OrbitBranchEnd end_low{};             ///< the end of the decreasing part
  std::string end_high_message, end_low_message;  ///< why, in words
  std::vector<CascadeLevel> cascade;              ///< its PD, then the deeper ones (cascade > 0)
  bool incomplete{false};                         ///< fewer doublings than asked
};

/// Runs the operation (the start orbit must be in [ω_min, ω_max]: an InvalidArgument naming
/// "omega_range", or "amplitude"/"gravity" when they moved it there, otherwise).
[[nodiscard]] std::vector<BallOrbitsOfE> run_ball_orbits(const BallOrbitsRequest& request);

/// branches.csv, bifurcations.csv and summary.json (last) in `folder`; `plot`: orbits.png is
/// drawn beside them (listed, else null).
[[nodiscard]] std::vector<OutputFile> ball_orbits_files(const BallOrbitsRequest& request,
                                                        const std::vector<BallOrbitsOfE>& result,
                                                        const std::filesystem::path& folder,
                                                        bool plot);

}  // namespace clatter::app
