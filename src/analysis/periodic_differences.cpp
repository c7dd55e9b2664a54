// The Jacobians of a periodic problem by central differences of its flows (periodic_problem.hpp:
// residual_jacobian, monodromy_differences), with their retry across a discontinuity of the flow,
// and the check of the components left out of the solved ones (held_components,
// unsolved_dependence), which differences the same flows.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "clatter/analysis/periodic_problem.hpp"
#include "clatter/core/error.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::analysis {

namespace {

// "the flow with <what> from t = .. stopped at t = .. (reason): message"
std::string failed_flow(const std::string& what, double t0, const hybrid::SimulationResult& r) {
  return "the flow with " + what + " from t = " + format_number(t0) +
         " stopped at t = " + format_number(r.t) + " (" + std::string(hybrid::to_string(r.reason)) +
         "): " + r.message;
}

// false, and `failure` set, unless both flows of a central difference reached their end
bool both_ok(const FlowRun& a, const FlowRun& b, const std::string& what, double h,
             std::string* failure) {
  if (a.ok() && b.ok()) return true;
  if (failure != nullptr) {
    const FlowRun& bad = a.ok() ? b : a;
    *failure = failed_flow(what + (a.ok() ? " - " : " + ") + format_number(h), bad.t0, bad.result);
  }
  return false;
}

// Whether two runs took the same events: their counts and the modes they end in.
bool same_events(const hybrid::SimulationResult& a, const hybrid::SimulationResult& b) {
  return a.events == b.events && a.impacts == b.impacts && a.modes == b.modes;
}

struct Difference {
  bool ok{false};
  bool straddles{false};  ///< the two flows took different events even at the smallest step
  Eigen::VectorXd derivative;
};

// (F(+h) − F(−h)) / 2h of `value` (default: the residual) over the flows of `flow(±h)`. Two flows
// that take different events (one meets an obstacle the other misses, one sticks, one slips:
// a start next to an obstacle or on a stick boundary) straddle a discontinuity of the flow, and
// their difference is not a derivative: the step is retried at h/100, where such a start a few h
// away is no longer straddled. Still different: `straddles` (the caller warns), with the first
// step's difference (a jump over 2h: the smaller step would only scale it up). A flow that fails
// at h is retried the same way before the failure is reported.
template <class Flow, class Value>
Difference central_difference(double h, const Flow& flow, const std::string& what,
                              std::string* failure, const Value& value) {
  Difference d;
  FlowRun a = flow(h), b = flow(-h);
  const bool first_ok = a.ok() && b.ok();
  if (!first_ok || !same_events(a.result, b.result)) {
    FlowRun a2 = flow(0.01 * h), b2 = flow(-0.01 * h);
    const bool second_ok = a2.ok() && b2.ok();
    if ((second_ok && same_events(a2.result, b2.result)) || !first_ok) {
      a = std::move(a2);
      b = std::move(b2);
      h *= 0.01;
    }
  }
  if (!both_ok(a, b, what, h, failure)) return d;
  d.ok = true;
  d.straddles = !same_events(a.result, b.result);
  d.derivative = (value(a) - value(b)) / (2.0 * h);
  return d;
}
template <class Flow>
Difference central_difference(double h, const Flow& flow, const std::string& what,
                              std::string* failure) {
  return central_difference(h, flow, what, failure,
                            [](const FlowRun& run) { return run.residual; });
}

// the flow from the unknowns u + h e_j
auto unknown_flow(const PeriodicProblem& p, const model::System& m, const Eigen::VectorXd& u,
                  Eigen::Index j) {
  return [&p, &m, &u, j](double h) {
    Eigen::VectorXd v = u;
    v(j) += h;
    return run_flow(p, m, v);
  };
}

// the flow from the full state x₀ + h e_c (from init's time and closed contacts, to o.t_end), as a
// FlowRun: its end state; a refused start is a failed flow
auto state_flow(const model::System& m, const hybrid::InitialState& init,
                const hybrid::SimulationOptions& o, const StateVector& x0, int c) {
  return [&m, &init, &o, &x0, c](double h) {
    FlowRun run;
    run.t0 = init.t;
    run.x0 = x0;
    run.x0(c) += h;
    hybrid::InitialState start = init;
    unpack_state(m, run.x0, start.q, start.qd, start.aux);
    try {
      run.result = hybrid::simulate(m, start, o, nullptr);
    } catch (const InvalidArgument& e) {
      run.result.reason = hybrid::StopReason::kNonFinite;
      run.result.t = init.t;
      run.result.message = std::string("the start was refused: ") + e.what();
    }
    run.x_end = run.ok() ? pack_state(m, run.result.q, run.result.qd, run.result.aux) : run.x0;
    return run;
  };
}

// the warning of the differences that straddled a change of the events
void note_straddled(const std::vector<std::string>& straddled, std::string* warning) {
  if (warning == nullptr) return;
  warning->clear();
  if (straddled.empty()) return;
  std::string list;
  for (const std::string& s : straddled) list += (list.empty() ? "" : ", ") + s;
  *warning = "the perturbed flows of " + list +
             " took different events on either side, also at a step 100 times smaller: the orbit "
             "sits on a discontinuity of its flow (a stick boundary, an obstacle at the start, a "
             "grazing), "
             "and the multipliers by differences are not reliable there (the variational "
             "monodromy, CLI --monodromy variational, Python monodromy=\"variational\", "
             "takes such points by saltation where the section allows it)";
}

}  // namespace

