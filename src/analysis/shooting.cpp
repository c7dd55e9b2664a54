#include "clatter/analysis/shooting.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <limits>

#include "clatter/core/error.hpp"

namespace clatter::analysis {

namespace {

class EventLog final : public hybrid::Recorder {
 public:
  void on_event(const hybrid::EventRecord& e) override { events.push_back(e); }
  std::vector<hybrid::EventRecord> events;
};

double norm_inf(const Eigen::VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

// the damped Newton step: u + sδ for s = 1, ½, … (≤ 6 halvings) until |r| decreases;
// `eval(trial, r)` computes the residual (false if the flow fails). Updates u, r, |r|.
template <class Eval>
bool damped_step(Eigen::VectorXd& u, Eigen::VectorXd& r, double& r_norm,
                 const Eigen::VectorXd& delta, Eval&& eval) {
  double s = 1.0;
  for (int halving = 0; halving <= 6; ++halving, s *= 0.5) {
    Eigen::VectorXd trial = u + s * delta, rt;
    if (eval(trial, rt) && norm_inf(rt) < r_norm) {
      u = std::move(trial);
      r = std::move(rt);
      r_norm = norm_inf(r);
      return true;
    }
  }
  return false;
}

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

bool replace_straddled_monodromy(const PeriodicProblem& p, const model::System& m, Orbit& orbit,
                                 const VariationalOptions& vo) {
  if (orbit.monodromy_warning.empty() || p.section.kind == OrbitSectionKind::kImpact) return false;
  Eigen::MatrixXd M;
  if (!monodromy_variational(p, m, orbit.u, M, vo).ok) return false;
  orbit.monodromy = M;
  orbit.monodromy_warning.clear();
  return true;
}

bool characterize(const PeriodicProblem& p, const model::System& m, Orbit& orbit,
                  const ShootingOptions& o) {
  EventLog log;
  const FlowRun run = run_flow(p, m, orbit.u, &log);
  orbit.x0 = run.x0;
  orbit.t0 = run.t0;
  // an impact section's flow that never met its impact has no period (run.period is the bound)
  orbit.period = run.ok() || p.section.kind != OrbitSectionKind::kImpact
                     ? run.period
                     : std::numeric_limits<double>::quiet_NaN();
  orbit.events = std::move(log.events);
  if (!run.ok()) {
    orbit.message = "the flow stopped: " + run.result.message;
    return false;
  }
  orbit.residual = norm_inf(run.residual);
  if (double rate = 0.0; tangent_to_section(p, m, run, &rate)) {
    orbit.message =
        "the flow does not cross the section: the anchor's rate d(x[a] - nu t)/dt is " +
        format_number(rate) +
        " at the return (an equilibrium on the section, or the orbit's turning point at the "
        "anchor's value): pose the section at an anchor value the orbit crosses";
    return false;
  }
  if (const std::string why = symmetry_mismatch(p, m, orbit.u, run); !why.empty()) {
    orbit.message = why;
    return false;
  }
  if (const std::string why = unsolved_dependence(p, m, orbit.u, run); !why.empty()) {
    orbit.message = why;
    return false;
  }
  if (o.monodromy == MonodromyMethod::kVariational && p.section.kind == OrbitSectionKind::kImpact) {
    orbit.message =
        "the variational monodromy is not built for an impact section (use differences)";
    return false;
  }
  if (o.monodromy == MonodromyMethod::kVariational) {
    const VariationalMonodromy v =
        monodromy_variational(p, m, orbit.u, orbit.monodromy, o.variational);
    if (!v.ok) {
      orbit.message = "variational monodromy: " + v.message;
      return false;
    }
  } else {
    std::string why;
    if (!monodromy_differences(p, m, orbit.u, orbit.monodromy, &why, &orbit.monodromy_warning)) {
      orbit.message = "a perturbed flow failed while differencing the monodromy: " + why;
      return false;
    }
    (void)replace_straddled_monodromy(p, m, orbit, o.variational);
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
  Eigen::VectorXd residual = run.residual;
  double r = norm_inf(residual);
  for (int it = 0; it < o.max_iter; ++it) {
    if (r <= o.tol * (1.0 + norm_inf(orbit.u))) {
      orbit.converged = true;
      break;
    }
    Eigen::MatrixXd J;
    std::string why;
    if (!residual_jacobian(p, m, orbit.u, J, {}, nullptr, &why)) {
      orbit.message = "a perturbed flow failed while differencing the residual: " + why;
      break;
    }
    const Eigen::VectorXd delta = J.fullPivLu().solve(-residual);
    ++orbit.iterations;
    const bool improved = damped_step(orbit.u, residual, r, delta,
                                      [&](const Eigen::VectorXd& u, Eigen::VectorXd& out) {
                                        const FlowRun tr = run_flow(p, m, u);
                                        out = tr.residual;
                                        return tr.ok();
                                      });
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
  orbit.stable = orbit.stable && orbit.converged;  // the multipliers of no orbit say nothing
  return orbit;
}

}  // namespace clatter::analysis

namespace clatter::analysis {

namespace {

// the flow of one segment from node state x (full) at t over dt; the end state (full). False if
// it fails; then `why` says from and to what time, and the engine's stop reason and message.
bool segment_flow(const PeriodicProblem& p, const model::System& m, double t, double dt,
                  const StateVector& x, StateVector& end, std::string& why) {
  hybrid::InitialState s;
  s.t = t;
  unpack_state(m, x, s.q, s.qd, s.aux);
  s.closed = p.closed;
  hybrid::SimulationOptions o = p.options;
  o.t_end = t + dt;
  o.output_dt = 0.0;
  o.record_events = false;
  hybrid::SimulationResult r;
  try {
    r = hybrid::simulate(m, s, o, nullptr);
  } catch (const InvalidArgument& e) {
    why = "the segment from t = " + format_number(t) + " was refused: " + e.what();
    return false;
  }
  if (r.reason != hybrid::StopReason::kEndTime) {
    why = "the segment from t = " + format_number(t) + " stopped at t = " + format_number(r.t) +
          " (" + hybrid::to_string(r.reason) + "): " + r.message;
    return false;
  }
  end = pack_state(m, r.q, r.qd, r.aux);
  return true;
}

}  // namespace

Orbit find_orbit_multiple(const PeriodicProblem& p, const model::System& m,
                          const Eigen::VectorXd& u0, int segments, const ShootingOptions& o) {
  validate(o);
  require(segments >= 1 && segments <= 64, "segments", "must lie in [1, 64]");
  require(p.section.kind == OrbitSectionKind::kForced, "segments",
          "multiple shooting is built for forced (stroboscopic) sections only");
  require(!p.section.modulo_symmetry, "segments",
          "multiple shooting of an orbit periodic modulo a symmetry is not built: use one segment");
  require(u0.size() == p.dimension(), "u0", "must have one entry per unknown");
  const auto ns = static_cast<Eigen::Index>(p.solved.size());
  const Eigen::Index K = segments, N = K * ns;
  double t0 = 0.0, T = 0.0;
  start_and_period(p, m, u0, t0, T);
  const double dt = T / static_cast<double>(K);
  const auto to_full = [&](const Eigen::VectorXd& xs) {
    StateVector x = p.reference;
    for (Eigen::Index k = 0; k < ns; ++k) x(p.solved[static_cast<std::size_t>(k)]) = xs(k);
    return x;
  };
  const auto to_solved = [&](const StateVector& x) {
    Eigen::VectorXd xs(ns);
    for (Eigen::Index k = 0; k < ns; ++k) xs(k) = x(p.solved[static_cast<std::size_t>(k)]);
    return xs;
  };
  Orbit orbit;
  std::string why;  // the last failed segment flow
  // nodes on the flow from u0
  Eigen::VectorXd z(N);
  z.head(ns) = u0;
  for (Eigen::Index k = 1; k < K; ++k) {
    StateVector end;
    if (!segment_flow(p, m, t0 + static_cast<double>(k - 1) * dt, dt,
                      to_full(z.segment((k - 1) * ns, ns)), end, why)) {
      orbit.u = u0;
      orbit.message = "the flow from the guess stopped: " + why;
      return orbit;
    }
    z.segment(k * ns, ns) = to_solved(end);
  }
  // residual and, if J is not null, the block Jacobian
  const auto residual = [&](const Eigen::VectorXd& zz, Eigen::VectorXd& r,
                            Eigen::MatrixXd* J) -> bool {
    r.resize(N);
    if (J != nullptr) J->setZero(N, N);
    for (Eigen::Index k = 0; k < K; ++k) {
      const double tk = t0 + static_cast<double>(k) * dt;
      const Eigen::VectorXd xk = zz.segment(k * ns, ns);
      const Eigen::Index next = ((k + 1) % K) * ns;
      StateVector end;
      if (!segment_flow(p, m, tk, dt, to_full(xk), end, why)) return false;
      r.segment(k * ns, ns) = to_solved(end) - zz.segment(next, ns);
      if (J == nullptr) continue;
      for (Eigen::Index j = 0; j < ns; ++j) {
        const double h = 1e-6 * (1.0 + std::abs(xk(j)));
        Eigen::VectorXd a = xk, b = xk;
        a(j) += h;
        b(j) -= h;
        StateVector ea, eb;
        if (!segment_flow(p, m, tk, dt, to_full(a), ea, why) ||
            !segment_flow(p, m, tk, dt, to_full(b), eb, why)) {
          why = "with node " + std::to_string(k) + "'s component " + std::to_string(j) + " ± " +
                format_number(h) + ", " + why;
          return false;
        }
        J->block(k * ns, k * ns + j, ns, 1) = (to_solved(ea) - to_solved(eb)) / (2.0 * h);
      }
      J->block(k * ns, next, ns, ns) -= Eigen::MatrixXd::Identity(ns, ns);
    }
    return true;
  };
  Eigen::VectorXd r;
  if (!residual(z, r, nullptr)) {
    orbit.u = u0;
    orbit.message = "the flow from the guess stopped: " + why;
    return orbit;
  }
  double rn = norm_inf(r);
  Eigen::MatrixXd J;
  for (int it = 0; it < o.max_iter; ++it) {
    if (rn <= o.tol * (1.0 + norm_inf(z))) {
      orbit.converged = true;
      break;
    }
    Eigen::VectorXd r_here;
    if (!residual(z, r_here, &J)) {
      orbit.message = "a perturbed flow failed while differencing the residual: " + why;
      break;
    }
    const Eigen::VectorXd delta = J.fullPivLu().solve(-r);
    ++orbit.iterations;
    const bool improved =
        damped_step(z, r, rn, delta, [&](const Eigen::VectorXd& trial, Eigen::VectorXd& out) {
          return residual(trial, out, nullptr);
        });
    if (!improved) {
      orbit.message = "Newton stalled at |r| = " + format_number(rn);
      break;
    }
  }
  if (!orbit.converged && orbit.message.empty())
    orbit.message = "no convergence in max_iter = " + std::to_string(o.max_iter) + " iterations";
  orbit.u = z.head(ns);
  orbit.residual = rn;
  // the monodromy as the product of the segments' blocks (those of the last Jacobian if Newton
  // iterated, else fresh)
  Eigen::VectorXd r_final;
  if (residual(z, r_final, &J)) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Identity(ns, ns);
    for (Eigen::Index k = 0; k < K; ++k) M = J.block(k * ns, k * ns, ns, ns) * M;
    orbit.monodromy = M;
    orbit.DP = M;
    orbit.multipliers = multipliers_of(M);
    orbit.stable = !orbit.multipliers.empty() && std::abs(orbit.multipliers.front()) < 1.0;
  }
  EventLog log;
  const FlowRun run = run_flow(p, m, orbit.u, &log);
  orbit.x0 = run.x0;
  orbit.t0 = run.t0;
  orbit.period = run.period;
  orbit.events = std::move(log.events);
  orbit.stable = orbit.stable && orbit.converged;  // the multipliers of no orbit say nothing
  return orbit;
}

}  // namespace clatter::analysis
