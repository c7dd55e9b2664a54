#pragma once
/// @file
/// One impact through the two-spring compliant contact of [Bi] §3.3 (compliant/), as one
/// operation for every front end (`clatter compliant`, Python's compliant): a body of [Bi]
/// (sphere, rod, physical pendulum) or any contact matrix, solved by the phase closed forms or
/// integrated numerically. The report is JSON: the body, W, k1, k3, η, μ, v⁻, the initial mode,
/// the outcome and status, the phases (times in seconds and in the thesis's normalised time),
/// the transition times, v⁺, the impulse, the final springs and the energy ledger.
///
/// The history (CSV, the thesis's normalised units; t_ref = 1/ω_o = √(m/k3) for the sphere and
/// the rod, 1/√(K k3) for the pendulum, 1/√(k3 a33) for a custom body; v_ref = |ż0|,
/// u_ref = v_ref t_ref, F_ref = k3 u_ref, P_ref = v_ref/a33):
/// @verbatim
///   curve,t,t_norm,u1,u3,u1_dot,u3_dot,x_dot,z_dot,s,F1,F3,mu_F3,P1,P3,mode,slip_sign
/// @endverbatim
/// with `samples` points on [0, t_f] plus both sides of every phase boundary (a wedge: up to the
/// lock and half its time beyond). Numbers have 10 significant digits.

#include <optional>
#include <string>
#include <vector>

#include "clatter/compliant/compliant_impact.hpp"

namespace clatter::app {

/// The body and contact of a compliant impact, with their defaults.
struct CompliantBody {
  std::string body{"pendulum"};     ///< sphere, rod, pendulum or custom
  std::vector<double> W;            ///< custom: a11, a13, a33 (B restricted to n1–n3)
  std::vector<double> v;            ///< contact velocity ẋ, ż before impact (ż < 0) [m/s]
  std::optional<double> theta;      ///< rod: from the vertical; pendulum: from the normal [rad]
  std::optional<double> theta_deg;  ///< the same angle [deg]
  double mass{1.0};                 ///< m [kg], in (0, 1e12]
  double radius{5e-3};              ///< sphere / pendulum bob radius R [m], in [0, 1e6]
  double length{0.1};               ///< pendulum: pivot to contact L [m], in (0, 1e6]
  double V0{1.0};                   ///< pendulum: approach speed [m/s], > 0
  int lean{-1};                     ///< rod: sign of the contact's tangential offset from G
  double mu{0.5};                   ///< Coulomb friction coefficient
  double eta{1.21};                 ///< stiffness ratio k3/k1
  double k3{1.0};                   ///< normal stiffness [N/m]
};

/// The options of `clatter compliant`, with their defaults.
struct CompliantRequest {
  CompliantBody body;
  std::string method{"closed"};  ///< closed (phase closed forms) or numeric (reference)
  int samples{2000};             ///< history samples, in [2, 1e6]
  bool follow_lock{true};        ///< false: stop at [Bi]'s wedging divergence
  std::optional<double> t_max;   ///< numeric only: horizon [s] (default 200 time units)
};

/// The solved impact, its JSON report (with a final newline) and its history.
struct CompliantReport {
  compliant::Result result;
  std::string json;
  std::string history;  ///< the history CSV, when asked for
  /// false where the impact was not resolved (status other than ok)
  [[nodiscard]] bool resolved() const { return result.status == compliant::SolveStatus::kOk; }
};

/// Checks the request (InvalidArgument naming "body", "W", "v", "theta", "theta_deg", "mass",
/// "radius", "length", "V0", "lean", "mu", "eta", "k3", "method", "samples" or "t_max") and
/// solves the impact. `history`: the name the history is written under (the report names it);
/// empty: no history.
[[nodiscard]] CompliantReport run_compliant(const CompliantRequest& request,
                                            const std::string& history = {});

/// One line of the outcome for a front end's error stream when the impact was not resolved.
[[nodiscard]] std::string unresolved_message(const CompliantReport& report);

}  // namespace clatter::app
