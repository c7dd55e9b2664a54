#pragma once
/// @file
/// [B]'s Painlevé experiment on the double pendulum against the belt (analysis/friction_jump.hpp,
/// on the general engine), as one operation for every front end (`clatter painleve`, Python's
/// painleve): at t_jump the friction jumps from μ₀ to each μ_p; past μ_c the sliding contact takes
/// an impact without collision. A preset ([B] Figs 6.7–6.8) gives the values of the fields not
/// given. Files:
/// @verbatim
///   timeseries.csv  mu_p,t,theta,phi,theta_dot,phi_dot,gap,gap_rate,slip,lambda_N,phase
///   events.csv      mu_p,t,kind,region,v_T_pre,v_N_pre,v_T_post,v_N_post,Lambda_T,Lambda_N,
///                   delta_energy
///   summary.json    the values used, W, μ_c, the torque, per μ_p the events and the stop reason
/// @endverbatim
/// Numbers in the CSV files have 12 significant digits.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "clatter/analysis/friction_jump.hpp"
#include "clatter/app/output_file.hpp"

namespace clatter::app {

/// The options of `clatter painleve`: a field left empty takes the preset's value, else the
/// default in brackets.
struct PainleveRequest {
  std::string preset;                       ///< "", fig6.7a, fig6.7b, fig6.8a or fig6.8b
  std::optional<double> theta;              ///< upper arm angle [rad] (3.8572)
  std::optional<double> phi;                ///< lower arm angle [rad] (4.1154)
  std::optional<double> belt_velocity;      ///< V [m/s] (−0.96)
  std::optional<double> e;                  ///< Stronge's e*, in [0, 1] (0.7)
  std::optional<double> mu0;                ///< friction before the jump, in [0, 1e6] (0.7)
  std::optional<std::vector<double>> mu_p;  ///< after the jump, 1 to 8 values ({0.8199, 0.82})
  std::optional<double> torque;             ///< top-joint torque [N m] (default: [B]'s equilibrium)
  double t_jump{1.25};                      ///< [s]
  double t_end{1.6};                        ///< [s], after t_jump, at most 1e6
};

/// One run (one μ_p).
struct PainleveRun {
  double mu_p{0.0};
  double torque{0.0};
  double printed_lambda_N{0.0};  ///< λ_N of [B]'s equilibrium (6.29)–(6.30)
  analysis::BeltRunResult result;
};

/// The values used (the request resolved) and the runs.
struct Painleve {
  double theta{0.0}, phi{0.0}, belt_velocity{0.0}, e{0.0}, mu0{0.0};
  std::vector<double> mu_p;
  std::vector<PainleveRun> runs;
};

/// Resolves the request (preset, defaults), checks it (InvalidArgument naming "preset", "theta",
/// "phi", "belt_velocity", "e", "mu0", "mu_p", "torque", "t_jump" or "t_end") and runs it.
[[nodiscard]] Painleve run_painleve(const PainleveRequest& request);

/// Whether every run reached t_end.
[[nodiscard]] bool all_reached_the_end(const Painleve& result);

/// timeseries.csv, events.csv and summary.json (last) in `folder`; `plot`: plot.png is drawn
/// beside them.
[[nodiscard]] std::vector<OutputFile> painleve_files(const PainleveRequest& request,
                                                     const Painleve& result,
                                                     const std::filesystem::path& folder,
                                                     bool plot);

/// The plot's title: the preset (or "double pendulum on the belt") and the values, μ_c.
[[nodiscard]] std::string painleve_title(const PainleveRequest& request, const Painleve& result);

}  // namespace clatter::app
