#pragma once
// Private to the application layer: a compliant impact of app/compliant.hpp ready to solve, with
// the scales of the thesis's normalised outputs, shared by `compliant` and `compliant-sweep`.

#include <nlohmann/json.hpp>
#include <string>

#include "clatter/app/compliant.hpp"
#include "clatter/compliant/compliant_impact.hpp"
#include "clatter/compliant/work_account.hpp"

namespace clatter::app::detail {

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

// Checks the body (InvalidArgument names the field) and builds the setup.
CompliantSetup make_setup(const CompliantBody& body);

nlohmann::json result_json(const CompliantSetup& s, const compliant::Result& r,
                           const compliant::WorkAccount& ledger);

// The history CSV's header and the rows of one impact, labelled `curve` (app/compliant.hpp).
std::string history_header();
std::string history_rows(const CompliantSetup& s, const compliant::Result& r,
                         const std::string& curve, int n);

// x with 10 significant digits, as the compliant CSVs write numbers
std::string fmt10(double x);

}  // namespace clatter::app::detail
