#include "clatter/analysis/periodic_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include <Eigen/LU>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/data.hpp"
#include "clatter/model/motion_symmetry.hpp"

namespace clatter::analysis {

std::vector<int> PeriodicProblem::monodromy_components() const {
  std::vector<int> c = solved;
  if (section.kind == OrbitSectionKind::kAutonomous) {
    c.push_back(section.anchor);
    std::sort(c.begin(), c.end());
  }
  return c;
}

namespace {

// G must map motions onto motions (model/motion_symmetry.hpp): for the free motion (every contact
// open) f(t, G x) = DG f(t, x), DG f by central differences of G along f, and the gaps relabelled,
// g_π(k)(G x) = g_k(x). Checked at the reference start and at three later times, in the max norm
// relative to |f|: a symmetry that holds only with a shift of the forcing phase (x → −x of a
// two-sided impact oscillator under F cos Ωt) fails at once, where the orbits posed with it would
// not be motions of the model.
void check_equivariance(const PeriodicProblem& p, const model::System& m) {
  const std::vector<int> pi = m.motion_symmetry()->contact_map();
  const hybrid::Modes open{};
  hybrid::ConstrainedDynamics scratch;
  const StateVector& x = p.reference;
  for (const double dt : {0.0, 0.37, 1.21, 2.93}) {
    const double t = p.start_time + dt;
    StateVector f, fg;
    state_rate(m, t, x, open, p.options.stabilization, scratch, f);
    state_rate(m, t, symmetry_image(p, m, t, x), open, p.options.stabilization, scratch, fg);
    const double f_norm = f.lpNorm<Eigen::Infinity>();
    if (!f.allFinite() || !fg.allFinite() || !(f_norm > 0.0)) continue;
    const double h = 1e-6 * (1.0 + x.lpNorm<Eigen::Infinity>()) / f_norm;
    const StateVector dg_f =
        (symmetry_image(p, m, t, x + h * f) - symmetry_image(p, m, t, x - h * f)) / (2.0 * h);
    const double scale = std::max(f_norm, fg.lpNorm<Eigen::Infinity>());
    const double mismatch = (fg - dg_f).lpNorm<Eigen::Infinity>();
    require(mismatch <= 1e-6 * scale, "symmetry",
            "the model's symmetry does not map its motions onto motions: at t = " +
                format_number(t) + " the rate of the image differs from the image of the rate by " +
                format_number(mismatch) + " (of " + format_number(scale) +
                "). A symmetry must hold at the same time t (model/motion_symmetry.hpp); for a "
                "forced model whose symmetry needs a shift of the forcing phase, hold the phase "
                "as an auxiliary state and map it too");
  }
  const StateVector gx = symmetry_image(p, m, p.start_time, x);
  model::VecQ q, qd, gq, gqd;
  model::VecA aux, gaux;
  unpack_state(m, x, q, qd, aux);
  unpack_state(m, gx, gq, gqd, gaux);
  for (int k = 0; k < m.num_contacts(); ++k) {
    const int k_image = pi[static_cast<std::size_t>(k)];
    model::ContactGeometry a, b;
    m.contact_geometry(k, p.start_time, q, qd, a);
    m.contact_geometry(k_image, p.start_time, gq, gqd, b);
    const double scale = std::max({std::abs(a.g_N), std::abs(b.g_N), a.scale, b.scale});
    require(std::abs(a.g_N - b.g_N) <= 1e-9 * scale, "symmetry",
            "the model's contact map does not relabel the gaps: contact " + m.contact(k).name +
                " at the start has the gap " + format_number(a.g_N) + " m, its image " +
                m.contact(k_image).name + " " + format_number(b.g_N) + " m");
  }
}

// An impact section's flow, or an anchored one's without a drift, starts at the section's time
// whatever it is: the model's motion must not depend on t. Its state rate (all contacts open) and
// its contacts' gaps, obstacle velocities and γ are compared at the start and at three later times.
void check_autonomous(const PeriodicProblem& p, const model::System& m) {
  const hybrid::Modes open{};
  hybrid::ConstrainedDynamics scratch;
  const StateVector& x = p.reference;
  model::VecQ q, qd;
  model::VecA aux;
  unpack_state(m, x, q, qd, aux);
  StateVector f0;
  state_rate(m, p.start_time, x, open, p.options.stabilization, scratch, f0);
  std::vector<model::ContactGeometry> k0(static_cast<std::size_t>(m.num_contacts()));
  for (int c = 0; c < m.num_contacts(); ++c)
    m.contact_geometry(c, p.start_time, q, qd, k0[static_cast<std::size_t>(c)]);
  const std::string fix =
      ": an impact or anchored section needs an autonomous model (nothing depending on t); use the "
      "stroboscopic section of its forcing (CLI --frequency NAME, Python frequency=NAME: the "
      "parameter holding its angular frequency), or hold the forcing's phase as an auxiliary "
      "state";
  for (const double dt : {0.37, 1.21, 2.93}) {
    const double t = p.start_time + dt;
    StateVector f;
    state_rate(m, t, x, open, p.options.stabilization, scratch, f);
    const double scale = std::max(f0.lpNorm<Eigen::Infinity>(), f.lpNorm<Eigen::Infinity>());
    const double mismatch = (f - f0).lpNorm<Eigen::Infinity>();
    if (f.allFinite() && f0.allFinite() && mismatch > 1e-9 * scale) {
      require(false, "section",
              "the model's motion depends on time: its state rate at the start differs at t = " +
                  format_number(p.start_time) + " and t = " + format_number(t) + " by " +
                  format_number(mismatch) + " (of " + format_number(scale) + ")" + fix);
    }
    for (int c = 0; c < m.num_contacts(); ++c) {
      const model::ContactGeometry& a = k0[static_cast<std::size_t>(c)];
      model::ContactGeometry b;
      m.contact_geometry(c, t, q, qd, b);
      const double d =
          std::max({std::abs(a.g_N - b.g_N) / (1.0 + a.scale),
                    (a.w - b.w).lpNorm<Eigen::Infinity>() / (1.0 + a.w.lpNorm<Eigen::Infinity>()),
                    (a.gamma - b.gamma).lpNorm<Eigen::Infinity>() /
                        (1.0 + a.gamma.lpNorm<Eigen::Infinity>())});
      require(!(d > 1e-9), "section",
              "the model's motion depends on time: contact " + m.contact(c).name +
                  " (its gap, obstacle velocity or gamma) differs at t = " +
                  format_number(p.start_time) + " and t = " + format_number(t) + fix);
    }
  }
}

}  // namespace

PeriodicProblem make_periodic_problem(std::shared_ptr<const model::System> model,
                                      const hybrid::SimulationOptions& options,
                                      const OrbitSection& section, std::vector<int> solved,
                                      const StateVector& reference,
                                      const std::array<bool, model::kMaxContacts>& closed,
                                      double start_time) {
  require(model != nullptr, "model", "must not be null");
  const model::System& m = *model;
  const int n = state_dimension(m);
  require(reference.size() == n, "reference", "must have the model's state dimension");
  require(reference.allFinite(), "reference", "must be finite");
  require(!solved.empty(), "solved", "must name at least one state component");
  std::sort(solved.begin(), solved.end());
  require(std::adjacent_find(solved.begin(), solved.end()) == solved.end(), "solved",
          "must not repeat a component");
  for (int i : solved) require(i >= 0 && i < n, "solved", "component index out of range");
  if (section.kind == OrbitSectionKind::kForced) {
    const double omega = m.parameter(section.frequency);  // throws naming an unknown parameter
    require(std::isfinite(omega) && omega > 0.0, "section.frequency",
            "the forcing frequency must be > 0 for a stroboscopic section", omega);
    require(section.periods >= 1 && section.periods <= 1000, "section.periods",
            "must lie in [1, 1000]");
    require(std::isfinite(section.phase), "section.phase", "must be finite");
  } else if (section.kind == OrbitSectionKind::kImpact) {
    require(section.contact >= 0 && section.contact < m.num_contacts(), "section.contact",
            "must be a contact of the model");
    require(section.impacts >= 1 && section.impacts <= 1000, "section.impacts",
            "must lie in [1, 1000]");
    require(std::isfinite(section.max_period) && section.max_period > 0.0, "section.max_period",
            "must be > 0 [s]", section.max_period);
    require(!m.parameters().has("surface.omega") || !(m.parameter("surface.omega") > 0.0),
            "section",
            "an impact section of a forced model needs its phase as an unknown: not built (use "
            "the stroboscopic section)");
  } else {
    require(section.anchor >= 0 && section.anchor < n, "section.anchor",
            "must be a state component of the model");
    require(std::find(solved.begin(), solved.end(), section.anchor) == solved.end(),
            "section.anchor", "must not be one of the solved components");
    if (!section.drift.empty()) (void)m.parameter(section.drift);
  }
  if (section.modulo_symmetry) {
    const model::MotionSymmetry* g = m.motion_symmetry();
    require(g != nullptr, "symmetry",
            "the model (kind " + std::string(m.kind()) +
                ") declares no symmetry of its motion (System::motion_symmetry)");
    std::vector<int> pi = g->contact_map();
    require(static_cast<int>(pi.size()) == m.num_contacts(), "symmetry",
            "the contact map of the model's symmetry must have one entry per contact (" +
                std::to_string(m.num_contacts()) + "), got " + std::to_string(pi.size()));
    std::sort(pi.begin(), pi.end());
    for (int k = 0; k < static_cast<int>(pi.size()); ++k)
      require(pi[static_cast<std::size_t>(k)] == k, "symmetry",
              "the contact map of the model's symmetry must be a permutation of the contacts");
    require(section.symmetry_power >= 1 && section.symmetry_power <= 1000, "section.symmetry_power",
            "must lie in [1, 1000]");
  }
  hybrid::validate(options, 0.0);
  PeriodicProblem p;
  p.model = std::move(model);
  p.options = options;
  p.options.output_dt = 0.0;
  p.section = section;
  p.solved = std::move(solved);
  p.reference = reference;
  p.closed = closed;
  p.start_time = start_time;
  if (section.kind == OrbitSectionKind::kImpact) {
    // the modes the engine finds at the reference start (declared-closed contacts, at rest)
    hybrid::SimulationOptions o = p.options;
    o.t_end = p.start_time + section.max_period;
    hybrid::InitialState init;
    init.t = p.start_time;
    unpack_state(m, reference, init.q, init.qd, init.aux);
    init.closed = closed;
    p.start_modes = hybrid::make_data(m, init, o).modes;
  }
  if (section.kind == OrbitSectionKind::kImpact ||
      (section.kind == OrbitSectionKind::kAutonomous && section.drift.empty()))
    check_autonomous(p, m);
  if (section.modulo_symmetry) {
    const Eigen::MatrixXd DG = symmetry_jacobian(p, m, 0.0, reference);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(DG);
    require(DG.allFinite() && lu.isInvertible(), "symmetry",
            "the model's symmetry is not invertible on the solved components (and the anchor)");
    check_equivariance(p, m);
  }
  return p;
}

StateVector symmetry_image(const PeriodicProblem& p, const model::System& m, double t,
                           const StateVector& x) {
  if (!p.section.modulo_symmetry) return x;
  model::VecQ q, qd;
  model::VecA aux;
  unpack_state(m, x, q, qd, aux);
  for (int k = 0; k < p.section.symmetry_power; ++k) m.motion_symmetry()->apply(t, q, qd, aux);
  return pack_state(m, q, qd, aux);
}

Eigen::MatrixXd symmetry_jacobian(const PeriodicProblem& p, const model::System& m, double t,
                                  const StateVector& x) {
  const std::vector<int> C = p.monodromy_components();
  const auto nc = static_cast<Eigen::Index>(C.size());
  if (!p.section.modulo_symmetry) return Eigen::MatrixXd::Identity(nc, nc);
  Eigen::MatrixXd DG(nc, nc);
  for (Eigen::Index j = 0; j < nc; ++j) {
    const int c = C[static_cast<std::size_t>(j)];
    const double h = 1e-6 * (1.0 + std::abs(x(c)));
    StateVector xp = x, xm = x;
    xp(c) += h;
    xm(c) -= h;
    const StateVector gp = symmetry_image(p, m, t, xp), gm = symmetry_image(p, m, t, xm);
    for (Eigen::Index i = 0; i < nc; ++i) {
      const int r = C[static_cast<std::size_t>(i)];
      DG(i, j) = (gp(r) - gm(r)) / (2.0 * h);
    }
  }
  return DG;
}

std::string symmetry_mismatch(const PeriodicProblem& p, const model::System& m,
                              const Eigen::VectorXd& u, const FlowRun& run) {
  if (!p.section.modulo_symmetry || !run.ok()) return {};
  // the modes at the start as the engine finds them (closed given, or touching at rest), from
  // the start the flow took (on an impact section projected onto the contacts it leaves closed)
  hybrid::SimulationOptions o = p.options;
  o.t_end = run.t0 + run.period;
  hybrid::InitialState init = initial_state(p, m, u);
  unpack_state(m, run.x0, init.q, init.qd, init.aux);
  const hybrid::Data start = hybrid::make_data(m, init, o);
  const std::vector<int> pi = m.motion_symmetry()->contact_map();
  for (int k = 0; k < m.num_contacts(); ++k) {
    int j = k;  // π^power(k)
    for (int s = 0; s < p.section.symmetry_power; ++s) j = pi[static_cast<std::size_t>(j)];
    const auto image = static_cast<std::size_t>(j);
    const bool at_start = hybrid::is_closed(start.modes[static_cast<std::size_t>(k)]);
    const bool at_end = hybrid::is_closed(run.result.modes[image]);
    if (at_end != at_start)
      return "the orbit is not periodic modulo the model's symmetry: contact " + m.contact(k).name +
             " is " + (at_start ? "closed" : "open") + " at the start but its image " +
             m.contact(static_cast<int>(image)).name + " is " + (at_end ? "closed" : "open") +
             " at the end";
  }
  return {};
}

Eigen::VectorXd unknowns_of(const PeriodicProblem& p, const StateVector& x0, double T) {
  Eigen::VectorXd u(p.dimension());
  for (std::size_t k = 0; k < p.solved.size(); ++k)
    u(static_cast<Eigen::Index>(k)) = x0(p.solved[k]);
  if (p.section.kind == OrbitSectionKind::kAutonomous) u(u.size() - 1) = T;
  return u;
}

int end_contact(const PeriodicProblem& p, const model::System& m) {
  const int c = p.section.contact;
  if (!p.section.modulo_symmetry || c < 0) return c;
  int j = c;
  const std::vector<int> pi = m.motion_symmetry()->contact_map();
  for (int k = 0; k < p.section.symmetry_power; ++k) j = pi[static_cast<std::size_t>(j)];
  return j;
}

void start_and_period(const PeriodicProblem& p, const model::System& m, const Eigen::VectorXd& u,
                      double& t0, double& T) {
  if (p.section.kind == OrbitSectionKind::kImpact) {
    t0 = p.start_time;
    T = p.section.max_period;  // a bound: the flow ends at the section's impact
    return;
  }
  if (p.section.kind == OrbitSectionKind::kForced) {
    const double omega = m.parameter(p.section.frequency);
    t0 = p.section.phase / omega;
    T = 2.0 * std::numbers::pi * p.section.periods / omega;
  } else {
    t0 = 0.0;
    T = u(u.size() - 1);
  }
}

hybrid::InitialState initial_state(const PeriodicProblem& p, const model::System& m,
                                   const Eigen::VectorXd& u) {
  StateVector x0 = p.reference;
  for (std::size_t k = 0; k < p.solved.size(); ++k)
    x0(p.solved[k]) = u(static_cast<Eigen::Index>(k));
  double t0 = 0.0, T = 0.0;
  start_and_period(p, m, u, t0, T);
  hybrid::InitialState init;
  init.t = t0;
  unpack_state(m, x0, init.q, init.qd, init.aux);
  init.closed = p.closed;
  return init;
}

namespace {

// An impact section's end: passes everything on to `inner` (may be null) and stops the run
// just after the k-th impact of the end contact, keeping its post-impact state and modes.
class SectionImpact final : public hybrid::Recorder {
 public:
  SectionImpact(const model::System& m, int contact, int count, hybrid::Recorder* inner)
      : m_(m), contact_(contact), count_(count), inner_(inner) {}
  void on_sample(const hybrid::Sample& s) override {
    if (!found && inner_ != nullptr) inner_->on_sample(s);
  }
  void on_section(const hybrid::Sample& s) override {
    if (!found && inner_ != nullptr) inner_->on_section(s);
  }
  void on_event(const hybrid::EventRecord& e) override {
    if (found) {
      // the later rows of the same instant (a multi-point collision's further events): the
      // state is the one the instant leaves
      if (e.t == t) {
        x = pack_state(m_, e.q, e.qd_post, e.aux);
        modes = e.modes;
      }
      return;
    }
    if (inner_ != nullptr) inner_->on_event(e);
    if (e.kind != hybrid::EventKind::kImpact || e.contact != contact_) return;
    if (e.t == last_counted_) return;  // the contact again in the same collision
    last_counted_ = e.t;
    if (++seen < count_) return;
    found = true;
    t = e.t;
    x = pack_state(m_, e.q, e.qd_post, e.aux);
    modes = e.modes;
  }
  bool keep_going() override { return !found && (inner_ == nullptr || inner_->keep_going()); }

