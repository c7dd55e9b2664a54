#include "clatter/analysis/critical_point.hpp"

#include <Eigen/LU>

#include <cmath>

#include "clatter/analysis/dib.hpp"
#include "clatter/analysis/variational.hpp"
#include "clatter/core/error.hpp"
#include "clatter/laws/rank_one_impact.hpp"
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

// H at contact c of model m in the state (t, q, q̇) (v⁻ from the state)
bool boundary_value_state(const model::System& m, int c, double t, const model::VecQ& q,
                          const model::VecQ& qd, const CriticalPointOptions& o, double& H,
                          const Vec2* v_pre = nullptr) {
  const model::Contact& contact = m.contact(c);
  if (contact.law.kind != LawKind::kStronge) return false;
  model::MassFactor mass;
  m.factor_mass(t, q, mass);
  model::ContactGeometry k;
  m.contact_geometry(c, t, q, qd, k);
  const model::VecQ MinvJT = mass.solve(k.J.row(0).transpose());
  const model::VecQ MinvJN = mass.solve(k.J.row(1).transpose());
  const ContactMatrix W{k.J.row(0).dot(MinvJT), k.J.row(0).dot(MinvJN), k.J.row(1).dot(MinvJN)};
  // a contact without tangential mobility (W of rank one: a one-coordinate contact, a J_T row
  // of zeros) has no slip, so no regions of Stronge's law and no boundary between them
  if (is_rank_one(W))
    throw InvalidArgument("impact",
                          "contact " + contact.name +
                              " has a contact matrix W of rank one (no tangential mobility: A = " +
                              format_number(W.A) + ", AC - B^2 = " + format_number(W.det()) +
                              "): its impacts have no regions of Stronge's law to cross");
  H = boundary_function(o.region_a, o.region_b, v_pre != nullptr ? *v_pre : k.v, W,
                        contact.law.params);
  return true;
}

// H of the impact `e` of model m
bool boundary_value_at(const model::System& m, const hybrid::EventRecord& e,
                       const CriticalPointOptions& o, double& H) {
  return boundary_value_state(m, e.contact, e.t, e.q, e.qd_pre, o, H, &e.v_pre);
}

double norm_inf(const Eigen::VectorXd& v) { return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff(); }

