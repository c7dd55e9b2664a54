#pragma once
/// @file
/// One input of an impact swept, the extended Brach law beside the energetic law on the body of
/// [B] §3.2 (app/impact.hpp's rigid-body form), as one operation for every front end
/// (`clatter impact-sweep`, Python's impact_sweep):
/// - kind energy-loss: T̄_L(μ) = T_L/T⁻ of the Brach law against the impulse ratio μ (thesis
///   units, μ = s·Λ_T/Λ_N, s = −sgn V_TC⁻), one curve per e, with μ_E1, μ_E2, μ_M, μ_C, μ_s
///   marked ([B] Figs 3.3–3.5);
/// - kind map: V_TC⁻ → V_TC⁺ of the extended Brach law beside the energetic law, the Brach μ
///   used, the energetic region and the Brach choice, swept by varying V_T with V_N and θ̇ fixed
///   ([B] Figs 3.8–3.11), each change of region or choice located by bisection.
/// Presets fig3.3, fig3.4, fig3.5, fig3.8, fig3.10, fig3.11 set the thesis's values of the fields
/// not given. Files:
/// @verbatim
///   energy-loss.csv  e,mu,T_L_bar                  (kind energy-loss)
///   map.csv          v_TC_pre,v_TC_post_brach,v_TC_post_energetic,mu_brach,brach_choice,region,
///                    brach_case,V_T_post_brach,V_T_post_energetic          (kind map)
///   markers.csv      e,name,mu (energy-loss)  or  name,v_TC_pre (map)
/// @endverbatim
/// Numbers have 12 significant digits. The figure is <kind>.png
/// (python/clatter_plots/impact_sweep.py); the summary (JSON) holds the pre-impact contact
/// velocity, the bounds per curve or the transitions, and the files' paths.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter impact-sweep`, with their defaults.
struct ImpactSweepRequest {
  std::string preset;           ///< "" or a name of impact_sweep_presets()
  std::string kind;             ///< energy-loss or map (a preset gives it)
  std::optional<double> angle;  ///< body angle θ [rad]
  std::vector<double> qdot;     ///< V_T, V_N [m/s], θ̇ [rad/s] before impact (a map sweeps V_T)
  std::vector<double> e;        ///< restitution: one per curve (energy-loss), one (map); ≤ 16
  std::optional<double> mu;     ///< Brach friction bound μ_f (map; a marker for energy-loss)
  std::optional<double> from, to;  ///< the swept range (μ, or V_TC⁻), from < to
  int n{2001};                     ///< samples, in [2, 1e6]
  double mass{1.0};                ///< m [kg]
  double inertia{1.0 / 3.0};       ///< I about G [kg m²]
  double offset{1.0};              ///< L from G to the contact [m]
  int end{1};                      ///< contact at end 1 (G − L e) or 2 (G + L e)
};

using ImpactSweep = ReportFiles;  ///< its files, figure and summary

/// The preset names.
[[nodiscard]] std::vector<std::string> impact_sweep_presets();

/// Checks the request (InvalidArgument naming "preset", "kind", "angle", "qdot", "from", "n",
/// "e", "mu", "mass", "inertia" or "end"), sweeps and composes the files in `folder`; `plot`:
/// the figure is folder/<kind>.png.
[[nodiscard]] ImpactSweep run_impact_sweep(const ImpactSweepRequest& request,
                                           const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
