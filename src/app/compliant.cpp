#include "clatter/app/compliant.hpp"

#include <cmath>

#include "clatter/compliant/compliant_numeric.hpp"
#include "clatter/core/error.hpp"
#include "compliant_setup.hpp"

namespace clatter::app {

CompliantReport run_compliant(const CompliantRequest& o, const std::string& history) {
  const detail::CompliantSetup s = detail::make_setup(o.body);
  require(o.method == "closed" || o.method == "numeric", "method",
          "must be closed or numeric, got '" + o.method + "'");
  require(o.samples >= 2 && o.samples <= 1000000, "samples", "must lie in [2, 1000000]", o.samples);
  if (o.t_max) {
    require(std::isfinite(*o.t_max) && *o.t_max > 0.0, "t_max", "must be a finite time > 0 [s]",
            *o.t_max);
    require(o.method == "numeric", "t_max", "applies to method numeric only");
  }
  CompliantReport report;
  compliant::Result& r = report.result;
  if (o.method == "closed") {
    compliant::Options opt;
    opt.follow_lock = o.follow_lock;
    r = compliant::solve(s.model, s.x_dot0, s.z_dot0, opt);
  } else {
    compliant::NumericOptions opt;
    opt.t_max = o.t_max.value_or(200.0 * s.t_ref);
    r = compliant::integrate_numeric(s.model, s.x_dot0, s.z_dot0, opt);
  }
  nlohmann::json j = detail::result_json(s, r, compliant::work_account(s.model, r));
  j["method"] = o.method;
  if (!history.empty()) {
    report.history = detail::history_header() + detail::history_rows(s, r, "impact", o.samples);
    j["history"] = history;
  }
  report.json = j.dump(2) + "\n";
  return report;
}

std::string unresolved_message(const CompliantReport& report) {
  return std::string("the impact was not resolved (status ") +
         compliant::to_string(report.result.status) + ", outcome " +
         compliant::to_string(report.result.outcome) + ")";
}

}  // namespace clatter::app
