#pragma once
// Shared parts of `clatter compliant` and `clatter compliant-sweep`: the body presets of [Bi]
// (sphere, rod, physical pendulum, or a custom W), the JSON view of a compliant impact, the
// thesis-style normalised time-history CSV and the call of the plotting script.

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/compliant/energy_ledger.hpp"
#include "commands/json_output.hpp"

namespace clatter::cli {

struct CompliantBodyOptions {
  std::string body{"pendulum"};  // sphere | rod | pendulum | custom
  std::vector<double> W, v;
  std::optional<double> theta, theta_deg;
  double mass{1.0}, radius{5e-3}, length{0.1}, V0{1.0};
  int lean{-1};
  double mu{0.5}, eta{1.21}, k3{1.0};
};

// A compliant impact ready to solve, with the scales used to normalise outputs:
// t_ref = 1/ω_o = √(m/k3) (sphere, rod), 1/√(K k3) (pendulum, spec §4.4), 1/√(k3 a33) (custom);
// v_ref = |ż0|, u_ref = v_ref t_ref, F_ref = k3 u_ref, P_ref = v_ref/a33.
struct CompliantSetup {
  compliant::Model model;
  double x_dot0{0.0}, z_dot0{-1.0};
  double theta{0.0};  // pendulum/rod angle [rad] (0 for sphere/custom)
  std::string body;
  double t_ref{1.0}, v_ref{1.0}, u_ref{1.0}, F_ref{1.0}, P_ref{1.0};
  std::string t_unit;
};

void add_body_options(CLI::App* sub, CompliantBodyOptions& o);

// Validates the options (InvalidArgument names the field) and builds the setup.
CompliantSetup make_setup(const CompliantBodyOptions& o);

nlohmann::json result_json(const CompliantSetup& s, const compliant::Result& r,
                           const compliant::EnergyLedger& ledger);

// Header of the history CSV.
std::string history_header();
// Normalised samples of one impact (n points on [0, t_end] plus both sides of every phase
// boundary); `curve` labels the rows. t_end = t_f, or for a wedge the lock + 1.5 × its time.
std::string history_rows(const CompliantSetup& s, const compliant::Result& r,
                         const std::string& curve, int n);

// Runs python/clatter_plots/compliant.py with the given arguments; throws on failure.
void run_compliant_plot(const std::vector<std::string>& args);

}  // namespace clatter::cli
