#pragma once
/// @file
/// The discontinuity-induced bifurcation of an orbit at a boundary of Stronge's law, as one
/// operation for every front end (`clatter dib SCENARIO`, Python's boundary_crossing; [NDC] §4–5,
/// analysis/critical_point.hpp, dib.hpp, feigin_normal_form.hpp): from the orbit problem's guess
/// (app/orbit_setup.hpp) and the parameter's value, the critical value p*, the orbit there (state,
/// period, the impact and its scaled law variables, [NDC] Table 5), the orbits on both sides at
/// p* ± offset with their region, H and multipliers, 1 − σ and D, the verdict, the explicit
/// normal form of [NDC] §5.1, and the one-sided slopes of the multipliers' moduli at p*
/// (kink_step h > 0); with span S > 0 both sides' branches over |p − p*| ≤ S, with `forced` each
/// side's region formula forced and its branch followed through p*. Files:
/// @verbatim
///   dib.json      scenario, parameter, regions, converged, message, critical_value, iterations,
///                 flows, H, start (the solved components), period, impact, positive_side,
///                 negative_side, classification, normal_form, multiplier_kink, files
///   branches.csv  side,region,p,period,stable,max_abs_multiplier,H,admissible,
///                 <solved components>,abs_lambda1..  (15 significant digits)
/// @endverbatim

#include <filesystem>
#include <string>
#include <vector>

#include "clatter/analysis/critical_point.hpp"
#include "clatter/analysis/dib.hpp"
#include "clatter/analysis/feigin_normal_form.hpp"
#include "clatter/app/orbit_setup.hpp"
#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter dib` beside its orbit's (OrbitRequest), with their defaults.
struct DibRequest {
  std::string parameter;     ///< the parameter p, by name
  std::vector<int> regions;  ///< the two regions of the boundary, e.g. {5, 9}
  int impact{0};             ///< which impact of the orbit (0: the first)
  double offset{1e-5};       ///< |p − p*| of the two sides' orbits, in (0, 0.1)
  double span{0.0};          ///< continue both sides' branches this far from p* (0: none)
  double kink_step{1e-3};    ///< h of the multipliers' one-sided slopes, in [0, 0.1) (0: skip)
  std::string newton{"differences"};  ///< the critical point's Jacobian: or "variational"
  bool forced{false};                 ///< continue each side with its region's formula forced
};

/// Throws InvalidArgument naming "param", "regions", "offset", "span", "kink_step", "newton".
void validate(const DibRequest& request);

/// What run_dib found, and dib.json's text (without "files") and branches.csv's.
struct Dib {
  analysis::CriticalPointOptions options;
  analysis::CriticalPoint critical;     ///< not converged: nothing below was computed
  analysis::BoundaryCrossing crossing;  ///< message non-empty: not classified
  analysis::FeiginNormalForm normal_form;
  analysis::MultiplierKink kink;  ///< found false without kink_step or a classification
  std::string json;
  std::string branches_csv;
};

/// Runs the operation; `scenario` is what dib.json names as the scenario.
[[nodiscard]] Dib run_dib(const OrbitSetup& setup, const DibRequest& request,
                          const std::string& scenario);

/// branches.csv and dib.json (last) in `folder`; `plot`: dib.png is drawn beside them.
[[nodiscard]] std::vector<OutputFile> dib_files(const Dib& dib, const std::filesystem::path& folder,
                                                bool plot);

}  // namespace clatter::app
