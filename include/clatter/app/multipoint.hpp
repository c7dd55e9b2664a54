#pragma once
/// @file
/// A simultaneous multi-point collision of [R] (multipoint/) resolved as a sequence of impact
/// events, as one operation for every front end (`clatter multipoint`, Python's multipoint).
/// Presets are the thesis's examples (ball-corner, rocking-block, rocking-block-friction, cradle3,
/// cradle3-case2, cradle5, cradle5-case2, cradle5-case3, sphere-corner, block3d-3, block3d-4,
/// block3d-centered) with their e*, and "cradle", a Newton's cradle of any masses; the fields
/// given override a preset's values. Files:
/// @verbatim
///   trace.csv     event,P,work_N, per contact c: Lambda_N_c, v_T_c (2-D) or
///                 v_T1_c,v_T2_c,s_c,phi_c (3-D), v_N_c; against the impulse P, 12 significant
///                 digits, thinned evenly to about 20000 rows when longer
///   summary.json  the model, contacts, parameters, status, per-event impulses, velocities,
///                 energies, segments and slip changes, the thesis's derived quantities, the files
/// @endverbatim
/// The figure is multipoint.png (python/clatter_plots/multipoint.py).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clatter/app/output_file.hpp"
#include "clatter/multipoint/collision.hpp"

namespace clatter::app {

/// The options of `clatter multipoint`, with their defaults.
struct MultipointRequest {
  std::string preset;                ///< "cradle" or a name of multipoint_presets()
  std::vector<double> e_star;        ///< global e* per event in [−1, 1], the last repeats; ≤ 64
  std::optional<double> mu_s, mu_d;  ///< static and dynamic friction of every contact
  std::string work_def{"thesis"};    ///< thesis (Eq. 4.7) or integral (Σ∫v_N dΛ_N)
  std::string compression{"latest-parabola"};  ///< or first-minimum
  std::string recipe{"thesis"};                ///< pair constraint: thesis or min-norm
  std::string pairs{"chain"};                  ///< pair choice: chain or star
  std::string method{"analytic"};              ///< planar solver: analytic or ode
  std::vector<double> qdot;      ///< pre-impact generalised speeds (overrides the preset)
  int max_events{32};            ///< event cap
  int max_steps{20000};          ///< 3-D: steps per event, in [100, 1e6]
  std::vector<double> masses;    ///< preset cradle: ball masses [kg] (2 to kMaxCradleBalls)
  std::optional<double> v_pre;   ///< preset cradle: centre speed of ball A [m/s] (1)
  std::optional<double> length;  ///< preset cradle: string length to the centre [m]
  std::optional<double> radius;  ///< preset cradle: ball radius [m]
};

/// The collision's status, its files (trace.csv, summary.json last), the figure (when asked
/// for) and the summary's text.
struct Multipoint {
  multipoint::Status status{multipoint::Status::kOk};
  int n_events{0};
  std::vector<OutputFile> files;
  std::optional<PlotCall> plot;
  std::string summary;
  /// "" when the collision was resolved with its invariants kept; else one line saying why not
  /// (not resolved: no_termination, max_events, singular_rates, disconnected; or an invariant
  /// broken: pulling_contact, energy_gain)
  std::string failure;
};

/// The preset names (without "cradle").
[[nodiscard]] std::vector<std::string> multipoint_presets();

/// Checks the request (InvalidArgument naming "preset", "masses", "v_pre", "length", "radius",
/// "qdot", "work_def", "compression", "recipe", "pairs", "method", "max_steps" or a field of
/// multipoint::Params), resolves the collision and composes its files in `folder`; `plot`: the
/// figure is folder/multipoint.png.
[[nodiscard]] Multipoint run_multipoint(const MultipointRequest& request,
                                        const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
