#pragma once
/// @file
/// The period-n orbits of a ball on a table oscillating as A sin ωt, continued in ω for each
/// Newton restitution e, as one operation for every front end (`clatter orbits` without a
/// scenario, Python's orbit_branch; [BP] Fig. 10, [B] Fig 5.10): from the stable orbit halfway
/// between the closed-form SN and PD, both ways, with SN, PD and grazing located; with cascade K,
/// the period-doubling cascade from the stable branch's PD, K doublings deep, the stable
/// segments of the doubled branches between them, the ratios of its intervals and the
/// accumulation point (Feigenbaum's δ). It runs the ball's own impact map
/// (analysis/orbit_continuation.hpp). Files:
/// @verbatim
///   branches.csv      e,impacts,periods,omega,phase,velocity,apex_min,apex_max,
///                     lambda1_re,lambda1_im,lambda2_re,lambda2_im,stable,margin
///   bifurcations.csv  e,impacts,periods,kind,omega,phase,velocity,apex_max,lambda1,lambda2,
///                     margin,closed_form_omega (SN and PD of the n-period orbit; empty otherwise)
///   summary.json      the options, per e the branch ends, bifurcations and cascade, files
/// @endverbatim
/// Numbers in the CSV files have 12 significant digits ("inf" for an infinite margin).

#include <filesystem>
#include <string>
#include <vector>

#include "clatter/analysis/orbit_continuation.hpp"
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

/// What was found for one restitution.
struct BallOrbitsOfE {
  double e{0.0};
  analysis::ClosedFormOrbit closed_form;  ///< at ω = 1 (its SN and PD)
  double start_omega{0.0};
  analysis::Branch branch;                     ///< both ways, ordered along the branch
  analysis::BranchEnd end_low{};               ///< the end of the decreasing part
  std::vector<analysis::Bifurcation> cascade;  ///< its PD, then the deeper ones (cascade > 0)
  std::vector<analysis::Branch> doubled;       ///< the doubled branches' stable segments
  bool incomplete{false};                      ///< fewer doublings than asked
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
