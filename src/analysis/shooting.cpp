#include "clatter/analysis/shooting.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

namespace {

class EventLog final : public hybrid::Recorder {
 public:
  void on_event(const hybrid::EventRecord& e) override { events.push_back(e); }
  std::vector<hybrid::EventRecord> events;
};

double norm_inf(const Eigen::VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

}  // namespace

void validate(const ShootingOptions& o) {
  require(std::isfinite(o.tol) && o.tol > 0.0, "tol", "must be > 0", o.tol);
  require(o.max_iter >= 1 && o.max_iter <= 1000, "max_iter", "must lie in [1, 1000]");
  require(o.variational.max_step > 0.0, "variational.max_step", "must be > 0");
}

std::vector<std::complex<double>> multipliers_of(const Eigen::MatrixXd& DP) {
  std::vector<std::complex<double>> out;
  if (DP.size() == 0) return out;
  const Eigen::EigenSolver<Eigen::MatrixXd> es(DP, false);
  for (Eigen::Index i = 0; i < es.eigenvalues().size(); ++i) out.push_back(es.eigenvalues()(i));
  std::sort(out.begin(), out.end(),
            [](const std::complex<double>& a, const std::complex<double>& b) {
              if (std::abs(a) != std::abs(b)) return std::abs(a) > std::abs(b);
              return a.imag() > b.imag();
            });
  return out;
}

bool characterize(const PeriodicProblem& p, const model::System& m, Orbit& orbit,
                  const ShootingOptions& o) {
  EventLog log;
  const FlowRun run = run_flow(p, m, orbit.u, &log);
  orbit.x0 = run.x0;
  orbit.t0 = run.t0;
  orbit.period = run.period;
  orbit.events = std::move(log.events);
  if (!run.ok()) {
    orbit.message = "the flow stopped: " + run.result.message;
    return false;
  }
  orbit.residual = norm_inf(run.residual);
  if (o.monodromy == MonodromyMethod::kVariational) {
    const VariationalMonodromy v =
        monodromy_variational(p, m, orbit.u, orbit.monodromy, o.variational);
    if (!v.ok) {
      orbit.message = "variational monodromy: " + v.message;
      return false;
    }
  } else if (!monodromy_differences(p, m, orbit.u, orbit.monodromy)) {
    orbit.message = "a perturbed flow failed while differencing the monodromy";
    return false;
  }
  orbit.DP = section_jacobian(p, m, run, orbit.monodromy);
  orbit.multipliers = multipliers_of(orbit.DP);
  orbit.stable = !orbit.multipliers.empty() && std::abs(orbit.multipliers.front()) < 1.0;
  return true;
}

Orbit find_orbit(const PeriodicProblem& p, const model::System& m, const Eigen::VectorXd& u0,
                 const ShootingOptions& o) {
  validate(o);
  require(u0.size() == p.dimension(), "u0", "must have one entry per unknown");
  Orbit orbit;
  orbit.u = u0;
  FlowRun run = run_flow(p, m, orbit.u);
  if (!run.ok()) {
    orbit.message = "the flow from the guess stopped: " + run.result.message;
    (void)characterize(p, m, orbit, o);
    orbit.converged = false;
    return orbit;
  }
  double r = norm_inf(run.residual);
  for (int it = 0; it < o.max_iter; ++it) {
    if (r <= o.tol * (1.0 + norm_inf(orbit.u))) {
      orbit.converged = true;
      break;
    }
    Eigen::MatrixXd J;
    if (!residual_jacobian(p, m, orbit.u, J)) {
      orbit.message = "a perturbed flow failed while differencing the residual";
      break;
    }
    const Eigen::VectorXd delta = J.fullPivLu().solve(-run.residual);
    ++orbit.iterations;
    double s = 1.0;
    bool improved = false;
    for (int halving = 0; halving <= 6; ++halving, s *= 0.5) {
      const Eigen::VectorXd trial = orbit.u + s * delta;
      FlowRun tr = run_flow(p, m, trial);
      if (tr.ok() && norm_inf(tr.residual) < r) {
        orbit.u = trial;
        run = std::move(tr);
        r = norm_inf(run.residual);
        improved = true;
        break;
      }
    }
    if (!improved) {
      orbit.message = "Newton stalled at |r| = " + format_number(r);
      break;
    }
  }
  if (!orbit.converged && orbit.message.empty())
    orbit.message = "no convergence in max_iter = " + std::to_string(o.max_iter) + " iterations";
  orbit.residual = r;
  const bool converged = orbit.converged;
  std::string message = orbit.message;
  orbit.message.clear();
  if (!characterize(p, m, orbit, o)) message += (message.empty() ? "" : "; ") + orbit.message;
  orbit.converged = converged && orbit.message.empty();
  orbit.message = message;
  return orbit;
}

}  // namespace clatter::analysis