// G(u, p) into g; false if a flow fails, with the reason in `why` if given; counts the flow in
// `flows`
bool augmented(const PeriodicProblem& pr, const CriticalPointOptions& o, const Eigen::VectorXd& y,
               Eigen::VectorXd& g, int& flows, const model::System* base = nullptr,
               std::string* why = nullptr) {
  ++flows;
  const auto fail = [why](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  const Eigen::Index d = pr.dimension();
  std::unique_ptr<model::System> m;
  try {
    m = (base != nullptr ? *base : *pr.model).with_parameter(o.parameter, y(d));
  } catch (const InvalidArgument& e) {
    return fail(std::string("the parameter's value is refused: ") + e.what());
  }
  const Eigen::VectorXd u = y.head(d);
  Impacts rec;
  const FlowRun run = run_flow(pr, *m, u, &rec);
  if (!run.ok()) return fail("the engine stopped: " + run.result.message);
  if (static_cast<int>(rec.list.size()) <= o.impact)
    return fail("it has " + std::to_string(rec.list.size()) + " impacts, impact " +
                std::to_string(o.impact) + " (from 0) is asked");
  double H = 0.0;
  if (!boundary_value_at(*m, rec.list[static_cast<std::size_t>(o.impact)], o, H))
    return fail("the impact's law is not Stronge's or its state is not usable");
  g.resize(d + 1);
  g << run.residual, H;
  return true;
}

// J_G by the variational equations (see the header); false with `why` if they do not apply
bool variational_jacobian(const PeriodicProblem& pr, const CriticalPointOptions& o,
                          const Eigen::VectorXd& y, Eigen::MatrixXd& J, int& flows,
                          int& variational_runs, std::string& why) {
  const Eigen::Index d = pr.dimension();
  const std::shared_ptr<const model::System> m(pr.model->with_parameter(o.parameter, y(d)));
  const Eigen::VectorXd u = y.head(d);
  Impacts rec;
  const FlowRun run = run_flow(pr, *m, u, &rec);  // x(T), its modes, the impacts' regions
  ++flows;
  if (!run.ok() || static_cast<int>(rec.list.size()) <= o.impact) {
    why = "the flow failed or has too few impacts";
    return false;
  }
  // the law's formula of the impact's region forced (when the contact's impacts in the period
  // share it): the saltation's reset Jacobian, partly by differences, then stays on the
  // iterate's side of the boundary instead of straddling it
  const hybrid::EventRecord& ek = rec.list[static_cast<std::size_t>(o.impact)];
  bool one_region = true;
  for (const hybrid::EventRecord& r : rec.list)
    one_region = one_region && (r.contact != ek.contact || r.region == ek.region);
  const std::shared_ptr<const model::System> mv =
      one_region && ek.region >= 0 ? with_forced_region(*m, ek.contact, ek.region) : m;
  hybrid::SimulationOptions so = pr.options;
  so.t_end = run.t0 + run.period;
  VariationalOptions vo;
  vo.record_events = true;
  const VariationalMonodromy v = monodromy_variational(*mv, initial_state(pr, *mv, u), so, vo);
  ++flows;
  ++variational_runs;
  if (!v.ok) {
    why = v.message;
    return false;
  }
  const int n = state_dimension(*m);
  const std::vector<int>& S = pr.solved;
  const auto ns = static_cast<Eigen::Index>(S.size());
  J = Eigen::MatrixXd::Zero(d + 1, d + 1);
  for (Eigen::Index k = 0; k < ns; ++k)
    for (Eigen::Index l = 0; l < ns; ++l)
      J(k, l) = v.M(S[static_cast<std::size_t>(k)], S[static_cast<std::size_t>(l)]) -
                (k == l ? 1.0 : 0.0);
  hybrid::ConstrainedDynamics scratch;
  if (pr.section.kind == OrbitSectionKind::kAutonomous) {
    const int a = pr.section.anchor;
    const double nu = pr.section.drift.empty() ? 0.0 : m->parameter(pr.section.drift);
    StateVector f_end;
    state_rate(*m, run.t0 + run.period, run.x_end, run.result.modes, pr.options.stabilization,
               scratch, f_end);
    for (Eigen::Index l = 0; l < ns; ++l) J(ns, l) = v.M(a, S[static_cast<std::size_t>(l)]);
    for (Eigen::Index k = 0; k < ns; ++k) J(k, ns) = f_end(S[static_cast<std::size_t>(k)]);
    J(ns, ns) = f_end(a) - nu;
  }
  // the k-th impact: Φ⁻ before it, the trigger g_N and H by differences (no flow)
  const EventSensitivity* es = nullptr;
  int seen = 0;
  for (const EventSensitivity& x : v.before_events) {
    if (x.event.kind != hybrid::EventKind::kImpact) continue;
    if (seen++ == o.impact) {
      es = &x;
      break;
    }
  }
  if (es == nullptr) {
    why = "the variational run has too few impacts";
    return false;
  }
  const hybrid::EventRecord& e = es->event;
  const double te = e.t;
  const StateVector xm = pack_state(*m, e.q, e.qd_pre, e.aux);
  StateVector fm;
  state_rate(*m, te, xm, es->modes_before, pr.options.stabilization, scratch, fm);
  const auto gap = [&](double t, const StateVector& x) {
    model::VecQ q, qd;
    model::VecA aux;
    unpack_state(*m, x, q, qd, aux);
    model::ContactGeometry k;
    m->contact_geometry(e.contact, t, q, qd, k);
    return k.g_N;
  };
  bool ok = true;
  const auto H = [&](double t, const StateVector& x) {
    model::VecQ q, qd;
    model::VecA aux;
    unpack_state(*m, x, q, qd, aux);
    double h = 0.0;
    ok = boundary_value_state(*m, e.contact, t, q, qd, o, h) && ok;
    return h;
  };
  Eigen::RowVectorXd hx(n), Hx(n);
  for (int j = 0; j < n; ++j) {
    const double h = 1e-6 * (1.0 + std::abs(xm(j)));
    StateVector a = xm, b = xm;
    a(j) += h;
    b(j) -= h;
    hx(j) = (gap(te, a) - gap(te, b)) / (2.0 * h);
    Hx(j) = (H(te, a) - H(te, b)) / (2.0 * h);
  }
  const double ht = 1e-6 * (1.0 + std::abs(te));
  const double h_t = (gap(te + ht, xm) - gap(te - ht, xm)) / (2.0 * ht);
  const double H_t = (H(te + ht, xm) - H(te - ht, xm)) / (2.0 * ht);
  const double den = hx.dot(fm) + h_t;
  if (!ok || !(std::abs(den) > 1e-12) || !std::isfinite(den)) {
    why = "the impact grazes or its law is not Stronge's";
    return false;
  }
  for (Eigen::Index l = 0; l < ns; ++l) {
    const Eigen::VectorXd col = es->Phi.col(S[static_cast<std::size_t>(l)]);
    const double dt = -hx.dot(col) / den;
    J(d, l) = Hx.dot(col + fm * dt) + H_t * dt;
  }
  // ∂G/∂p by central differences of the flow (the same region forced: the step moves H by
  // N·h, across the boundary when the iterate is near it)
  const double hp = 1e-6 * (1.0 + std::abs(y(d)));
  Eigen::VectorXd yp = y, ym = y, gp, gm;
  yp(d) += hp;
  ym(d) -= hp;
  const std::shared_ptr<const model::System> base =
      mv == m ? pr.model : with_forced_region(*pr.model, ek.contact, ek.region);
  if (!augmented(pr, o, yp, gp, flows, base.get()) ||
      !augmented(pr, o, ym, gm, flows, base.get())) {
    why = "a perturbed flow failed while differencing";
    return false;
  }
  J.col(d) = (gp - gm) / (2.0 * hp);
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
  require(problem.section.kind != OrbitSectionKind::kImpact, "section",
          "the critical point of a boundary crossing is not built on an impact section (use "
          "the stroboscopic or an anchored section)");
  const Eigen::Index d = problem.dimension();
  require(u0.size() == d, "u0", "must have one entry per unknown");
  CriticalPoint cp;
  Eigen::VectorXd y(d + 1);
  y << u0, problem.model->parameter(o.parameter);
  Eigen::VectorXd g;
  if (std::string why; !augmented(problem, o, y, g, cp.flows, nullptr, &why)) {
    cp.message = "the flow from the guess failed: " + why;
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
    if (o.jacobian == CriticalJacobian::kVariational) {
      std::string why;
      if (!variational_jacobian(problem, o, y, J, cp.flows, cp.variational_runs, why)) {
        cp.message = "the variational Jacobian failed: " + why;
        break;
      }
    } else {
      for (Eigen::Index j = 0; j <= d && ok; ++j) {
        const double h = 1e-6 * (1.0 + std::abs(y(j)));
        Eigen::VectorXd yp = y, ym = y, gp, gm;
        yp(j) += h;
        ym(j) -= h;
        ok = augmented(problem, o, yp, gp, cp.flows) && augmented(problem, o, ym, gm, cp.flows);
        if (ok) J.col(j) = (gp - gm) / (2.0 * h);
      }
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
      if (augmented(problem, o, trial, gt, cp.flows) && norm_inf(gt) < r) {
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
  ++cp.flows;
  return cp;
}

}  // namespace clatter::analysis