bool residual_jacobian(const PeriodicProblem& p, const model::System& m, const Eigen::VectorXd& u,
                       Eigen::MatrixXd& J, const std::string& parameter, Eigen::VectorXd* dr_dp,
                       std::string* failure, std::string* warning) {
  const Eigen::Index n = u.size();
  J.resize(n, n);
  std::vector<std::string> straddled;
  const std::vector<std::string> names = state_names(m);
  for (Eigen::Index j = 0; j < n; ++j) {
    const auto k = static_cast<std::size_t>(j);
    const std::string what =
        "unknown u[" + std::to_string(j) + "] (" +
        (k < p.solved.size() ? names[static_cast<std::size_t>(p.solved[k])] : "the period") + ")";
    const Difference dj =
        central_difference(1e-6 * (1.0 + std::abs(u(j))), unknown_flow(p, m, u, j), what, failure);
    if (!dj.ok) return false;
    if (dj.straddles) straddled.push_back(what);
    J.col(j) = dj.derivative;
  }
  if (dr_dp != nullptr) {
    const double p0 = m.parameter(parameter);
    const std::string what = "parameter " + parameter;
    const Difference dp = central_difference(
        1e-6 * (1.0 + std::abs(p0)),
        [&](double h) { return run_flow(p, *m.with_parameter(parameter, p0 + h), u); }, what,
        failure);
    if (!dp.ok) return false;
    if (dp.straddles) straddled.push_back(what);
    *dr_dp = dp.derivative;
  }
  note_straddled(straddled, warning);
  return true;
}

bool monodromy_differences(const PeriodicProblem& p, const model::System& m,
                           const Eigen::VectorXd& u, Eigen::MatrixXd& M_C, std::string* failure,
                           std::string* warning) {
  const std::vector<int> C = p.monodromy_components();
  const auto nc = static_cast<Eigen::Index>(C.size());
  M_C.resize(nc, nc);
  std::vector<std::string> straddled;
  const std::vector<std::string> names = state_names(m);
  const auto end_in_C = [&](const FlowRun& run) {  // x(t₀ + T) restricted to C
    Eigen::VectorXd x(nc);
    for (Eigen::Index i = 0; i < nc; ++i) x(i) = run.x_end(C[static_cast<std::size_t>(i)]);
    return x;
  };
  if (p.section.kind == OrbitSectionKind::kImpact) {
    // C = S = the unknowns: the return map's Jacobian, its period varying with the start
    for (Eigen::Index j = 0; j < nc; ++j) {
      const std::string what =
          "state component " + names[static_cast<std::size_t>(C[static_cast<std::size_t>(j)])];
      const Difference dj = central_difference(1e-6 * (1.0 + std::abs(u(j))),
                                               unknown_flow(p, m, u, j), what, failure, end_in_C);
      if (!dj.ok) return false;
      if (dj.straddles) straddled.push_back(what);
      M_C.col(j) = dj.derivative;
    }
    note_straddled(straddled, warning);
    return true;
  }
  const hybrid::InitialState init = initial_state(p, m, u);
  double t0 = 0.0, T = 0.0;
  start_and_period(p, m, u, t0, T);
  const StateVector x0 = pack_state(m, init.q, init.qd, init.aux);
  hybrid::SimulationOptions o = p.options;
  o.t_end = t0 + T;
  o.record_events = false;
  for (Eigen::Index j = 0; j < nc; ++j) {
    const int c = C[static_cast<std::size_t>(j)];
    const std::string what = "state component " + names[static_cast<std::size_t>(c)];
    const Difference dj = central_difference(
        1e-6 * (1.0 + std::abs(x0(c))), state_flow(m, init, o, x0, c), what, failure, end_in_C);
    if (!dj.ok) return false;
    if (dj.straddles) straddled.push_back(what);
    M_C.col(j) = dj.derivative;
  }
  note_straddled(straddled, warning);
  return true;
}

