#include "clatter/analysis/variational.hpp"

#include <Eigen/LU>

#include <cmath>
#include <limits>

#include "clatter/contact/delassus.hpp"
#include "clatter/hybrid/impact_resolution.hpp"
#include "clatter/laws/stronge_jacobian.hpp"

namespace clatter::analysis {

namespace {

using hybrid::EventKind;
using hybrid::EventRecord;
using hybrid::Modes;

// every event of the run, and the modes at its start (the first sample)
class Log final : public hybrid::Recorder {
 public:
  void on_sample(const hybrid::Sample& s) override {
    if (!have_first) {
      first = s.modes;
      have_first = true;
    }
  }
  void on_event(const EventRecord& e) override { events.push_back(e); }
  std::vector<EventRecord> events;
  Modes first{};
  bool have_first{false};
};

double step_for(double x) { return 1e-7 * (1.0 + std::abs(x)); }

class Replay {
 public:
  Replay(const model::System& m, const hybrid::SimulationOptions& o)
      : m_(m), o_(o), n_(state_dimension(m)) {}

  void rate(double t, const StateVector& x, const Modes& modes, StateVector& out) {
    state_rate(m_, t, x, modes, o_.stabilization, scratch_, out);
  }

  // A = ∂f/∂x by central differences
  void rate_jacobian(double t, const StateVector& x, const Modes& modes, Eigen::MatrixXd& A) {
    A.resize(n_, n_);
    StateVector xp = x, fp, fm;
    for (int j = 0; j < n_; ++j) {
      const double h = step_for(x(j));
      xp(j) = x(j) + h;
      rate(t, xp, modes, fp);
      xp(j) = x(j) - h;
      rate(t, xp, modes, fm);
      xp(j) = x(j);
      A.col(j) = (fp - fm) / (2.0 * h);
    }
  }

  // RK4 for (x, Φ) from t0 to t1 in the modes
  long integrate(double t0, double t1, const Modes& modes, StateVector& x, Eigen::MatrixXd& Phi,
                 double max_step) {
    const double span = t1 - t0;
    if (!(span > 0.0)) return 0;
    if (exact_flight(modes)) {
      flight(span, x, Phi);
      return 0;
    }
    const long steps = std::max(4L, static_cast<long>(std::ceil(span / max_step)));
    const double h = span / static_cast<double>(steps);
    StateVector k1, k2, k3, k4, xs;
    Eigen::MatrixXd A, P1, P2, P3, P4;
    for (long s = 0; s < steps; ++s) {
      const double t = t0 + static_cast<double>(s) * h;
      rate(t, x, modes, k1);
      rate_jacobian(t, x, modes, A);
      P1 = A * Phi;
      xs = x + 0.5 * h * k1;
      rate(t + 0.5 * h, xs, modes, k2);
      rate_jacobian(t + 0.5 * h, xs, modes, A);
      P2 = A * (Phi + 0.5 * h * P1);
      xs = x + 0.5 * h * k2;
      rate(t + 0.5 * h, xs, modes, k3);
      rate_jacobian(t + 0.5 * h, xs, modes, A);
      P3 = A * (Phi + 0.5 * h * P2);
      xs = x + h * k3;
      rate(t + h, xs, modes, k4);
      rate_jacobian(t + h, xs, modes, A);
      P4 = A * (Phi + h * P3);
      x += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
      Phi += h / 6.0 * (P1 + 2.0 * P2 + 2.0 * P3 + P4);
    }
    return steps;
  }

  // every contact open, and the model's free flight in closed form (no auxiliary states)
  bool exact_flight(const Modes& modes) const {
    if (m_.exact_flight() == nullptr || m_.num_aux() > 0 || !o_.exact_flight) return false;
    for (int c = 0; c < m_.num_contacts(); ++c)
      if (modes[static_cast<std::size_t>(c)] != hybrid::ContactMode::kOpen) return false;
    return true;
  }

