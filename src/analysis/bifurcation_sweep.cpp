#include "clatter/analysis/bifurcation_sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <numbers>
#include <thread>

#include "clatter/analysis/parameter_sweep.hpp"
#include "clatter/core/error.hpp"

namespace clatter::analysis {

void validate(const SweepOptions& o) {
  require(o.n >= 1 && o.n <= 1000000, "n", "must lie in [1, 1000000]");
  require(std::isfinite(o.omega_from) && o.omega_from > 0.0, "omega_from", "must be > 0",
          o.omega_from);
  require(std::isfinite(o.omega_to) && o.omega_to > 0.0, "omega_to", "must be > 0", o.omega_to);
  require(std::isfinite(o.transient_periods) && o.transient_periods >= 0.0, "transient_periods",
          "must be >= 0", o.transient_periods);
  require(std::isfinite(o.record_periods) && o.record_periods > 0.0, "record_periods",
          "must be > 0", o.record_periods);
  require(o.threads >= 1 && o.threads <= 256, "threads", "must lie in [1, 256]");
}

int count_distinct(std::vector<double> values, double tol, int cap) {
  std::sort(values.begin(), values.end());
  int n = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i == 0 || values[i] - values[i - 1] > tol * (1.0 + std::abs(values[i]))) ++n;
    if (n > cap) return -1;
  }
  return n;
}

std::vector<SweepPoint> sweep_omega(const model::System& model, const hybrid::InitialState& initial,
                                    const hybrid::SimulationOptions& options,
                                    const SweepOptions& sweep) {
  validate(sweep);
  ParameterSweep ps;
  ps.grid = SweepGrid({{"surface.omega", sweep.omega_from, sweep.omega_to, sweep.n}});
  ps.carry = sweep.continuation ? CarryOver::kUp : CarryOver::kNone;
  ps.observe = {SectionKind::kApex, "y", -1};
  ps.transient_periods = sweep.transient_periods;
  ps.record_periods = sweep.record_periods;
  SweepControl control;
  control.threads = sweep.threads;
  SweepOutcome outcome = run_sweep(model, {initial}, options, ps, std::move(control));
  std::vector<SweepPoint> out;
  out.reserve(outcome.records.size());
  for (SweepRecord& r : outcome.records) {
    // the first failing value's exception reaches the caller, after the others ran
    if (r.failure) std::rethrow_exception(r.failure);
    SweepPoint p;
    p.omega = ps.grid.value(r.point, 0);
    p.apex_heights = std::move(r.values);
    p.reason = r.reason;
    p.distinct = r.distinct;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace clatter::analysis
