#pragma once
// The periodic-orbit problem of a scenario for `clatter orbits SCENARIO` and `clatter continue`
// (analysis/periodic_problem.hpp): the section, the solved components and the guess, from the
// command line, with every error naming its option.
//
//   forced (default when the model has a positive "surface.omega", or --frequency is given):
//     stroboscopic section ω t ≡ --phase (default: the middle of the longest event-free stretch
//     of the guess's period), n = --periods
//   autonomous (--anchor NAME): x[NAME] − ν t fixed, ν = the parameter --drift (optional), T
//     unknown with guess --period
//   impact section (--impact-section CONTACT, an unforced model): the orbit starts just after an
//   impact
//     of CONTACT and ends just after the --impacts-th that follows (of its image modulo the
//     symmetry); the guess is the state after the first impact of CONTACT once --transient of
//     them have passed
//   modulo the model's symmetry (--modulo-symmetry, any section): the orbit closes on the image
//     G(x0) of its start (model/motion_symmetry.hpp: a walker's step)
//   contacts closed at the start (--closed a,b): their velocities projected onto them, as a
//     continued run's (hybrid::InitialState::closed; default: the guess's after a transient)
//   solved components --solve a,b,... (state names: coordinates, "<name>dot", auxiliary names;
//     default: every component but the anchor)
//   guess: the scenario's initial state, or its state after --transient forcing periods (forced)
//     or --transient × --period seconds (autonomous), moved on to the section

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "clatter/analysis/shooting.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::cli {

struct OrbitProblemOptions {
  std::string scenario;
  std::string solve;  // comma-separated state names
  std::string frequency;
  double phase{std::nan("")};
  int periods{1};
  std::string anchor;
  std::string drift;
  double period{0.0};
  double transient{0.0};
  std::string monodromy{"differences"};
  double tol{1e-10};
  int max_iter{30};
  int segments{1};  // multiple shooting (forced sections)
  bool modulo_symmetry{false};
  std::string closed;  // contacts closed at the guess, comma-separated names
  std::string impact;  // impact section: the contact
  int impacts{1};      // impact section: impacts of the end contact per orbit
  double max_period{1e3};
};

/// Registers the options above on `sub` (the scenario as the first positional argument).
/// `with_periods`: register --periods too (a command may have its own with the same meaning).
void add_orbit_problem_options(CLI::App* sub, OrbitProblemOptions& o, bool scenario_required,
                               bool with_periods = true);

/// `clatter orbits SCENARIO ...`: one orbit by shooting; JSON on stdout and in
/// <out>/orbit.json, its time series <out>/timeseries.csv (t and the state, 1000 samples per
/// period) and <out>/orbit.png. Exit 0 if converged, 3 otherwise.
int run_orbit_cli(const OrbitProblemOptions& o, const std::string& out, bool plot);

struct OrbitSetup {
  io::Scenario scenario;
  analysis::PeriodicProblem problem;
  Eigen::VectorXd guess;
  analysis::ShootingOptions shooting;
};

/// Loads the scenario, checks the options and builds the problem and its guess. Throws
/// InvalidArgument naming the option.
[[nodiscard]] OrbitSetup make_orbit_setup(const OrbitProblemOptions& o);

/// The orbit as JSON: converged, residual, iterations, t0, period, the state on the section by
/// name, the solved components, multipliers (re, im, modulus), stable, and its events.
[[nodiscard]] nlohmann::json orbit_json(const OrbitSetup& s, const analysis::Orbit& orbit);

}  // namespace clatter::cli
