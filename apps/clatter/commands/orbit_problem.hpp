#pragma once
// The periodic-orbit problem of a scenario for `clatter orbits SCENARIO`, `continue` and `dib`:
// the command-line options of app::OrbitRequest (app/orbit_setup.hpp, where the section, the
// solved components, the guess and their defaults are stated), translated and posed on the
// scenario's model, initial state and options. Python's periodic_orbit poses the same request.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "clatter/app/orbit_setup.hpp"
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
  bool start_on_section{false};  // the scenario's initial state lies on the section
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
  app::OrbitSetup orbit;
};

/// The request of the options (comma-separated lists split).
[[nodiscard]] app::OrbitRequest orbit_request(const OrbitProblemOptions& o);

/// Loads the scenario, checks the options and poses the problem and its guess
/// (app::make_orbit_setup). Throws InvalidArgument naming the option.
[[nodiscard]] OrbitSetup make_orbit_setup(const OrbitProblemOptions& o);

}  // namespace clatter::cli