std::vector<bool> held_components(const model::System& m, double t, const model::VecQ& q,
                                  const model::VecQ& qd,
                                  const std::array<bool, model::kMaxContacts>& closed) {
  const int nq = m.nq();
  std::vector<bool> held(static_cast<std::size_t>(state_dimension(m)), false);
  for (int c = 0; c < m.num_contacts(); ++c) {
    if (!closed[static_cast<std::size_t>(c)]) continue;
    model::ContactGeometry k;
    m.contact_geometry(c, t, q, qd, k);
    const Eigen::RowVectorXd jn = k.J.row(1);
    Eigen::Index i = 0;
    const double largest = jn.cwiseAbs().maxCoeff(&i);
    if (largest > 0.0 && (jn.cwiseAbs().array() > 1e-12 * largest).count() == 1) {
      held[static_cast<std::size_t>(i)] = true;
      held[static_cast<std::size_t>(nq + i)] = true;
    }
  }
  return held;
}

std::string unsolved_dependence(const PeriodicProblem& p, const model::System& m,
                                const Eigen::VectorXd& u, const FlowRun& run) {
  if (!run.ok()) return "";
  const bool impact = p.section.kind == OrbitSectionKind::kImpact;
  const std::vector<int> C = p.monodromy_components();
  const std::vector<std::string> names = state_names(m);
  hybrid::SimulationOptions o = p.options;
  o.t_end = run.t0 + run.period;
  o.record_events = false;
  hybrid::InitialState init;
  init.t = run.t0;
  init.closed = p.closed;
  unpack_state(m, run.x0, init.q, init.qd, init.aux);
  const std::vector<bool> held = held_components(m, run.t0, init.q, init.qd, p.closed);
  const StateVector target = symmetry_image(p, m, run.t0, run.x0);
  for (int c = 0; c < state_dimension(m); ++c) {
    if (held[static_cast<std::size_t>(c)] || std::find(C.begin(), C.end(), c) != C.end()) continue;
    // on an impact section, or modulo a symmetry, the section ties some components to the others
    // (a landing spoke's angle): one that repeats (x(T) = G(x₀) in it) may be left out
    const double change = std::abs(run.x_end(c) - target(c));
    if ((impact || p.section.modulo_symmetry) && change <= 1e-8 * (1.0 + std::abs(run.x0(c))))
      continue;
    const double h = 1e-6 * (1.0 + std::abs(run.x0(c)));
    // an impact section's map: its flow from the start with the component moved (to the next
    // impact, the period varying); otherwise the flow over the period
    const Difference d = impact
                             ? central_difference(
                                   h,
                                   [&p, &m, &u, c](double dh) {
                                     PeriodicProblem moved = p;
                                     moved.reference(c) += dh;
                                     return run_flow(moved, m, u);
                                   },
                                   "", nullptr, [](const FlowRun& r) { return r.x_end; })
                             : central_difference(h, state_flow(m, init, o, run.x0, c), "", nullptr,
                                                  [](const FlowRun& r) { return r.x_end; });
    if (!d.ok) continue;  // not decidable here: a start next to an obstacle
    const Eigen::VectorXd& column = d.derivative;
    double coupling = 0.0;  // |∂x(t₀ + T)[C]/∂x₀[c]|∞
    for (const int i : C) coupling = std::max(coupling, std::abs(column(i)));
    if (coupling <= 1e-4) continue;
    return "the component " + names[static_cast<std::size_t>(c)] +
           " is not solved for, yet the solved ones depend on it (|dx(T)[solved]/d" +
           names[static_cast<std::size_t>(c)] + "| = " + format_number(coupling) + ")" +
           (impact || p.section.modulo_symmetry ? " and it does not repeat (it changes by " +
                                                      format_number(change) + " over the orbit)"
                                                : std::string()) +
           ": the multipliers of the solved block would not be the orbit's, and it need not "
           "repeat. Solve for it too (--solve, Python solve=); only a coordinate the motion does "
           "not depend on (a cyclic one), one a closed contact holds, or on an impact section one "
           "the impact fixes may be left out";
  }
  return "";
}

}  // namespace clatter::analysis
