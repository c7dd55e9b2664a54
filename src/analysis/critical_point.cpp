#include "clatter/analysis/critical_point.hpp"

#include <Eigen/LU>

#include <cmath>

#include "clatter/core/error.hpp"
#include "clatter/laws/stronge_boundaries.hpp"

namespace clatter::analysis {

namespace {

class Impacts final : public hybrid::Recorder {
 public:
  void on_event(const hybrid::EventRecord& e) override {
    if (e.kind == hybrid::EventKind::kImpact) list.push_back(e);
  }
  std::vector<hybrid::EventRecord> list;
};

// H of the impact `e` of model m
bool boundary_value_at(const model::System& m, const hybrid::EventRecord& e,
                       const CriticalPointOptions& o, double& H) {
  const model::Contact& contact = m.contact(e.contact);
  if (contact.law.kind != LawKind::kStronge) return false;
  model::MassFactor mass;
  m.factor_mass(e.t, e.q, mass);
  model::ContactGeometry k;
  m.contact_geometry(e.contact, e.t, e.q, e.qd_pre, k);
  const model::VecQ MinvJT = mass.solve(k.J.row(0).transpose());
  const model::VecQ MinvJN = mass.solve(k.J.row(1).transpose());
  const ContactMatrix W{k.J.row(0).dot(MinvJT), k.J.row(0).dot(MinvJN), k.J.row(1).dot(MinvJN)};
  H = boundary_function(o.region_a, o.region_b, e.v_pre, W, contact.law.params);
  return true;
}

double norm_inf(const Eigen::VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

// G(u, p) into g; false if a flow fails
bool augmented(const PeriodicProblem& pr, const CriticalPointOptions& o, const Eigen::VectorXd& y,
               Eigen::VectorXd& g) {
  const Eigen::Index d = pr.dimension();
  std::unique_ptr<model::System> m;
  try {
    m = pr.model->with_parameter(o.parameter, y(d));
  } catch (const InvalidArgument&) {
    return false;
  }
  const Eigen::VectorXd u = y.head(d);
  Impacts rec;
  const FlowRun run = run_flow(pr, *m, u, &rec);
  if (!run.ok() || static_cast<int>(rec.list.size()) <= o.impact) return false;
  double H = 0.0;
  if (!boundary_value_at(*m, rec.list[static_cast<std::size_t>(o.impact)], o, H)) return false;
  g.resize(d + 1);
  g << run.residual, H;
  return true;
}

}  // namespace

void validate(const CriticalPointOptions& o) {
  require(!o.parameter.empty(), "parameter", "must name a model parameter");
  require(o.impact >= 0, "impact", "must be >= 0");
  (void)stronge_boundary(o.region_a, o.region_b);  // throws naming "regions"
  require(std::isfinite(o.tol) && o.tol > 0.0, "tol", "must be > 0", o.tol);
  require(o.max_iter >= 1 && o.max_iter <= 1000, "max_iter", "must lie in [1, 1000]");
}

bool impact_boundary_value(const PeriodicProblem& problem, const model::System& m,
                           const Eigen::VectorXd& u, const CriticalPointOptions& o, double& H,
                           hybrid::EventRecord* impact) {
  Impacts rec;
  const FlowRun run = run_flow(problem, m, u, &rec);
  if (!run.ok() || static_cast<int>(rec.list.size()) <= o.impact) return false;
  const hybrid::EventRecord& e = rec.list[static_cast<std::size_t>(o.impact)];
  if (!boundary_value_at(m, e, o, H)) return false;
  if (impact != nullptr) *impact = e;
  return true;
}

CriticalPoint locate_critical_point(const PeriodicProblem& problem, const Eigen::VectorXd& u0,
                                    const CriticalPointOptions& o) {
  validate(o);
  const Eigen::Index d = problem.dimension();
  require(u0.size() == d, "u0", "must have one entry per unknown");
  CriticalPoint cp;
  Eigen::VectorXd y(d + 1);
  y << u0, problem.model->parameter(o.parameter);
  Eigen::VectorXd g;
  if (!augmented(problem, o, y, g)) {
    cp.message = "the flow from the guess failed or has too few impacts";
    return cp;
  }
  double r = norm_inf(g);
  for (int it = 0; it < o.max_iter; ++it) {
    if (r <= o.tol * (1.0 + norm_inf(y))) {
      cp.converged = true;
      break;
    }
    Eigen::MatrixXd J(d + 1, d + 1);
    bool ok = true;
    for (Eigen::Index j = 0; j <= d && ok; ++j) {
      const double h = 1e-6 * (1.0 + std::abs(y(j)));
      Eigen::VectorXd yp = y, ym = y, gp, gm;
      yp(j) += h;
      ym(j) -= h;
      ok = augmented(problem, o, yp, gp) && augmented(problem, o, ym, gm);
      if (ok) J.col(j) = (gp - gm) / (2.0 * h);
    }
    if (!ok) {
      cp.message = "a perturbed flow failed while differencing";
      break;
    }
    const Eigen::VectorXd delta = J.fullPivLu().solve(-g);
    ++cp.iterations;
    bool improved = false;
    double s = 1.0;
    for (int halving = 0; halving <= 8; ++halving, s *= 0.5) {
      Eigen::VectorXd trial = y + s * delta, gt;
      if (augmented(problem, o, trial, gt) && norm_inf(gt) < r) {
        y = trial;
        g = gt;
        r = norm_inf(g);
        improved = true;
        break;
      }
    }
    if (!improved) {
      cp.message = "Newton stalled at |G| = " + format_number(r);
      break;
    }
  }
  if (!cp.converged && cp.message.empty()) {
    cp.converged = r <= o.tol * (1.0 + norm_inf(y));
    if (!cp.converged)
      cp.message = "no convergence in max_iter = " + std::to_string(o.max_iter) + " iterations";
  }
  cp.p = y(d);
  cp.u = y.head(d);
  cp.residual = r;
  cp.H = g(d);
  const auto m = problem.model->with_parameter(o.parameter, cp.p);
  double H = 0.0;
  (void)impact_boundary_value(problem, *m, cp.u, o, H, &cp.impact);
  return cp;
}

}  // namespace clatter::analysis
