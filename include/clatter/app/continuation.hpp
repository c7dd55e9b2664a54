#pragma once
/// @file
/// Continuation of an orbit in a parameter, as one operation for every front end (`clatter
/// continue SCENARIO`, Python's continue_orbit): the request with its defaults and checks, the
/// run (the start orbit by app::find_orbit, then a branch per direction,
/// analysis/orbit_branch.hpp), and the files it writes:
/// @verbatim
///   branch.csv        branch,p,period,<solved components>,stable,max_abs_multiplier,
///                     lambda<k>_re,lambda<k>_im,...,tau_sn,tau_pd,tau_ns,margin,sticks,itinerary
///                     (margin: the grazing margin [m], "inf" when no open contact has an
///                     interior minimum; itinerary: "contact:region" of each impact)
///   bifurcations.csv  branch,kind,p,period,<solved components>,max_abs_multiplier,detail
///   summary.json      scenario, parameter, range, the start orbit (app::orbit_json), per
///                     direction the points, the end, its message and the bifurcations; files
/// @endverbatim
/// Numbers in the CSV files have 15 significant digits.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "clatter/analysis/orbit_branch.hpp"
#include "clatter/app/orbit_setup.hpp"
#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter continue` beside its orbit's (OrbitRequest), with their defaults.
struct ContinueRequest {
  std::string parameter;  ///< the parameter continued in, by name
  double p_min{0.0};      ///< the branch ends outside [p_min, p_max] (which holds the start's p)
  double p_max{0.0};
  std::string direction{"both"};  ///< "up", "down" or "both" (up first)
  double ds{0.01};                ///< first arclength step
  double ds_max{0.1};             ///< largest arclength step
  int max_points{400};            ///< points per direction
};

/// One direction's branch.
struct Branch {
  std::string direction;  ///< "up" or "down"
  analysis::OrbitBranch branch;
};

struct Continuation {
  analysis::Orbit start;  ///< the start orbit; not converged: no branch was run
  std::vector<Branch> branches;
};

/// Checks the request by itself. Throws InvalidArgument naming "param", "range", "direction",
/// "ds", ...
void validate(const ContinueRequest& request);

/// Checks the request (validate, and that the parameter exists with its value in the range: an
/// InvalidArgument naming "range" otherwise), finds the start orbit and, if it converged,
/// continues it in each direction. `on_point` (may
/// be empty) is called after each point with the points of the current direction so far.
[[nodiscard]] Continuation run_continuation(const OrbitSetup& setup, const ContinueRequest& request,
                                            const std::function<void(int points)>& on_point = {});

/// branch.csv, bifurcations.csv and summary.json (in that order; summary last) in `folder`.
/// `scenario` is what summary.json names as the scenario (its file as given), `plot` whether
/// branch.png is drawn beside them (summary.json lists it, else null).
[[nodiscard]] std::vector<OutputFile> continuation_files(
    const OrbitSetup& setup, const ContinueRequest& request, const Continuation& result,
    const std::string& scenario, const std::filesystem::path& folder, bool plot);

/// The summary alone (what `clatter continue` prints), with "files" null: for a start orbit that
/// did not converge, when no file is written.
[[nodiscard]] std::string continuation_summary(const OrbitSetup& setup,
                                               const ContinueRequest& request,
                                               const Continuation& result,
                                               const std::string& scenario);

}  // namespace clatter::app