  // the closed-form flight of duration τ and its Jacobian by central differences of it (the
  // flight is polynomial or trigonometric in the state: steps 1e-6 (1 + |x_j|) leave ~1e-10)
  void flight(double tau, StateVector& x, Eigen::MatrixXd& Phi) {
    const int nq = m_.nq();
    const auto fly = [&](const StateVector& x0) {
      model::VecQ q0 = x0.head(nq), qd0 = x0.segment(nq, nq), q, qd;
      m_.exact_flight()->flight(tau, q0, qd0, q, qd);
      StateVector out(n_);
      out << q, qd;
      return out;
    };
    Eigen::MatrixXd F(n_, n_);
    for (int j = 0; j < n_; ++j) {
      const double h = 1e-6 * (1.0 + std::abs(x(j)));
      StateVector a = x, b = x;
      a(j) += h;
      b(j) -= h;
      F.col(j) = (fly(a) - fly(b)) / (2.0 * h);
    }
    x = fly(x);
    Phi = F * Phi;
  }

  // the trigger h(t, x) of the event `e` in the modes before it
  double trigger(const EventRecord& e, double t, const StateVector& x, const Modes& before) {
    model::VecQ q, qd;
    model::VecA a;
    unpack_state(m_, x, q, qd, a);
    const int c = e.contact;
    switch (e.kind) {
      case EventKind::kLiftOff:
      case EventKind::kSlipOnset: {
        hybrid::constrained_dynamics(m_, t, q, qd, a, before, o_.stabilization, scratch_);
        const Vec2 lambda = scratch_.lambda[static_cast<std::size_t>(c)];
        if (e.kind == EventKind::kLiftOff) return lambda.y();
        return m_.contact(c).mu_s * lambda.y() - std::abs(lambda.x());
      }
      case EventKind::kStick:
      case EventKind::kSlipReversal:
        m_.contact_geometry(c, t, q, qd, geometry_);
        return geometry_.v.x();
      default:
        m_.contact_geometry(c, t, q, qd, geometry_);
        return geometry_.g_N;
    }
  }

  // the composite reset of the events [first, last] at time t; false if unsupported
  bool reset(const std::vector<EventRecord>& ev, std::size_t first, std::size_t last, double t,
             StateVector& x, std::string& why) {
    model::VecQ q, qd;
    model::VecA a;
    unpack_state(m_, x, q, qd, a);
    for (std::size_t k = first; k <= last; ++k) {
      const EventRecord& e = ev[k];
      const int c = e.contact;
      switch (e.kind) {
        case EventKind::kImpact:
          if (e.other >= 0)
            (void)hybrid::apply_pair_impact(m_, t, q, qd, c, e.other, m_.contact(c).law);
          else
            (void)hybrid::apply_contact_impact(m_, t, q, qd, c, m_.contact(c).law);
          break;
        case EventKind::kClosure: {
          if (std::isfinite(e.t_accumulation) && e.t_accumulation > e.t + 1e-12) {
            why = "a predicted chatter";
            return false;
          }
          m_.contact_geometry(c, t, q, qd, geometry_);
          if (geometry_.v.y() < 0.0) {
            LawChoice plastic = m_.contact(c).law;
            plastic.params.e = 0.0;
            (void)hybrid::apply_contact_impact(m_, t, q, qd, c, plastic);
          } else {  // the engine's projection of a slow departure onto v_N = 0
            m_.factor_mass(t, q, mass_);
            model::VecQ MinvJN;
            Eigen::Matrix<double, 1, 1> C;  // W_NN = J_N M⁻¹ J_Nᵀ
            delassus(mass_, geometry_.J.row(1), MinvJN, C);
            qd += MinvJN * (-geometry_.v.y() / C(0, 0));
          }
          break;
        }
        case EventKind::kSymmetric: {
          int j = -1;
          for (std::size_t l = k + 1; l <= last; ++l)
            if (ev[l].kind == EventKind::kImpact && ev[l].other >= 0) j = ev[l].other;
          if (j < 0 || m_.symmetry() == nullptr) {
            why = "a symmetric levelling without its pair impact";
            return false;
          }
          (void)m_.symmetry()->level(c, j, t, q, qd);
          break;
        }
        case EventKind::kLiftOff:
        case EventKind::kStick:
        case EventKind::kSlipReversal:
        case EventKind::kSlipOnset:
          break;
        default:
          why = std::string("an event of kind ") + hybrid::to_string(e.kind);
          return false;
      }
    }
    x = pack_state(m_, q, qd, a);
    return true;
  }

