#pragma once
/// @file
/// A Poincaré map iterated along one run, as one operation for every front end (`clatter section
/// SCENARIO`, Python's poincare): the request with its defaults and checks, the run
/// (analysis::PoincareWalker, stepped from crossing to crossing) and the files it writes:
/// @verbatim
///   section.csv   k,t,<state by name>,events_passed   (17 significant digits)
///   summary.json  scenario, section, points, requested, stopped, files
/// @endverbatim
/// The section is written as the CLI's SPEC:
/// @verbatim
///   impact[:CONTACT]                 the next impact (of CONTACT, or of any contact)
///   event:KIND[:CONTACT]             the next event of a kind (stick, slip_onset, lift_off, ...)
///   phase[:PHI]                      stroboscopic, ω t ≡ PHI (mod 2π), ω = the parameter
///                                    `frequency` (default surface.omega)
///   crossing:NAME:VALUE[:up|down]    a state component crossing a value (default: both ways)
/// @endverbatim

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "clatter/analysis/poincare_map.hpp"
#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter section`, with their defaults.
struct SectionRequest {
  std::string section{"impact"};  ///< the SPEC above
  int count{100};                 ///< points recorded, in [1, 1e7]
  double transient{0.0};          ///< points before t₀ + transient [s] are not recorded
  double t_max{0.0};              ///< no point after this time [s]; 0: the options' t_end
  std::string frequency;          ///< phase: ω's parameter; empty: "surface.omega"
  double sample_dt{0.0};  ///< crossing of a velocity or aux: the sample step [s]; 0: default
};

/// The section of a SPEC on `model`. Throws InvalidArgument naming "section".
[[nodiscard]] analysis::PoincareSection parse_section(const model::System& model,
                                                      const SectionRequest& request);

/// The recorded points and why the run stopped ("count reached" if it found them all).
struct SectionRun {
  std::vector<analysis::SectionPoint> points;
  std::string stopped;
};

/// Checks the request and iterates the map from `start`. Throws InvalidArgument naming "count",
/// "transient", "t_max" or "section".
[[nodiscard]] SectionRun run_section(const model::System& model, const hybrid::InitialState& start,
                                     const hybrid::SimulationOptions& options,
                                     const SectionRequest& request);

/// section.csv and summary.json (summary last) in `folder`; `scenario` as summary.json names it,
/// `plot`: section.png is drawn beside them (listed, else null).
[[nodiscard]] std::vector<OutputFile> section_files(const model::System& model,
                                                    const SectionRequest& request,
                                                    const SectionRun& run,
                                                    const std::string& scenario,
                                                    const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
