#include "clatter/analysis/bifurcation_sweep.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <numbers>
#include <thread>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

namespace {

// keeps the apex heights after the transient
class ApexRecorder final : public hybrid::Recorder {
 public:
  explicit ApexRecorder(double t_record) : t_record_(t_record) {}
  void on_section(const hybrid::Sample& s) override {
    if (s.t >= t_record_) heights.push_back(s.q.y());
  }
  std::vector<double> heights;

 private:
  double t_record_;
};

struct RunResult {
  SweepPoint point;
  hybrid::SimulationResult result;
};

RunResult run_one(const model::System& base, const hybrid::InitialState& init,
                  hybrid::SimulationOptions o, const SweepOptions& sw, double omega) {
  const std::unique_ptr<model::System> model_ptr = base.with_parameter("surface.omega", omega);
  const model::System& model = *model_ptr;
  const double T = 2.0 * std::numbers::pi / omega;
  o.t_end = init.t + (sw.transient_periods + sw.record_periods) * T;
  o.section = hybrid::Section::kApex;
  o.record_events = false;
  o.output_dt = 0.0;
  ApexRecorder rec(init.t + sw.transient_periods * T);
  RunResult r;
  r.result = hybrid::simulate(model, init, o, &rec);
  r.point.omega = omega;
  r.point.reason = r.result.reason;
  r.point.apex_heights = std::move(rec.heights);
  r.point.distinct = count_distinct(r.point.apex_heights);
  return r;
}

}  // namespace

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
  std::vector<double> omegas(static_cast<std::size_t>(sweep.n));
  for (int i = 0; i < sweep.n; ++i) {
    omegas[static_cast<std::size_t>(i)] =
        sweep.n == 1 ? sweep.omega_from
                     : sweep.omega_from + (sweep.omega_to - sweep.omega_from) * i / (sweep.n - 1);
  }
  std::vector<SweepPoint> out(omegas.size());
  if (sweep.continuation) {
    hybrid::InitialState init = initial;
    for (std::size_t i = 0; i < omegas.size(); ++i) {
      RunResult r = run_one(model, init, options, sweep, omegas[i]);
      out[i] = std::move(r.point);
      // the next value starts from this final state, at the same phase of its own forcing
      init.q = r.result.q;
      init.qd = r.result.qd;
      const double T_next = 2.0 * std::numbers::pi / omegas[std::min(i + 1, omegas.size() - 1)];
      const double phase = std::fmod(r.result.t * omegas[i], 2.0 * std::numbers::pi);
      init.t = phase / (2.0 * std::numbers::pi) * T_next;
    }
    return out;
  }
  std::atomic<std::size_t> next{0};
  // a value whose run throws must not terminate the process from a worker thread: the first
  // exception is kept, the other values go on, and it is rethrown after the join
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto worker = [&] {
    for (std::size_t i = next++; i < omegas.size(); i = next++) {
      try {
        out[i] = run_one(model, initial, options, sweep, omegas[i]).point;
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  const int threads = std::min<int>(sweep.threads, sweep.n);
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return out;
}

}  // namespace clatter::analysis
