#pragma once
/// @file
/// The periodic-orbit problem of an operation, posed once for every front end: `clatter orbits
/// SCENARIO`, `continue` and `dib` fill an OrbitRequest from their options, Python's
/// periodic_orbit, continue_orbit and boundary_crossing from their keywords, and both get the
/// same section, solved components, guess and shooting options from make_orbit_setup (so their
/// defaults are the same by construction).
/// @verbatim
///   forced (no anchor, no impact; ω = the parameter `frequency`, default "surface.omega"):
///     stroboscopic section ω t ≡ φ_s, n = periods forcing periods per orbit;
///     φ_s = phase if given, else ω t_g with start_on_section, else the middle of the longest
///     event-free stretch of the n periods after the transient (t_g = t₀ + transient·2π/ω)
///   autonomous (anchor = a state name): x[anchor] − ν t fixed, ν = the parameter `drift`
///     (none: 0), T unknown with guess `period` [s]; the guess after transient × period seconds
///   impact (impact = a contact name, an unforced model): the orbit starts just after an impact of
///     the contact and ends just after the impacts-th that follows (of its image modulo the
///     symmetry); the guess is the state just after the first impact of the contact once
///     `transient` of them have passed, or the start itself with start_on_section
///   modulo_symmetry (any section): the orbit closes on the image G(x₀) of its start
///   closed: contacts closed at the guess (their velocities projected onto them); default: the
///     start's, or those the engine finds closed after the transient run
///   solve: state names (coordinates, "<name>dot", aux names); default: every component but the
///     anchor (impact: the velocities and aux)
/// @endverbatim
/// Every error is an InvalidArgument naming the request's field by its option name ("phase",
/// "periods", "anchor", "impact-section", ...).

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "clatter/analysis/shooting.hpp"
#include "clatter/app/output_file.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::app {

/// What poses an orbit problem: the options of `clatter orbits SCENARIO` (and of `continue` and
/// `dib`), with their defaults.
struct OrbitRequest {
  std::vector<std::string> solve;  ///< solved state components; empty: the default above
  std::string frequency;           ///< forced: ω's parameter; empty: "surface.omega"
  double phase{std::nan("")};      ///< forced: φ_s [rad]; NaN: the default above
  int periods{1};                  ///< forced: forcing periods per orbit, in [1, 1000]
  std::string anchor;              ///< autonomous: the state component fixed on the section
  std::string drift;               ///< autonomous: the parameter giving the anchor's drift rate
  double period{0.0};              ///< autonomous: guess of T [s]
  std::string impact;              ///< impact section: the contact
  int impacts{1};                  ///< impact section: impacts per orbit, in [1, 1000]
  double max_period{1e3};          ///< impact section: a flow longer than this [s] fails
  bool modulo_symmetry{false};
  std::vector<std::string> closed;  ///< contacts closed at the guess, by name
  double transient{0.0};  ///< periods (forced, autonomous) or impacts (impact) before the guess
  bool start_on_section{false};  ///< the start lies on the section: no run to it (see above)
  std::string monodromy{"differences"};  ///< "differences" or "variational"
  double tol{1e-10};                     ///< Newton's relative tolerance
  int max_iter{30};                      ///< Newton iterations
  int segments{1};  ///< multiple shooting with this many segments (forced), in [1, 64]
};

/// The problem, its guess and how to shoot it.
struct OrbitSetup {
  analysis::PeriodicProblem problem;
  Eigen::VectorXd guess;  ///< the unknowns u at the guess
  analysis::ShootingOptions shooting;
  int segments{1};
};

/// Poses the request on `model` from `start` (its state and closed contacts) with the engine's
/// `options` (their t_end bounds the run to an impact section's guess). Throws InvalidArgument
/// naming the field.
[[nodiscard]] OrbitSetup make_orbit_setup(std::shared_ptr<const model::System> model,
                                          const hybrid::InitialState& start,
                                          const hybrid::SimulationOptions& options,
                                          const OrbitRequest& request);

/// Shoots the orbit from the setup's guess: single shooting, or multiple with segments > 1.
[[nodiscard]] analysis::Orbit find_orbit(const OrbitSetup& setup);

/// The orbit as JSON text (2-space indent): converged, message, residual, iterations, section,
/// t0, period, solved, state (by name), multipliers (re, im, abs), stable, events.
[[nodiscard]] std::string orbit_json(const OrbitSetup& setup, const analysis::Orbit& orbit);

/// The files of `clatter orbits SCENARIO` in `folder`: timeseries.csv (t and the state by
/// name, 1000 samples per period, 17 digits; the header only if the orbit has no finite period)
/// and orbit.json (orbit_json with "scenario" and "files", the plot orbit.png or null).
[[nodiscard]] std::vector<OutputFile> orbit_files(const OrbitSetup& setup,
                                                  const analysis::Orbit& orbit,
                                                  const std::string& scenario,
                                                  const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