  // a single impact under Stronge's closed form: the q̇ columns of G from the law's exact
  // Jacobian (laws/stronge_jacobian.hpp) in the region of the impact,
  //   ∂q̇⁺/∂q̇ = I + M⁻¹Jᵀ W⁻¹ (∂v⁺/∂v⁻ − I) J      (v⁻ = J q̇ − w, Λ = W⁻¹(v⁺ − v⁻))
  // (the q columns, through J(q), M(q) and w, stay differences)
  void stronge_velocity_block(const std::vector<EventRecord>& ev, std::size_t first,
                              std::size_t last, double t, const StateVector& xm,
                              Eigen::MatrixXd& G) {
    const EventRecord& e = ev[first];
    if (first != last || e.kind != EventKind::kImpact || e.other >= 0 || e.region < 0) return;
    const LawChoice& law = m_.contact(e.contact).law;
    if (law.kind != LawKind::kStronge) return;
    model::VecQ q, qd;
    model::VecA a;
    unpack_state(m_, xm, q, qd, a);
    m_.factor_mass(t, q, mass_);
    m_.contact_geometry(e.contact, t, q, qd, geometry_);
    const int nq = m_.nq();
    Eigen::MatrixXd J(2, nq), MinvJT(nq, 2);
    J = geometry_.J;
    Eigen::Matrix2d W;
    delassus(mass_, J, MinvJT, W);
    if (!(W.determinant() > 1e-12 * W.cwiseAbs().maxCoeff() * W.cwiseAbs().maxCoeff())) return;
    const ContactMatrix Wc{W(0, 0), W(0, 1), W(1, 1)};
    const StrongeJacobian law_J = stronge_jacobian({geometry_.v, Wc}, law.params, e.region);
    const Eigen::MatrixXd block =
        Eigen::MatrixXd::Identity(nq, nq) +
        MinvJT * W.inverse() * (law_J.d_v - Eigen::Matrix2d::Identity()) * J;
    G.block(nq, nq, nq, nq) = block;
  }

  // the saltation matrix of the events [first, last]
  bool saltation(const std::vector<EventRecord>& ev, std::size_t first, std::size_t last,
                 const Modes& before, const Modes& after, Eigen::MatrixXd& S, std::string& why) {
    const EventRecord& e0 = ev[first];
    const double t = e0.t;
    const StateVector xm = pack_state(m_, e0.q, e0.qd_pre, e0.aux);
    StateVector xp = xm;
    if (!reset(ev, first, last, t, xp, why)) return false;
    StateVector fm, fp;
    rate(t, xm, before, fm);
    rate(t, xp, after, fp);
    Eigen::MatrixXd G(n_, n_);
    Eigen::RowVectorXd hx(n_);
    for (int j = 0; j < n_; ++j) {
      const double h = step_for(xm(j));
      StateVector a = xm, b = xm;
      a(j) += h;
      b(j) -= h;
      hx(j) = (trigger(e0, t, a, before) - trigger(e0, t, b, before)) / (2.0 * h);
      if (!reset(ev, first, last, t, a, why) || !reset(ev, first, last, t, b, why)) return false;
      G.col(j) = (a - b) / (2.0 * h);
    }
    stronge_velocity_block(ev, first, last, t, xm, G);
    const double ht = step_for(t);
    StateVector ra = xm, rb = xm;
    if (!reset(ev, first, last, t + ht, ra, why) || !reset(ev, first, last, t - ht, rb, why))
      return false;
    const StateVector Rt = (ra - rb) / (2.0 * ht);
    const double h_t =
        (trigger(e0, t + ht, xm, before) - trigger(e0, t - ht, xm, before)) / (2.0 * ht);
    const double denominator = hx.dot(fm) + h_t;
    const double scale = hx.cwiseAbs().dot(fm.cwiseAbs()) + std::abs(h_t);
    if (!(std::abs(denominator) > 1e-9 * scale) || !std::isfinite(denominator)) {
      why = "a grazing event (the trigger's rate h_x f + h_t vanishes)";
      return false;
    }
    S = G + (fp - G * fm - Rt) * hx / denominator;
    return true;
  }

