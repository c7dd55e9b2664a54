// `clatter compliant`: one impact through the two-spring compliant contact of [Bi] §3.3, printed
// as JSON (outcome, phases, phase times in seconds and in the thesis's normalised time, final
// velocities, energy ledger).
//
//   clatter compliant --body pendulum --theta-deg 30 --mu 0.5 --eta 1.21
//   clatter compliant --body sphere --v 1 -1 --mu 0.5
//   clatter compliant --body rod --theta-deg 45 --lean -1 --v 0.6 -1 --mu 0.6
//   clatter compliant --body custom --W 2.5 -1.5 2.5 --v 0.8 -1 [--method numeric]
//   [--history FILE.csv]  normalised time history (columns: see compliant_common.hpp)
//   [--no-follow-lock]    stop where [Bi]'s slip solution diverges (its wedge) instead of
//                         following the consistent model into the permanent stick

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "clatter/compliant/compliant_numeric.hpp"
#include "clatter/core/error.hpp"
#include "clatter/io/atomic_file.hpp"
#include "clatter/io/output_target.hpp"
#include "commands/commands.hpp"
#include "commands/compliant_common.hpp"

namespace clatter::cli {

namespace {

struct CompliantOptions {
  CompliantBodyOptions body;
  std::string method{"closed"};
  std::string history;
  int samples{2000};
  bool follow_lock{true};
  std::optional<double> t_max;  ///< numeric horizon [s] (default 200 time units)
};

int run_compliant(const CompliantOptions& o) {
  const CompliantSetup s = make_setup(o.body);
  require(o.method == "closed" || o.method == "numeric", "method",
          "must be closed or numeric, got '" + o.method + "'");
  require(o.samples >= 2 && o.samples <= 1000000, "--samples", "must lie in [2, 1000000]",
          o.samples);
  if (o.t_max) {
    require(std::isfinite(*o.t_max) && *o.t_max > 0.0, "--t-max", "must be a finite time > 0 [s]",
            *o.t_max);
    require(o.method == "numeric", "--t-max", "applies to --method numeric only");
  }
  if (!o.history.empty()) io::require_replaceable_file(o.history, "--history");
  compliant::Result r;
  if (o.method == "closed") {
    compliant::Options opt;
    opt.follow_lock = o.follow_lock;
    r = compliant::solve(s.model, s.x_dot0, s.z_dot0, opt);
  } else {
    compliant::NumericOptions opt;
    opt.t_max = o.t_max.value_or(200.0 * s.t_ref);
    r = compliant::integrate_numeric(s.model, s.x_dot0, s.z_dot0, opt);
  }
  const compliant::EnergyLedger L = compliant::energy_ledger(s.model, r);
  nlohmann::json j = result_json(s, r, L);
  j["method"] = o.method;
  if (!o.history.empty()) {
    io::write_file_atomic(o.history, history_header() + history_rows(s, r, "impact", o.samples),
                          "--history");
    j["history"] = o.history;
  }
  std::cout << j.dump(2) << "\n";
  if (r.status != compliant::SolveStatus::kOk) {
    std::cerr << "clatter: compliant: the impact was not resolved (status "
              << compliant::to_string(r.status) << ", outcome " << compliant::to_string(r.outcome)
              << ")\n";
    return 3;
  }
  return 0;
}

}  // namespace

Run add_compliant(CLI::App& app) {
  auto o = std::make_shared<CompliantOptions>();
  CLI::App* sub = app.add_subcommand(
      "compliant", "One impact with the two-spring compliant contact (Birlik/Stronge), as JSON");
  add_body_options(sub, o->body);
  sub->add_option("--method", o->method, "closed (phase closed forms) or numeric (reference)")
      ->capture_default_str();
  sub->add_option("--history", o->history, "write the normalised time history to this CSV");
  sub->add_option("--samples", o->samples, "history samples")->capture_default_str();
  sub->add_option("--t-max", o->t_max, "numeric: horizon [s] (default 200 time units)");
  sub->add_flag("!--no-follow-lock", o->follow_lock,
                "stop at the thesis's wedging divergence instead of following the lock");
  return [o] { return run_compliant(*o); };
}

}  // namespace clatter::cli