  bool found{false};
  int seen{0};
  double t{0.0};
  StateVector x;
  hybrid::Modes modes{};

 private:
  const model::System& m_;
  int contact_, count_;
  double last_counted_{std::numeric_limits<double>::quiet_NaN()};
  hybrid::Recorder* inner_;
};

}  // namespace

namespace {

// the first contact not declared closed whose gap is zero (to 1e-12 of its scale) at the problem's
// reference state, the guess; "" if none
std::string resting_contact(const PeriodicProblem& p, const model::System& m) {
  model::VecQ q, qd;
  model::VecA aux;
  unpack_state(m, p.reference, q, qd, aux);
  for (int c = 0; c < m.num_contacts(); ++c) {
    if (p.closed[static_cast<std::size_t>(c)]) continue;
    model::ContactGeometry k;
    m.contact_geometry(c, p.start_time, q, qd, k);
    if (std::abs(k.g_N) <= 1e-12 * std::max(1.0, k.scale)) return m.contact(c).name;
  }
  return "";
}

}  // namespace

FlowRun run_flow(const PeriodicProblem& p, const model::System& m, const Eigen::VectorXd& u,
                 hybrid::Recorder* recorder, double output_dt) {
  FlowRun run;
  start_and_period(p, m, u, run.t0, run.period);
  hybrid::InitialState init = initial_state(p, m, u);
  // the orbit closes on the start as the unknowns give it: projected onto the closed contacts
  // below (an impact section), the residual still compares with u's own state, so that the orbit
  // is a fixed point u = P(Π(u)) on the constraints, not any u that Π maps onto one (Newton then
  // stalled, and the multipliers were those of D(P∘Π) off the constraints: −0.27 ± 0.52i for a
  // walker whose gait has −0.19 ± 0.56i)
  const StateVector x_given = pack_state(m, init.q, init.qd, init.aux);
  if (p.section.kind == OrbitSectionKind::kImpact) {
    // a perturbed start is brought onto the constraints of the contacts closed after the
    // section's impact (the velocities a plastic, sticking impact leaves; project_onto_closed)
    const StateVector x =
        project_onto_closed(m, init.t, pack_state(m, init.q, init.qd, init.aux), p.start_modes);
    unpack_state(m, x, init.q, init.qd, init.aux);
  }
  run.x0 = pack_state(m, init.q, init.qd, init.aux);
  run.residual = Eigen::VectorXd::Constant(p.dimension(), std::nan(""));
  if (!(run.period > 0.0) || !std::isfinite(run.period)) {
    run.result.reason = hybrid::StopReason::kNonFinite;
    run.result.message = "the period must be finite and > 0";
    run.x_end = run.x0;
    return run;
  }
  hybrid::SimulationOptions o = p.options;
  o.t_end = run.t0 + run.period;
  o.output_dt = output_dt;
  o.record_events = recorder != nullptr;
  const bool impact = p.section.kind == OrbitSectionKind::kImpact;
  SectionImpact end(m, end_contact(p, m), p.section.impacts, recorder);
  if (impact) o.record_events = true;
  try {
    run.result = hybrid::simulate(m, init, o, impact ? &end : recorder);
  } catch (const InvalidArgument& e) {  // e.g. a start below an obstacle during a Newton step
    run.result.reason = hybrid::StopReason::kNonFinite;
    run.result.message = e.what();
    // a start inside an obstacle: the guess rests on it undeclared (a perturbed coordinate
    // pushed in), or, on a converged branch, an impact has drifted onto the section
    if (e.field() == "initial.q" && p.section.kind != OrbitSectionKind::kImpact) {
      const std::string resting = resting_contact(p, m);
      run.result.message +=
          !resting.empty()
              ? " (contact " + resting + " touches at the guess: declare it closed, CLI --closed " +
                    resting + ", Python closed=[\"" + resting +
                    "\"], or leave the coordinates it holds out of the solved ones)"
          : p.section.kind == OrbitSectionKind::kForced
              ? " (the section may now cut the orbit at an impact: pose it at another phase, CLI "
                "--phase, Python phase=)"
              : " (the section may now cut the orbit at an impact: pose it at another anchor "
                "value)";
    }
    run.x_end = run.x0;
    return run;
  }
  run.x_end = pack_state(m, run.result.q, run.result.qd, run.result.aux);
  if (impact) {
    if (end.found) {  // the section's impact ends the orbit: its post-impact state and modes
      run.period = end.t - run.t0;
      run.x_end = end.x;
      run.result.reason = hybrid::StopReason::kEndTime;
      run.result.message.clear();
      run.result.t = end.t;
      run.result.modes = settled_modes(m, end.t, end.x, end.modes);
    } else if (run.result.reason == hybrid::StopReason::kEndTime) {
      run.result.reason = hybrid::StopReason::kEventLocation;
      run.result.message =
          "contact " + m.contact(end_contact(p, m)).name + " had " + std::to_string(end.seen) +
          " of the " + std::to_string(p.section.impacts) +
          " impacts that end the orbit within max_period = " + format_number(p.section.max_period) +
          " s";
    }
  }
  if (!run.ok()) return run;
  // the orbit closes on x₀, or on its image G(x₀) modulo the model's symmetry
  const StateVector target = symmetry_image(p, m, run.t0, x_given);
  const std::size_t ns = p.solved.size();
  for (std::size_t k = 0; k < ns; ++k)
    run.residual(static_cast<Eigen::Index>(k)) = run.x_end(p.solved[k]) - target(p.solved[k]);
  if (p.section.kind == OrbitSectionKind::kAutonomous) {
    const double nu = p.section.drift.empty() ? 0.0 : m.parameter(p.section.drift);
    const int a = p.section.anchor;
    run.residual(static_cast<Eigen::Index>(ns)) = run.x_end(a) - nu * run.period - target(a);
  }
  return run;
}

StateVector project_onto_closed(const model::System& m, double t, const StateVector& x,
                                const hybrid::Modes& modes) {
  model::VecQ q, qd;
  model::VecA aux;
  unpack_state(m, x, q, qd, aux);
  const int nq = m.nq();
  // positions first: the closed contacts' gaps to 0 along M⁻¹J_Nᵀ (a perturbed start lifted off
  // a stance foot by +h fell back onto it, a plastic landing of √(2 g h), where −h was held:
  // differences across it were not derivatives)
  for (int iter = 0; iter < 3; ++iter) {
    Eigen::MatrixXd JN(m.num_contacts(), nq);
    Eigen::VectorXd gap(m.num_contacts());
    Eigen::Index n = 0;
    double scale = 0.0;
    for (int c = 0; c < m.num_contacts(); ++c) {
      if (!hybrid::is_closed(modes[static_cast<std::size_t>(c)])) continue;
      model::ContactGeometry g;
      m.contact_geometry(c, t, q, qd, g);
      JN.row(n) = g.J.row(1);
      gap(n++) = g.g_N;
      scale = std::max(scale, 1.0 + g.scale);
    }
    if (n == 0 || gap.head(n).lpNorm<Eigen::Infinity>() <= 1e-15 * scale) break;
    const Eigen::MatrixXd J_N = JN.topRows(n);
    const Eigen::MatrixXd Minv = Eigen::MatrixXd(m.mass_matrix(t, q)).inverse();
    const Eigen::MatrixXd W_N = J_N * Minv * J_N.transpose();
    const Eigen::VectorXd dq = Minv * J_N.transpose() * W_N.fullPivLu().solve(gap.head(n));
    for (int i = 0; i < nq; ++i) q(i) -= dq(i);
  }
  Eigen::MatrixXd J(2 * m.num_contacts(), nq);
  Eigen::VectorXd w(2 * m.num_contacts());
  Eigen::Index rows = 0;
  for (int c = 0; c < m.num_contacts(); ++c) {
    const hybrid::ContactMode mode = modes[static_cast<std::size_t>(c)];
    if (!hybrid::is_closed(mode)) continue;
    model::ContactGeometry g;
    m.contact_geometry(c, t, q, qd, g);
    J.row(rows) = g.J.row(1);
    w(rows++) = g.w(1);
    if (mode == hybrid::ContactMode::kStick) {
      J.row(rows) = g.J.row(0);
      w(rows++) = g.w(0);
    }
  }
  if (rows == 0) return x;
  const Eigen::MatrixXd Jr = J.topRows(rows);
  const Eigen::MatrixXd Minv = Eigen::MatrixXd(m.mass_matrix(t, q)).inverse();
  const Eigen::MatrixXd W = Jr * Minv * Jr.transpose();
  const Eigen::VectorXd residual = Jr * Eigen::VectorXd(qd) - w.head(rows);
  const Eigen::VectorXd dv = Minv * Jr.transpose() * W.fullPivLu().solve(residual);
  for (int i = 0; i < nq; ++i) qd(i) -= dv(i);
  return pack_state(m, q, qd, aux);
}

hybrid::Modes settled_modes(const model::System& m, double t, const StateVector& x,
                            hybrid::Modes modes) {
  model::VecQ q, qd;
  model::VecA aux;
  unpack_state(m, x, q, qd, aux);
  for (int c = 0; c < m.num_contacts(); ++c) {
    if (!hybrid::is_closed(modes[static_cast<std::size_t>(c)])) continue;
    model::ContactGeometry g;
    m.contact_geometry(c, t, q, qd, g);
    if (g.v.y() > 1e-8 * (1.0 + g.v.cwiseAbs().maxCoeff() + qd.cwiseAbs().maxCoeff()))
      modes[static_cast<std::size_t>(c)] = hybrid::ContactMode::kOpen;
  }
  return modes;
}

Eigen::MatrixXd section_jacobian(const PeriodicProblem& p, const model::System& m,
                                 const FlowRun& run, const Eigen::MatrixXd& M_C) {
  // modulo a symmetry, the return map is G⁻¹ ∘ φ_T: Q = DG⁻¹ M (M itself otherwise)
  Eigen::MatrixXd Q = M_C;
  Eigen::MatrixXd DG;
  if (p.section.modulo_symmetry) {
    DG = symmetry_jacobian(p, m, run.t0, run.x0);
    Q = DG.fullPivLu().solve(M_C);
  }
  if (p.section.kind != OrbitSectionKind::kAutonomous) return Q;
  const std::vector<int> C = p.monodromy_components();
  const auto nc = static_cast<Eigen::Index>(C.size());
  // f̃ = f(x(T)) − ν e_a in the components C, with the contact modes at the end (pulled back by
  // DG⁻¹ modulo a symmetry)
  StateVector f;
  hybrid::ConstrainedDynamics scratch;
  state_rate(m, run.t0 + run.period, run.x_end, run.result.modes, p.options.stabilization, scratch,
             f);
  Eigen::VectorXd fc(nc);
  for (Eigen::Index i = 0; i < nc; ++i) fc(i) = f(C[static_cast<std::size_t>(i)]);
  if (p.section.modulo_symmetry) fc = DG.fullPivLu().solve(fc).eval();
  const double nu = p.section.drift.empty() ? 0.0 : m.parameter(p.section.drift);
  Eigen::VectorXd ft(nc);
  Eigen::Index ia = 0;
  for (Eigen::Index i = 0; i < nc; ++i) {
    const int c = C[static_cast<std::size_t>(i)];
    ft(i) = fc(i) - (c == p.section.anchor ? nu : 0.0);
    if (c == p.section.anchor) ia = i;
  }
  const Eigen::MatrixXd DP =
      (Eigen::MatrixXd::Identity(nc, nc) - ft * Eigen::RowVectorXd::Unit(nc, ia) / ft(ia)) * Q;
  // drop row and column a: eig(DP) = {0} ∪ eig(DP_SS)
  Eigen::MatrixXd out(nc - 1, nc - 1);
  for (Eigen::Index i = 0, r = 0; i < nc; ++i) {
    if (i == ia) continue;
    for (Eigen::Index j = 0, c = 0; j < nc; ++j) {
      if (j == ia) continue;
      out(r, c++) = DP(i, j);
    }
    ++r;
  }
  return out;
}

namespace {

// the anchor's rate and the largest rate of the state at the run's end
std::pair<double, double> anchor_rate(const PeriodicProblem& p, const model::System& m,
                                      const FlowRun& run) {
  if (p.section.kind != OrbitSectionKind::kAutonomous || p.section.anchor < 0)
    return {std::numeric_limits<double>::quiet_NaN(), 0.0};
  StateVector f;
  hybrid::ConstrainedDynamics scratch;
  state_rate(m, run.t0 + run.period, run.x_end, run.result.modes, p.options.stabilization, scratch,
             f);
  const double nu = p.section.drift.empty() ? 0.0 : m.parameter(p.section.drift);
  return {f(p.section.anchor) - nu, f.cwiseAbs().maxCoeff() + std::abs(nu)};
}

}  // namespace

double section_rate(const PeriodicProblem& p, const model::System& m, const FlowRun& run) {
  return anchor_rate(p, m, run).first;
}

bool tangent_to_section(const PeriodicProblem& p, const model::System& m, const FlowRun& run,
                        double* rate) {
  const auto [r, scale] = anchor_rate(p, m, run);
  if (rate != nullptr) *rate = r;
  return std::abs(r) <= 1e-9 * (1.0 + scale);
}

}  // namespace clatter::analysis