 private:
  const model::System& m_;
  const hybrid::SimulationOptions& o_;
  int n_;
  hybrid::ConstrainedDynamics scratch_;
  model::ContactGeometry geometry_;
  model::MassFactor mass_;
};

}  // namespace

namespace {

// The start's own map, linearized: project_onto_closed (periodic_problem.hpp).
StateVector started(const model::System& m, double t, const StateVector& x, const Modes& modes) {
  return project_onto_closed(m, t, x, modes);
}

// P₀ = ∂(started)/∂x₀ by central differences (exact in q̇, where the projection is linear)
Eigen::MatrixXd start_jacobian(const model::System& m, double t, const StateVector& x0,
                               const Modes& modes) {
  const auto n = x0.size();
  Eigen::MatrixXd P(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double h = 1e-7 * (1.0 + std::abs(x0(j)));
    StateVector up = x0, down = x0;
    up(j) += h;
    down(j) -= h;
    P.col(j) = (started(m, t, up, modes) - started(m, t, down, modes)) / (2.0 * h);
  }
  return P;
}

}  // namespace

VariationalMonodromy monodromy_variational(const model::System& m, const hybrid::InitialState& init,
                                           const hybrid::SimulationOptions& options,
                                           const VariationalOptions& vo) {
  VariationalMonodromy out;
  hybrid::SimulationOptions o = options;
  o.record_events = true;
  o.output_dt = o.t_end - init.t;  // samples at t₀ (the starting modes) and t_end
  Log log;
  const hybrid::SimulationResult r = hybrid::simulate(m, init, o, &log);
  if (r.reason != hybrid::StopReason::kEndTime) {
    out.message = std::string("the run stopped early: ") + r.message;
    return out;
  }
  Replay replay(m, o);
  Modes modes = log.first;
  const StateVector x_init = pack_state(m, init.q, init.qd, init.aux);
  Eigen::MatrixXd Phi = start_jacobian(m, init.t, x_init, modes);
  StateVector x = started(m, init.t, x_init, modes);
  double t = init.t;
  const std::vector<EventRecord>& ev = log.events;
  std::size_t i = 0;
  while (i < ev.size()) {
    const double te = ev[i].t;
    std::size_t j = i;
    while (j + 1 < ev.size() && std::abs(ev[j + 1].t - te) <= 1e-12 * (1.0 + std::abs(te))) ++j;
    if (ev[i].kind == EventKind::kParameterChange) {
      out.message = "a scheduled parameter change at t = " + std::to_string(te);
      return out;
    }
    out.steps += replay.integrate(t, te, modes, x, Phi, vo.max_step);
    const StateVector xm = pack_state(m, ev[i].q, ev[i].qd_pre, ev[i].aux);
    if (((x - xm).array().abs() > vo.replay_tol * (1.0 + xm.array().abs())).any()) {
      out.message =
          "the re-integrated state left the engine's before the event at t = " + std::to_string(te);
      return out;
    }
    // the modes after the event group: its last record's, except that a contact listed closed
    // but leaving its obstacle after the reset (v_N⁺ > 0: the trailing stance of an impact on
    // another contact) is open, as the engine's next mode decision finds it
    const Modes after =
        settled_modes(m, te, pack_state(m, ev[j].q, ev[j].qd_post, ev[j].aux), ev[j].modes);
    Eigen::MatrixXd S;
    std::string why;
    if (!replay.saltation(ev, i, j, modes, after, S, why)) {
      out.message = "unsupported event at t = " + std::to_string(te) + ": " + why;
      return out;
    }
    if (vo.record_events) out.before_events.push_back({ev[i], modes, Phi});
    Phi = S * Phi;
    out.events.push_back(ev[i].kind);
    x = pack_state(m, ev[j].q, ev[j].qd_post, ev[j].aux);
    modes = after;
    t = te;
    i = j + 1;
  }
  out.steps += replay.integrate(t, o.t_end, modes, x, Phi, vo.max_step);
  out.M = Phi;
  out.ok = true;
  return out;
}

VariationalMonodromy monodromy_variational(const PeriodicProblem& p, const model::System& m,
                                           const Eigen::VectorXd& u, Eigen::MatrixXd& M_C,
                                           const VariationalOptions& vo) {
  double t0 = 0.0, T = 0.0;
  start_and_period(p, m, u, t0, T);
  hybrid::SimulationOptions o = p.options;
  o.t_end = t0 + T;
  VariationalMonodromy v = monodromy_variational(m, initial_state(p, m, u), o, vo);
  if (!v.ok) return v;
  const std::vector<int> C = p.monodromy_components();
  const auto nc = static_cast<Eigen::Index>(C.size());
  M_C.resize(nc, nc);
  for (Eigen::Index i = 0; i < nc; ++i)
    for (Eigen::Index j = 0; j < nc; ++j)
      M_C(i, j) = v.M(C[static_cast<std::size_t>(i)], C[static_cast<std::size_t>(j)]);
  return v;
}

}  // namespace clatter::analysis
