// `clatter compliant`: one impact through the two-spring compliant contact of [Bi] §3.3, printed
// as JSON: the options of app::CompliantRequest (app/compliant.hpp: the bodies, the checks, the
// report and the history's columns); exit 3 where the impact is not resolved.
//
//   clatter compliant --body pendulum --theta-deg 30 --mu 0.5 --eta 1.21
//   clatter compliant --body sphere --v 1 -1 --mu 0.5
//   clatter compliant --body rod --theta-deg 45 --lean -1 --v 0.6 -1 --mu 0.6
//   clatter compliant --body custom --W 2.5 -1.5 2.5 --v 0.8 -1 [--method numeric]
//   [--history FILE.csv]  normalised time history, written atomically
//   [--no-follow-lock]    stop where [Bi]'s slip solution diverges (its wedge) instead of
//                         following the consistent model into the permanent stick

#include <iostream>
#include <memory>
#include <string>

#include "clatter/app/compliant.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"
#include "commands/commands.hpp"

namespace clatter::cli {

namespace {

struct CompliantCliOptions {
  app::CompliantRequest request;
  std::string history;
};

void add_body_options(CLI::App* sub, app::CompliantBody& o) {
  sub->add_option("--body", o.body, "sphere | rod | pendulum | custom")->capture_default_str();
  sub->add_option("--W", o.W, "custom: a11 a13 a33 (W = B restricted to n1-n3)")->expected(3);
  sub->add_option("--v", o.v, "contact-point velocity XDOT ZDOT before impact (ZDOT < 0)")
      ->expected(2);
  sub->add_option("--theta", o.theta,
                  "rod: angle from the vertical; pendulum: from the normal [rad]");
  sub->add_option("--theta-deg", o.theta_deg, "the same angle in degrees");
  sub->add_option("--mass", o.mass, "mass m [kg]")->capture_default_str();
  sub->add_option("--radius", o.radius, "sphere / pendulum bob radius R [m]")
      ->capture_default_str();
  sub->add_option("--length", o.length, "pendulum: pivot to contact L [m]")->capture_default_str();
  sub->add_option("--lean", o.lean, "rod: sign of the contact's tangential offset from G (+1/-1)")
      ->capture_default_str();
  sub->add_option("--V0", o.V0, "pendulum: approach speed [m/s]")->capture_default_str();
  sub->add_option("--mu", o.mu, "Coulomb friction coefficient")->capture_default_str();
  sub->add_option("--eta", o.eta, "stiffness ratio k3/k1")->capture_default_str();
  sub->add_option("--k3", o.k3, "normal stiffness [N/m]")->capture_default_str();
}

int run_compliant(const CompliantCliOptions& o) {
  if (!o.history.empty()) io::require_replaceable_file(o.history, "--history");
  const app::CompliantReport report = app::run_compliant(o.request, o.history);
  if (!o.history.empty()) io::write_file_atomic(o.history, report.history, "--history");
  std::cout << report.json;
  if (!report.resolved()) {
    std::cerr << "clatter: compliant: " << app::unresolved_message(report) << "\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_compliant(CLI::App& app) {
  auto o = std::make_shared<CompliantCliOptions>();
  app::CompliantRequest& r = o->request;
  CLI::App* sub = app.add_subcommand(
      "compliant", "One impact with the two-spring compliant contact (Birlik/Stronge), as JSON");
  add_body_options(sub, r.body);
  sub->add_option("--method", r.method, "closed (phase closed forms) or numeric (reference)")
      ->capture_default_str();
  sub->add_option("--history", o->history, "write the normalised time history to this CSV");
  sub->add_option("--samples", r.samples, "history samples")->capture_default_str();
  sub->add_option("--t-max", r.t_max, "numeric: horizon [s] (default 200 time units)");
  sub->add_flag("!--no-follow-lock", r.follow_lock,
                "stop at the thesis's wedging divergence instead of following the lock");
  return [o] { return run_compliant(*o); };
}

}  // namespace clatter::cli
