#pragma once
/// @file
/// The thesis-style figures of the compliant contact ([Bi] §3–4), as one operation for every
/// front end (`clatter compliant-sweep`, Python's compliant_sweep). Presets and their files:
/// @verbatim
///   sphere-fig3.4, sphere-fig3.5, rod-fig3.8, rod-fig3.9, pendulum-fig4.5, pendulum-fig4.6
///       one time history                                                      history.csv
///   pendulum-fig4.7 (μ), pendulum-fig4.8 (θ), pendulum-fig4.15 (θ = 36.08° / 36.07°)
///       several histories                                                     history.csv
///   sphere-fig3.6       final against initial tangential velocity, beside rigid Coulomb
///   pendulum-fig4.11, pendulum-fig4.12, pendulum-theta, pendulum-fig4.13
///       final velocity and dissipation against μ or θ                         sweep.csv
///   pendulum-fig4.16, pendulum-fig4.17   the same with the wedging windows    + markers.csv
///   pendulum-fig4.14    critical angle θ_cr against μ for several η           theta_cr.csv
///   rigid-limit         V_f(η) → √((tan θ − μ)/(tan θ + μ)) as η → 0          rigid_limit.csv
///   flow-fig4.2         slip-direction flow of the 3-D pendulum, θ = 60°, μ = 1
///   flow                the same for any angle (theta_deg) or body (B), friction mu
///                       flow_field.csv, flow_lines.csv, flow_trajectories.csv
/// @endverbatim
/// history.csv's columns are app/compliant.hpp's; sweep.csv's
/// group,curve,x,x_dot_f,z_dot_f,V_f,loss,outcome,t_f_norm. The figure is <preset>.png
/// (python/clatter_plots/compliant.py). The summary (JSON) holds the preset's numbers (the runs,
/// the wedging windows, θ_cr at μ = 1, the convergence rates, the flow's directions) and the
/// files' paths.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter compliant-sweep`, with their defaults.
struct CompliantSweepRequest {
  std::string preset;               ///< a name of compliant_presets() or "flow"
  int n{0};                         ///< samples per curve, in [1, 100000]; 0: the preset's
  std::optional<double> theta_deg;  ///< flow: angle of the 3-D point pendulum, in (0, 90) [deg]
  std::optional<double> mu;         ///< flow: friction coefficient, in (0, 1e3]
  std::vector<double> B;            ///< flow: any body's b11 b12 b13 b22 b23 b33 (PSD, b33 > 0)
};

using CompliantSweep = ReportFiles;  ///< its files, figure and summary

/// The preset names (without "flow").
[[nodiscard]] std::vector<std::string> compliant_presets();

/// Checks the request (InvalidArgument naming "preset", "n", "mu", "theta_deg" or "B"), computes
/// the preset's curves and composes its files in `folder`; `plot`: the figure is
/// folder/<preset>.png.
[[nodiscard]] CompliantSweep run_compliant_sweep(const CompliantSweepRequest& request,
                                                 const std::filesystem::path& folder, bool plot);

}  // namespace clatter::app
