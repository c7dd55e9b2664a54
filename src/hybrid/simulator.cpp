#include "clatter/hybrid/simulator.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "clatter/hybrid/chatter.hpp"
#include "clatter/hybrid/impact_resolution.hpp"
#include "clatter/hybrid/simultaneous_impact.hpp"
#include "clatter/integrate/dense_stepper.hpp"
#include "clatter/integrate/event_locator.hpp"
#include "clatter/integrate/root_finding.hpp"

namespace clatter::hybrid {

const char* to_string(StopReason r) {
  switch (r) {
    case StopReason::kEndTime:
      return "end_time";
    case StopReason::kMaxEvents:
      return "max_events";
    case StopReason::kZeno:
      return "zeno";
    case StopReason::kPainleve:
      return "painleve";
    case StopReason::kEventLocation:
      return "event_location";
    case StopReason::kNonFinite:
      return "non_finite";
  }
  return "unknown";
}

namespace {

using dynamics::kMaxContacts;
using dynamics::PlanarBodyModel;
using integrate::RootKind;
using integrate::ValueSlope;

// Runge–Kutta state: q, q̇, surface work, friction loss
constexpr std::size_t kN = 8;
using State = std::array<double, kN>;
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// event functions of a Runge–Kutta phase
enum class Fn : std::uint8_t { kGap, kLiftOff, kSlideEnd, kSlipOnset, kPainleve, kChatterEnd };
struct FnSpec {
  Fn fn{Fn::kGap};
  int contact{0};
};
constexpr std::size_t kMaxFn = 4 * kMaxContacts;

// a contact or a pair of contacts sharing one impulse equally (symmetric reduction)
struct Group {
  int c{-1};
  int j{-1};
};

class Run {
 public:
  Run(const PlanarBodyModel& model, const InitialState& init, const SimulationOptions& options,
      Recorder* recorder)
      : m_(model),
        o_(options),
        rec_(recorder),
        t_(init.t),
        q_(init.q),
        qd_(init.qd),
        stepper_(options.abs_tol, options.rel_tol, options.max_dt) {
    modes_.fill(ContactMode::kOpen);
    released_.fill(false);
    chatter_end_.fill(kNaN);
    const double weight = model.body().m * (model.gravity() + model.surface().hddot_max());
    lambda_tol_ = 1e-9 * std::max(weight, 1e-300);
    next_sample_ = o_.output_dt > 0.0 ? t_ : std::numeric_limits<double>::infinity();
    zeno_ring_.assign(static_cast<std::size_t>(o_.zeno_events),
                      -std::numeric_limits<double>::infinity());
  }

  SimulationResult execute();

 private:
  // --- phases ---
  void flight_phase();
  void ode_phase();
  void dispatch(const FnSpec& fn, RootKind kind);

  // --- impacts and modes ---
  void handle_impact(int c);
  bool multipoint_impact(const std::array<bool, kMaxContacts>& touching);
  void assign_touching_modes(const std::array<bool, kMaxContacts>& touching);
  void handle_graze(int c);
  bool chatter_closes(const Group& g, const Vec3& qd_pre, const ContactImpact& bounce,
                      double& t_accumulation);
  // impacts use the contact geometry cached at the event (J, r, g_N at (t, q)): velocities are
  // J q̇ − (u, ḣ) for any q̇, without recomputing the kinematics
  ContactImpact group_impact(const Group& g, Vec3& qd, const LawChoice& law) const;
  void cache_geometry();
  [[nodiscard]] Vec2 velocity(int c, const Vec3& qd) const {
    return geometry_[idx(c)].J * qd - v_surface_;
  }
  double group_free_acceleration(const Group& g, double t, const Vec3& q, const Vec3& qd,
                                 Modes modes) const;
  void set_group_mode(const Group& g, const Vec3& qd, Modes& modes) const;
  ContactMode closed_mode(int c, const Vec3& qd, const Modes& modes) const;
  int symmetric_partner(int c) const;
  void level_pair(int c, int j);
  void decide_modes();
  bool resolve_painleve(int c, double k_N);
  void project_closed(int at_rest = -1);

  // --- bookkeeping ---
  void record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                     double t_accumulation = 0.0);
  void record(EventKind kind, int c, const Vec2& v_pre = Vec2::Zero(),
              const Vec2& v_post = Vec2::Zero());
  bool count_event();
  void stop(StopReason r, std::string message) {
    if (stopped_) return;
    stopped_ = true;
    res_.reason = r;
    res_.message = std::move(message);
  }
  void emit_sample(double t, const Vec3& q, const Vec3& qd);
  [[nodiscard]] double energy() const { return m_.kinetic_energy(qd_) + m_.potential_energy(q_); }
  [[nodiscard]] bool all_open() const {
    for (int c = 0; c < m_.num_contacts(); ++c)
      if (is_closed(modes_[idx(c)])) return false;
    return true;
  }
  [[nodiscard]] double gap_tol(int c, const Vec3& q) const {
    return 1e-12 * (1.0 + m_.gap_scale(c, q));
  }
  [[nodiscard]] double velocity_tol() const {
    return 1e-12 *
           (1.0 + qd_.head<2>().norm() + std::abs(m_.surface().amplitude * m_.surface().omega));
  }
  [[nodiscard]] const std::string& name(int c) const { return m_.feature(c).name; }
  static std::size_t idx(int c) { return static_cast<std::size_t>(c); }

  const PlanarBodyModel& m_;
  const SimulationOptions& o_;
  Recorder* rec_;
  double t_;
  Vec3 q_, qd_;
  Modes modes_{};
  std::array<bool, kMaxContacts> released_{};
  std::array<double, kMaxContacts> chatter_end_{};
  std::array<dynamics::ContactKinematics, kMaxContacts> geometry_{};
  Vec2 v_surface_{Vec2::Zero()};
  EnergyLedger L_{};
  SimulationResult res_{};
  bool stopped_{false};
  double next_sample_{0.0};
  double lambda_tol_{0.0};
  std::vector<double> zeno_ring_;
  std::size_t zeno_pos_{0};
  integrate::DenseStepper<kN> stepper_;
};

// ---------------------------------------------------------------------------------------------
// bookkeeping

void Run::emit_sample(double t, const Vec3& q, const Vec3& qd) {
  if (!rec_) return;
  Sample s;
  s.t = t;
  s.q = q;
  s.qd = qd;
  s.modes = modes_;
  s.energy = m_.kinetic_energy(qd) + m_.potential_energy(q);
  rec_->on_sample(s);
}

bool Run::count_event() {
  ++res_.events;
  if (res_.events >= o_.max_events) {
    stop(StopReason::kMaxEvents, "stopped after max_events = " + std::to_string(o_.max_events) +
                                     " events at t = " + format_number(t_));
    return false;
  }
  // Zeno guard: the oldest of the last zeno_events event times
  const double oldest = zeno_ring_[zeno_pos_];
  zeno_ring_[zeno_pos_] = t_;
  zeno_pos_ = (zeno_pos_ + 1) % zeno_ring_.size();
  if (t_ - oldest < o_.zeno_window) {
    stop(StopReason::kZeno,
         std::to_string(o_.zeno_events) + " events within " + format_number(o_.zeno_window) +
             " s before t = " + format_number(t_) + " (accumulation not resolved)");
    return false;
  }
  return true;
}

void Run::record(EventKind kind, int c, const Vec2& v_pre, const Vec2& v_post) {
  if (!rec_ || !o_.record_events) return;
  EventRecord e;
  e.t = t_;
  e.kind = kind;
  e.contact = c;
  e.mode_after = c >= 0 ? modes_[idx(c)] : ContactMode::kOpen;
  e.q = q_;
  e.qd_pre = qd_;
  e.qd_post = qd_;
  e.v_pre = v_pre;
  e.v_post = v_post;
  e.energy = energy();
  rec_->on_event(e);
}

void Run::record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                        double t_accumulation) {
  if (kind == EventKind::kImpact) ++res_.impacts;
  L_.impact_loss -= r.outcome.delta_energy;
  L_.surface_work += r.surface_work;
  if (!rec_ || !o_.record_events) return;
  EventRecord e;
  e.t = t_;
  e.kind = kind;
  e.contact = g.c;
  e.other = g.j;
  e.mode_after = modes_[idx(g.c)];
  e.q = q_;
  e.qd_pre = r.qd_pre;
  e.qd_post = qd_;
  e.region = r.outcome.region;
  e.brach_case = r.outcome.brach_case;
  e.status = r.outcome.status;
  e.v_pre = r.v_pre;
  e.v_post = r.outcome.v_post;
  e.Lambda = r.outcome.Lambda;
  e.delta_energy = r.outcome.delta_energy;
  e.energy = energy();
  e.t_accumulation = t_accumulation;
  rec_->on_event(e);
}

// ---------------------------------------------------------------------------------------------
// modes

ContactMode Run::closed_mode(int c, const Vec3& qd, const Modes& modes) const {
  const dynamics::ContactKinematics k = m_.contact(c, t_, q_, qd);
  if (std::abs(k.v.x()) > velocity_tol()) return sliding_mode(k.v.x());
  Modes trial = modes;
  trial[idx(c)] = ContactMode::kStick;
  const ConstrainedDynamics cd = constrained_dynamics(m_, t_, q_, qd, trial, o_.stabilization);
  const Vec2 lam = cd.lambda[idx(c)];
  const double mu = m_.feature(c).law.params.mu;
  if (std::abs(lam.x()) <= mu * std::max(lam.y(), 0.0) + lambda_tol_) return ContactMode::kStick;
  return sliding_mode(-lam.x());
}

void Run::decide_modes() {
  const int n = m_.num_contacts();
  if (all_open()) return;  // nothing to decide
  for (int iter = 0; iter < 4 * kMaxContacts; ++iter) {
    const ConstrainedDynamics cd = constrained_dynamics(m_, t_, q_, qd_, modes_, o_.stabilization);
    if (cd.painleve_contact >= 0) {
      // a sliding contact with k_N ≤ 0: its λ_N has the wrong sign or is not unique, so neither
      // lift-off nor sliding can be decided (Painlevé); reported, and resolved by an impact
      // without collision if the policy says so and it is the only closed contact
      const int c = cd.painleve_contact;
      record(EventKind::kPainleve, c);
      if (o_.painleve == PainlevePolicy::kImpactWithoutCollision &&
          resolve_painleve(c, cd.painleve_k_N))
        continue;
      stop(StopReason::kPainleve, "contact " + name(c) +
                                      " slides with k_N = " + format_number(cd.painleve_k_N) +
                                      " <= 0 at t = " + format_number(t_) +
                                      " (Painleve: no unique consistent contact force)");
      return;
    }
    bool changed = false;
    for (int c = 0; c < n && !changed; ++c) {
      const ContactMode mode = modes_[idx(c)];
      if (!is_closed(mode)) continue;
      const Vec2 lam = cd.lambda[idx(c)];
      if (lam.y() < -lambda_tol_) {
        project_closed();
        modes_[idx(c)] = ContactMode::kOpen;
        released_[idx(c)] = true;
        chatter_end_[idx(c)] = kNaN;
        record(EventKind::kLiftOff, c);
        changed = true;
      } else if (mode == ContactMode::kStick &&
                 std::abs(lam.x()) > m_.feature(c).law.params.mu * lam.y() + lambda_tol_) {
        modes_[idx(c)] = sliding_mode(-lam.x());
        record(EventKind::kSlipOnset, c);
        changed = true;
      }
    }
    if (!changed) return;
  }
}

bool Run::resolve_painleve(int c, double k_N) {
  for (int j = 0; j < m_.num_contacts(); ++j)
    if (j != c && is_closed(modes_[idx(j)])) return false;
  if (!(k_N < 0.0)) return false;
  project_closed();
  cache_geometry();
  const Eigen::Matrix<double, 2, 3>& J = geometry_[idx(c)].J;
  if (J.row(0).dot(qd_) - v_surface_.x() == 0.0) return false;
  Vec3 qd = qd_;
  const ContactImpact r = apply_impact_without_collision(m_, t_, qd, J, m_.feature(c).law.params);
  qd_ = qd;
  modes_[idx(c)] = ContactMode::kOpen;
  released_[idx(c)] = true;
  chatter_end_[idx(c)] = kNaN;
  record_impact(Group{c, -1}, r, EventKind::kImpactWithoutCollision, kNaN);
  return true;
}

// Closed contacts start exactly on their constraint: the gaps are projected to 0, and the
// velocity (in the metric of M) onto v_N = 0 for every closed contact and v_T = 0 for every
// sticking one (and for `at_rest`, a contact whose slip has just stopped or started), all at once.
// The velocity projection never adds kinetic energy; what it removes (residuals of an event
// sequence, normally below 1e-6 m/s) is booked as impact loss.
void Run::project_closed(int at_rest) {
  const int n = m_.num_contacts();
  constexpr int kMaxRows = 2 * kMaxContacts;
  Eigen::Matrix<double, Eigen::Dynamic, 3, 0, kMaxRows, 3> G(0, 3);
  Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRows, 1> v(0), w(0);
  const dynamics::Surface& s = m_.surface();
  const Vec2 v_surface{s.u(t_), s.hdot(t_)};
  int k = 0;
  for (int c = 0; c < n; ++c) {
    const ContactMode mode = modes_[idx(c)];
    if (!is_closed(mode)) continue;
    const dynamics::ContactKinematics kin = m_.contact(c, t_, q_, qd_);
    for (int row = mode == ContactMode::kStick || c == at_rest ? 0 : 1; row < 2; ++row) {
      G.conservativeResize(k + 1, 3);
      v.conservativeResize(k + 1);
      w.conservativeResize(k + 1);
      G.row(k) = kin.J.row(row);
      v(k) = kin.v(row);
      w(k) = v_surface(row);
      ++k;
    }
  }
  if (k == 0) return;
  // positions first: closed contacts that touched within the touching tolerance (≲ 1e-9 m) are
  // moved onto the surface (one linearized step along M⁻¹J_Nᵀ; the potential-energy change is
  // booked as a reset)
  {
    Eigen::Matrix<double, Eigen::Dynamic, 3, 0, kMaxContacts, 3> GN(0, 3);
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxContacts, 1> gap(0);
    int kn = 0;
    for (int c = 0; c < n; ++c) {
      if (!is_closed(modes_[idx(c)])) continue;
      const dynamics::ContactKinematics kin = m_.contact(c, t_, q_, qd_);
      GN.conservativeResize(kn + 1, 3);
      gap.conservativeResize(kn + 1);
      GN.row(kn) = kin.J.row(1);
      gap(kn) = kin.g_N;
      ++kn;
    }
    if (gap.cwiseAbs().maxCoeff() > 0.0) {
      Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxContacts> MinvGNt(3, kn);
      for (int r = 0; r < kn; ++r) MinvGNt.col(r) = m_.solve_mass(GN.row(r).transpose());
      const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxContacts, kMaxContacts>
          AN = GN * MinvGNt;
      const double V_before = m_.potential_energy(q_);
      q_ += MinvGNt * AN.completeOrthogonalDecomposition().solve(-gap);
      L_.reset += m_.potential_energy(q_) - V_before;
      // the Jacobian rows of the velocity projection at the corrected pose
      k = 0;
      for (int c = 0; c < n; ++c) {
        const ContactMode mode = modes_[idx(c)];
        if (!is_closed(mode)) continue;
        const dynamics::ContactKinematics kin = m_.contact(c, t_, q_, qd_);
        for (int row = mode == ContactMode::kStick || c == at_rest ? 0 : 1; row < 2; ++row) {
          G.row(k) = kin.J.row(row);
          v(k) = kin.v(row);
          ++k;
        }
      }
    }
  }
  if (v.cwiseAbs().maxCoeff() == 0.0) return;
  Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxRows> MinvGt(3, k);
  for (int r = 0; r < k; ++r) MinvGt.col(r) = m_.solve_mass(G.row(r).transpose());
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxRows> A = G * MinvGt;
  const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxRows, 1> lambda =
      A.completeOrthogonalDecomposition().solve(-v);
  const double T_before = m_.kinetic_energy(qd_);
  qd_ += MinvGt * lambda;
  const double surface_work = lambda.dot(w);
  L_.surface_work += surface_work;
  L_.impact_loss += surface_work - (m_.kinetic_energy(qd_) - T_before);
}

int Run::symmetric_partner(int c) const {
  int best = -1;
  double best_d = o_.theta_crit;
  for (int j = 0; j < m_.num_contacts(); ++j) {
    if (j == c) continue;
    const double d = std::abs(m_.level_angle(c, j, q_.z()) - q_.z());
    if (d <= best_d) {
      best_d = d;
      best = j;
    }
  }
  return best;
}

// level the body about the contact point of c so that c and j touch together; stop the spin
void Run::level_pair(int c, int j) {
  const double e_before = energy();
  const dynamics::ContactKinematics k = m_.contact(c, t_, q_, qd_);
  const Vec2 P{q_.x() + k.r.x(), q_.y() + k.r.y()};
  const double theta_before = q_.z();
  q_.z() = m_.level_angle(c, j, q_.z());
  const dynamics::ContactKinematics k2 = m_.contact(c, t_, q_, qd_);
  q_.x() = P.x() - k2.r.x();
  q_.y() = P.y() - k2.r.y();
  const bool changed = qd_.z() != 0.0 || q_.z() != theta_before;
  qd_.z() = 0.0;
  L_.reset += energy() - e_before;
  if (changed) record(EventKind::kSymmetric, c);
}

ContactImpact Run::group_impact(const Group& g, Vec3& qd, const LawChoice& law) const {
  const Eigen::Matrix<double, 2, 3>& Jc = geometry_[idx(g.c)].J;
  return g.j < 0 ? apply_impact(m_, t_, qd, Jc, law)
                 : apply_impact(m_, t_, qd, 0.5 * (Jc + geometry_[idx(g.j)].J), law);
}

void Run::cache_geometry() {
  for (int c = 0; c < m_.num_contacts(); ++c) geometry_[idx(c)] = m_.contact(c, t_, q_, qd_);
  const dynamics::Surface& s = m_.surface();
  v_surface_ = {s.u(t_), s.hdot(t_)};
}

double Run::group_free_acceleration(const Group& g, double t, const Vec3& q, const Vec3& qd,
                                    Modes modes) const {
  modes[idx(g.c)] = ContactMode::kOpen;
  if (g.j >= 0) modes[idx(g.j)] = ContactMode::kOpen;
  bool all_open = true;
  for (int c = 0; c < m_.num_contacts(); ++c) all_open = all_open && !is_closed(modes[idx(c)]);
  if (all_open) {
    // free flight: a_N = J_N M⁻¹ f + γ_N, no forces to solve for
    const Vec3 qdd = m_.solve_mass(m_.applied_forces());
    const auto a_N = [&](int c) {
      const dynamics::ContactKinematics k = m_.contact(c, t, q, qd);
      return k.J.row(1).dot(qdd) + k.gamma.y();
    };
    return g.j < 0 ? a_N(g.c) : 0.5 * (a_N(g.c) + a_N(g.j));
  }
  const ConstrainedDynamics cd = constrained_dynamics(m_, t, q, qd, modes, o_.stabilization);
  return g.j < 0 ? cd.accel[idx(g.c)].y() : 0.5 * (cd.accel[idx(g.c)].y() + cd.accel[idx(g.j)].y());
}

void Run::set_group_mode(const Group& g, const Vec3& qd, Modes& modes) const {
  modes[idx(g.c)] = closed_mode(g.c, qd, modes);
  if (g.j >= 0) modes[idx(g.j)] = closed_mode(g.j, qd, modes);
}

// Decides whether the bounce `bounce` (already applied to qd_) ends a complete chatter: by the
// V_tol rule, or by the accumulation-point prediction. If so, qd_ becomes the plastic
// post-impact velocity and the group is closed.
bool Run::chatter_closes(const Group& g, const Vec3& qd_pre, const ContactImpact& bounce,
                         double& t_accumulation) {
  const double v_pre = bounce.v_pre.y();
  const double v_post = bounce.outcome.v_post.y();
  LawChoice plastic = m_.feature(g.c).law;
  plastic.params.e = 0.0;
  if (o_.chatter == ChatterPolicy::kCutoff && !(std::abs(v_pre) < o_.v_tol)) return false;
  Vec3 qd_c = qd_pre;
  (void)group_impact(g, qd_c, plastic);
  const double a0 = group_free_acceleration(g, t_, q_, qd_c, modes_);
  if (!(a0 < 0.0)) return false;  // the free motion leaves the surface: no chatter
  if (o_.chatter == ChatterPolicy::kAccumulation) {
    // quick rejection: the free acceleration varies at the rates of the surface and the spin,
    // b ≈ α Ω, and the expansion needs ε₁ = |b| Δt₁/α < 0.1 (chatter.hpp)
    const dynamics::Surface& s = m_.surface();
    const double Omega = s.omega + s.belt_omega + std::abs(qd_c.z());
    const double e = v_post / -v_pre;
    if (e < 1.0 && Omega * 2.0 * v_post / (-a0 * (1.0 - e)) > 0.1) return false;
  }
  Modes modes_c = modes_;
  set_group_mode(g, qd_c, modes_c);
  if (o_.chatter == ChatterPolicy::kCutoff) {
    t_accumulation = t_;
  } else {
    // a′ and a″ of the free acceleration along the sustained-contact motion (central differences
    // along its tangent; the O(δ²) error is far below what the prediction needs)
    const ConstrainedDynamics cd =
        constrained_dynamics(m_, t_, q_, qd_c, modes_c, o_.stabilization);
    const double delta = 1e-4;
    const Vec3 dq = delta * qd_c;
    const Vec3 dqd = delta * cd.qdd;
    const double a_plus = group_free_acceleration(g, t_ + delta, q_ + dq, qd_c + dqd, modes_);
    const double a_minus = group_free_acceleration(g, t_ - delta, q_ - dq, qd_c - dqd, modes_);
    const double b = (a_plus - a_minus) / (2.0 * delta);
    const double c2 = (a_plus - 2.0 * a0 + a_minus) / (delta * delta);
    const double e = v_post / -v_pre;
    const ChatterPrediction p = predict_chatter(v_post, e, -a0, b, c2, o_.chatter_tol);
    if (!p.accept) return false;
    t_accumulation = t_ + p.duration;
  }
  // replace the bounce by a plastic impact
  qd_ = qd_pre;
  const ContactImpact r = group_impact(g, qd_, plastic);
  modes_ = modes_c;
  // the cut-off ends the chatter now; a predicted accumulation point is marked when reached
  chatter_end_[idx(g.c)] = o_.chatter == ChatterPolicy::kAccumulation ? t_accumulation : kNaN;
  if (g.j >= 0) chatter_end_[idx(g.j)] = kNaN;
  ++res_.chatter_sequences;
  record_impact(g, r, EventKind::kClosure, t_accumulation);
  return true;
}

void Run::handle_impact(int c) {
  const int n = m_.num_contacts();
  cache_geometry();
  // contacts touching the surface now (closed ones included)
  std::array<bool, kMaxContacts> touching{};
  for (int j = 0; j < n; ++j) {
    touching[idx(j)] =
        j == c || is_closed(modes_[idx(j)]) || geometry_[idx(j)].g_N <= 1e3 * gap_tol(j, q_);
  }
  const double v_eps = velocity_tol();

  Group g{c, -1};
  if (o_.two_contact == TwoContactRule::kSymmetric) {
    const int j = symmetric_partner(c);
    if (j >= 0 && (touching[idx(j)] ||
                   geometry_[idx(j)].g_N <= 2.0 * o_.theta_crit * m_.feature(j).c_B.norm())) {
      // the seeds' rule VII: level whenever θ is within θ_crit at an impact
      level_pair(c, j);
      cache_geometry();
      g.j = j;
      touching[idx(j)] = true;
    }
  }

  bool energetic = true;  // the multi-point law generalizes Stronge's
  for (int j = 0; j < n; ++j) {
    const LawKind law = m_.feature(j).law.kind;
    if (touching[idx(j)] && law != LawKind::kStronge && law != LawKind::kStrongeMarcher)
      energetic = false;
  }
  if (o_.two_contact == TwoContactRule::kMultipoint && energetic) {
    int n_touching = 0;
    double v_min = 0.0;
    double v_max = 0.0;
    for (int j = 0; j < n; ++j) {
      if (!touching[idx(j)]) continue;
      ++n_touching;
      const Vec2 v = velocity(j, qd_);
      v_min = std::min(v_min, v.y());
      v_max = std::max(v_max, v.norm());
    }
    // the multi-point solver's own approach tolerance is relative (1e-9 of the largest velocity)
    const bool approach = v_min < -std::max(v_eps, 1e-8 * v_max);
    if (n_touching >= 2 && approach && multipoint_impact(touching)) return;
    if (n_touching == 2 && g.j < 0) {
      // the solver fails on some nearly symmetric configurations (a flat body tilted by ~1e-13,
      // where its slip-state system is numerically singular); its answer there is the symmetric
      // one, equal impulses at both contacts, which the pair impact gives
      int j = -1;
      for (int k2 = 0; k2 < n; ++k2)
        if (touching[idx(k2)] && k2 != c) j = k2;
      const Vec2 vc = velocity(c, qd_);
      const Vec2 vj = velocity(j, qd_);
      if ((vc - vj).norm() <= 1e-6 * std::max(vc.norm(), vj.norm())) g.j = j;
    }
  }

  const Vec3 qd_pre = qd_;
  const auto group_velocity = [&]() {
    const Vec2 v = velocity(g.c, qd_);
    return g.j < 0 ? v : 0.5 * (v + velocity(g.j, qd_));
  };
  if (!(group_velocity().y() < -v_eps)) {
    handle_graze(c);
    return;
  }
  ContactImpact first = group_impact(g, qd_, m_.feature(c).law);
  bool others = false;
  for (int j = 0; j < n; ++j) {
    if (j != g.c && j != g.j && touching[idx(j)] && velocity(j, qd_).y() < -v_eps) others = true;
  }

  if (!others) {
    // a single contact (or pair): the bounce, or the end of a chatter
    double t_acc = 0.0;
    if (first.outcome.v_post.y() > v_eps) {
      modes_[idx(g.c)] = ContactMode::kOpen;
      if (g.j >= 0) modes_[idx(g.j)] = ContactMode::kOpen;
      if (chatter_closes(g, qd_pre, first, t_acc)) {
        decide_modes();
        project_closed();
        count_event();
        return;
      }
      released_[idx(g.c)] = false;
      if (g.j >= 0) released_[idx(g.j)] = false;
      record_impact(g, first, EventKind::kImpact);
    } else {
      set_group_mode(g, qd_, modes_);
      record_impact(g, first, EventKind::kImpact);
    }
  } else {
    // several contacts at once: sequential single-contact impacts, most approaching first
    record_impact(g, first, EventKind::kImpact);
    if (!count_event()) return;
    for (int pass = 0; pass < 64; ++pass) {
      int worst = -1;
      double v_worst = -v_eps;
      for (int j = 0; j < n; ++j) {
        if (!touching[idx(j)]) continue;
        const double v = velocity(j, qd_).y();
        if (v < v_worst) {
          v_worst = v;
          worst = j;
        }
      }
      if (worst < 0) break;
      const Group gj{worst, -1};
      const ContactImpact r = group_impact(gj, qd_, m_.feature(worst).law);
      record_impact(gj, r, EventKind::kImpact);
      if (!count_event()) return;
    }
  }
  assign_touching_modes(touching);
  count_event();
}

// modes of the touching contacts after an impact: leaving ones open, the others closed
void Run::assign_touching_modes(const std::array<bool, kMaxContacts>& touching) {
  const double v_eps = velocity_tol();
  // a contact leaving slower than the resolution of the motion into a free acceleration a < 0
  // that brings it back would chatter below round-off: it is closed (the projection below removes
  // its velocity). One contact: below 1e5 v_eps (a bounce of ~1e-14 m; its chatter above that is
  // ended by the accumulation prediction). Several touching contacts chatter alternately, which
  // no prediction ends: a bounce v²/(2|a|) that cannot rise above the gap tolerance is closed
  // (two corners of a settling block kept such a chatter at ~2e-7 m/s, 3e-15 m, not decaying)
  int n_touching = 0;
  for (int j = 0; j < m_.num_contacts(); ++j) n_touching += touching[idx(j)] ? 1 : 0;
  const auto unresolvable = [&](int j, double v) {
    if (v > (n_touching > 1 ? 1e-4 : 1e5 * v_eps)) return false;
    const double a = group_free_acceleration({j, -1}, t_, q_, qd_, modes_);
    return a < 0.0 && (n_touching == 1 || v * v <= 2.0 * -a * gap_tol(j, q_));
  };
  for (int j = 0; j < m_.num_contacts(); ++j) {
    if (!touching[idx(j)]) continue;
    const double v = velocity(j, qd_).y();
    if (v > v_eps && !unresolvable(j, v)) {
      modes_[idx(j)] = ContactMode::kOpen;
      released_[idx(j)] = false;
    } else if (!is_closed(modes_[idx(j)])) {
      modes_[idx(j)] = closed_mode(j, qd_, modes_);
      if (v > v_eps)
        record(EventKind::kClosure, j, velocity(j, qd_), Vec2{velocity(j, qd_).x(), 0.0});
    }
  }
  decide_modes();
  project_closed();
}

// several contacts touching at once, resolved together by the multi-point law; false if the
// solver could not (the caller then resolves them sequentially)
bool Run::multipoint_impact(const std::array<bool, kMaxContacts>& touching) {
  const int n = m_.num_contacts();
  const Vec3 qd_pre = qd_;
  SimultaneousImpact r;
  try {
    r = resolve_simultaneous(m_, t_, q_, qd_, touching);
  } catch (const InvalidArgument&) {
    r.ok = false;  // a configuration the solver rejects (e.g. coincident points)
  }
  if (!r.ok) {
    ++res_.multipoint_fallbacks;
    return false;
  }
  qd_ = r.qd_post;
  // the contacts that took an impulse
  std::array<int, kMaxContacts> hit{};
  int n_hit = 0;
  for (int j = 0; j < n; ++j)
    if (touching[idx(j)] && r.Lambda[idx(j)].y() > 0.0) hit[idx(n_hit++)] = j;
  const double v_eps = velocity_tol();
  // two contacts leaving together at about the same speed (within 10 %: a flat body bouncing on
  // both, its residual tilt giving slightly different speeds): a pair chatter is ended at its
  // accumulation point like a single contact's, with the mean normal speed
  if (n_hit == 2) {
    const int a = hit[0];
    const int b = hit[1];
    const double va = r.v_post[idx(a)].y();
    const double vb = r.v_post[idx(b)].y();
    if (va > v_eps && vb > v_eps && std::abs(va - vb) <= 0.1 * std::max(va, vb)) {
      const Group g{a, b};
      ContactImpact pair;
      pair.v_pre = 0.5 * (r.v_pre[idx(a)] + r.v_pre[idx(b)]);
      pair.outcome.v_post = 0.5 * (r.v_post[idx(a)] + r.v_post[idx(b)]);
      const Modes saved = modes_;
      modes_[idx(a)] = modes_[idx(b)] = ContactMode::kOpen;
      double t_acc = 0.0;
      if (chatter_closes(g, qd_pre, pair, t_acc)) {
        decide_modes();
        project_closed();
        count_event();
        return true;
      }
      modes_ = saved;
      qd_ = r.qd_post;
    }
  }
  for (int h = 0; h < n_hit; ++h) {
    const int j = hit[idx(h)];
    ContactImpact ci;
    ci.qd_pre = qd_pre;
    ci.v_pre = r.v_pre[idx(j)];
    ci.outcome.v_post = r.v_post[idx(j)];
    ci.outcome.Lambda = r.Lambda[idx(j)];
    ci.outcome.delta_energy = 0.5 * ci.outcome.Lambda.dot(ci.v_pre + ci.outcome.v_post);
    ci.outcome.status = r.energy_gain ? Status::kEnergyGain : Status::kOk;
    ci.surface_work = ci.outcome.Lambda.dot(v_surface_);
    record_impact({j, n_hit > 1 ? hit[idx(h == 0 ? 1 : 0)] : -1}, ci, EventKind::kImpact);
  }
  assign_touching_modes(touching);
  count_event();
  return true;
}

// the contact touches at zero normal velocity: it stays if pushed onto the surface, else it is
// released and followed by the Runge–Kutta phase until it clears the surface
void Run::handle_graze(int c) {
  cache_geometry();
  const Group g{c, -1};
  if (group_free_acceleration(g, t_, q_, qd_, modes_) < 0.0) {
    const Vec2 v_pre = m_.contact(c, t_, q_, qd_).v;
    if (v_pre.y() < 0.0) {
      LawChoice plastic = m_.feature(c).law;
      plastic.params.e = 0.0;
      const ContactImpact r = group_impact(g, qd_, plastic);
      modes_[idx(c)] = closed_mode(c, qd_, modes_);
      record_impact(g, r, EventKind::kClosure, t_);
    } else {
      // leaving slower than can be resolved: the normal velocity is projected to 0 (an impulse
      // −v_N/C along the normal, which removes ½ v_N²/C of kinetic energy), so that the closed
      // contact starts exactly on its constraint
      const Eigen::Matrix<double, 2, 3>& J = geometry_[idx(c)].J;
      const Vec3 MinvJN = m_.solve_mass(J.row(1).transpose());
      const double C = J.row(1).dot(MinvJN);
      ContactImpact r;
      r.qd_pre = qd_;
      r.v_pre = v_pre;
      r.outcome.Lambda = {0.0, -v_pre.y() / C};
      qd_ += MinvJN * r.outcome.Lambda.y();
      r.outcome.v_post = velocity(c, qd_);
      r.outcome.delta_energy = 0.5 * r.outcome.Lambda.dot(v_pre + r.outcome.v_post);
      r.surface_work = r.outcome.Lambda.dot(v_surface_);
      modes_[idx(c)] = closed_mode(c, qd_, modes_);
      record_impact(g, r, EventKind::kClosure, t_);
    }
    decide_modes();
    project_closed();
  } else {
    // leaving, or not pushed back: a start below the surface (drift) is moved onto it, so that
    // the released contact does not graze again at once
    if (geometry_[idx(c)].g_N < 0.0) {
      modes_[idx(c)] = ContactMode::kSlidePositive;  // project the normal direction only
      project_closed();
      modes_[idx(c)] = ContactMode::kOpen;
    }
    released_[idx(c)] = true;
  }
  count_event();
}

// ---------------------------------------------------------------------------------------------
// exact free flight

void Run::flight_phase() {
  const double t0 = t_;
  const Vec3 q0 = q_;
  const Vec3 qd0 = qd_;
  const double horizon = o_.t_end - t0;
  // the earliest root of all gaps, evaluated together (one pose per evaluation)
  const int n = m_.num_contacts();
  std::array<double, kMaxContacts> M2{};
  std::array<double, kMaxContacts> tol{};
  for (int c = 0; c < n; ++c) {
    M2[idx(c)] = m_.flight_gap_curvature_bound(c, qd0);
    tol[idx(c)] = 64.0 * kEps * (1.0 + m_.gap_scale(c, q0));
  }
  const auto f = [&](double tau, std::array<ValueSlope, kMaxContacts>& out) {
    m_.flight_gaps(t0, q0, qd0, tau, out);
  };
  const auto far = [&](int c, double tau) { return m_.flight_gap_far_step(c, q0, qd0, tau); };
  const integrate::FirstRootOf found =
      integrate::first_root_curvature_bound_all<kMaxContacts>(f, far, n, 0.0, horizon, M2, tol);
  res_.gap_evaluations += found.root.evaluations;
  if (found.root.kind == RootKind::kFailed) {
    stop(StopReason::kEventLocation,
         "event location did not converge in the flight from t = " + format_number(t0));
    return;
  }
  const int best = found.function;
  const integrate::FirstRoot best_root = found.root;
  const double tau = best < 0 ? horizon : best_root.t;
  while (next_sample_ <= t0 + tau && next_sample_ <= o_.t_end) {
    Vec3 q, qd;
    m_.flight(next_sample_ - t0, q0, qd0, q, qd);
    emit_sample(next_sample_, q, qd);
    next_sample_ += o_.output_dt;
  }
  // the apex section: ẏ = 0 at τ = ẏ₀/g, if the flight lasts that long
  if (o_.section == Section::kApex && rec_ && qd0.y() > 0.0 && m_.gravity() > 0.0) {
    const double tau_apex = qd0.y() / m_.gravity();
    if (tau_apex < tau && t0 + tau_apex <= o_.t_end) {
      Sample apex;
      apex.t = t0 + tau_apex;
      m_.flight(tau_apex, q0, qd0, apex.q, apex.qd);
      apex.qd.y() = 0.0;
      apex.modes = modes_;
      apex.energy = m_.kinetic_energy(apex.qd) + m_.potential_energy(apex.q);
      rec_->on_section(apex);
    }
  }
  m_.flight(tau, q0, qd0, q_, qd_);
  t_ = best < 0 ? o_.t_end : t0 + tau;
  if (best < 0) return;
  if (best_root.kind == RootKind::kGraze)
    handle_graze(best);
  else
    handle_impact(best);
}

// ---------------------------------------------------------------------------------------------
// Runge–Kutta phase

void Run::ode_phase() {
  const int n = m_.num_contacts();
  // event functions of the current modes
  std::array<FnSpec, kMaxFn> fns{};
  int count = 0;
  for (int c = 0; c < n; ++c) {
    const ContactMode mode = modes_[idx(c)];
    if (!is_closed(mode)) {
      fns[idx(count++)] = {Fn::kGap, c};
      continue;
    }
    fns[idx(count++)] = {Fn::kLiftOff, c};
    if (is_sliding(mode)) {
      fns[idx(count++)] = {Fn::kSlideEnd, c};
      fns[idx(count++)] = {Fn::kPainleve, c};
    } else {
      fns[idx(count++)] = {Fn::kSlipOnset, c};
    }
    if (!std::isnan(chatter_end_[idx(c)])) fns[idx(count++)] = {Fn::kChatterEnd, c};
  }
  const Modes modes = modes_;
  const auto rhs = [&](const State& x, State& dx, double t) {
    ++res_.rhs_evaluations;
    const Vec3 q{x[0], x[1], x[2]};
    const Vec3 qd{x[3], x[4], x[5]};
    const ConstrainedDynamics cd = constrained_dynamics(m_, t, q, qd, modes, o_.stabilization);
    const dynamics::Surface& s = m_.surface();
    const Vec2 v_surface{s.u(t), s.hdot(t)};
    double p_surface = 0.0;
    double p_friction = 0.0;
    for (int c = 0; c < n; ++c) {
      if (!is_closed(modes[idx(c)])) continue;
      const Vec2& lam = cd.lambda[idx(c)];
      p_surface += lam.dot(v_surface);
      p_friction -= lam.dot(cd.kin[idx(c)].v);
    }
    dx = {qd.x(), qd.y(), qd.z(), cd.qdd.x(), cd.qdd.y(), cd.qdd.z(), p_surface, p_friction};
  };
  const auto values = [&](double t, const State& x, std::array<ValueSlope, kMaxFn>& out) {
    const Vec3 q{x[0], x[1], x[2]};
    const Vec3 qd{x[3], x[4], x[5]};
    const ConstrainedDynamics cd = constrained_dynamics(m_, t, q, qd, modes, o_.stabilization);
    for (int k = 0; k < count; ++k) {
      const FnSpec& f = fns[idx(k)];
      const auto ci = idx(f.contact);
      const double mu = m_.feature(f.contact).law.params.mu;
      switch (f.fn) {
        case Fn::kGap:
          out[idx(k)] = {cd.kin[ci].g_N, cd.kin[ci].v.y()};
          break;
        case Fn::kLiftOff:
          out[idx(k)] = {cd.lambda[ci].y(), kNaN};
          break;
        case Fn::kSlideEnd: {
          const double s = slip_sign(modes[ci]);
          out[idx(k)] = {s * cd.kin[ci].v.x(), s * cd.accel[ci].x()};
          break;
        }
        case Fn::kSlipOnset:
          out[idx(k)] = {mu * cd.lambda[ci].y() - std::abs(cd.lambda[ci].x()), kNaN};
          break;
        case Fn::kPainleve:
          out[idx(k)] = {cd.k_N[ci], kNaN};
          break;
        case Fn::kChatterEnd:
          out[idx(k)] = {chatter_end_[ci] - t, -1.0};
          break;
      }
    }
  };
  struct Source {
    const integrate::DenseStepper<kN>* stepper;
    const decltype(values)* evaluate;
    void all(double t, std::array<ValueSlope, kMaxFn>& out) const {
      State x;
      stepper->state_at(t, x);
      (*evaluate)(t, x, out);
    }
    ValueSlope one(double t, int j) const {
      std::array<ValueSlope, kMaxFn> out;
      all(t, out);
      return out[idx(j)];
    }
  } source{&stepper_, &values};

  // tolerances and start flags
  std::array<double, kMaxFn> tol{};
  std::array<integrate::Start, kMaxFn> start{};
  {
    State x0{q_.x(), q_.y(), q_.z(), qd_.x(), qd_.y(), qd_.z(), 0.0, 0.0};
    std::array<ValueSlope, kMaxFn> v0{};
    values(t_, x0, v0);
    for (int k = 0; k < count; ++k) {
      const FnSpec& f = fns[idx(k)];
      switch (f.fn) {
        case Fn::kGap:
          tol[idx(k)] = gap_tol(f.contact, q_);
          break;
        case Fn::kLiftOff:
        case Fn::kSlipOnset:
          tol[idx(k)] = lambda_tol_;
          break;
        case Fn::kSlideEnd:
          tol[idx(k)] = velocity_tol();
          break;
        case Fn::kPainleve:
        case Fn::kChatterEnd:
          tol[idx(k)] = 0.0;
          break;
      }
      // functions without a slope that start at zero (λ_N, the cone margin) are armed once
      // clearly positive; the gap and s·v_T carry their slope and start normally
      // s·v_T with zero value and slope (the instant of a slip onset, where the slip grows as
      // (t − t₀)²) is armed the same way
      const bool near_zero = std::abs(v0[idx(k)].value) <= tol[idx(k)];
      const double accel_tol = lambda_tol_ / m_.body().m;
      const bool released = f.fn == Fn::kGap ? released_[idx(f.contact)]
                            : f.fn == Fn::kSlideEnd
                                ? near_zero && std::abs(v0[idx(k)].slope) <= accel_tol
                                : near_zero && (f.fn == Fn::kLiftOff || f.fn == Fn::kSlipOnset);
      start[idx(k)] = released ? integrate::Start::kReleased : integrate::Start::kNormal;
    }
  }

  State x{q_.x(), q_.y(), q_.z(), qd_.x(), qd_.y(), qd_.z(), 0.0, 0.0};
  stepper_.initialize(x, t_, std::min(o_.max_dt, 1e-3));
  const auto take = [&](double t) {
    State s;
    stepper_.state_at(t, s);
    t_ = t;
    q_ = {s[0], s[1], s[2]};
    qd_ = {s[3], s[4], s[5]};
    L_.surface_work += s[6];
    L_.friction_loss += s[7];
  };
  for (;;) {
    stepper_.step(rhs);
    ++res_.rk_steps;
    const double t0 = stepper_.t_old();
    const double t1 = std::min(stepper_.t_new(), o_.t_end);
    const integrate::FirstEvent ev =
        integrate::locate_first_event<kMaxFn>(source, count, t0, t1, o_.event_samples, tol, start);
    const double t_stop = ev.kind == RootKind::kNone ? t1 : ev.t;
    while (next_sample_ <= t_stop) {
      State s;
      stepper_.state_at(next_sample_, s);
      emit_sample(next_sample_, {s[0], s[1], s[2]}, {s[3], s[4], s[5]});
      next_sample_ += o_.output_dt;
    }
    if (ev.kind != RootKind::kNone) {
      // other functions at zero and falling at the same instant (a flat rod: both ends stop
      // sliding together) are events too; gaps are covered by the touching set of an impact
      std::array<ValueSlope, kMaxFn> at{};
      source.all(ev.t, at);
      take(ev.t);
      dispatch(fns[idx(ev.function)], ev.kind);
      for (int k = 0; k < count && !stopped_; ++k) {
        const FnSpec& f = fns[idx(k)];
        if (k == ev.function || f.fn == Fn::kGap || f.fn == Fn::kChatterEnd) continue;
        if (modes_[idx(f.contact)] != modes[idx(f.contact)]) continue;  // already changed
        const ValueSlope& v = at[idx(k)];
        const bool falling = std::isnan(v.slope) || v.slope <= 0.0;
        if (std::abs(v.value) <= tol[idx(k)] && falling &&
            start[idx(k)] == integrate::Start::kNormal)
          dispatch(f, RootKind::kCrossing);
      }
      return;
    }
    // drift of the held contacts
    {
      const State& s = stepper_.state();
      const Vec3 q{s[0], s[1], s[2]};
      const Vec3 qd{s[3], s[4], s[5]};
      for (int c = 0; c < n; ++c) {
        if (!is_closed(modes[idx(c)])) continue;
        const dynamics::ContactKinematics k = m_.contact(c, stepper_.t_new(), q, qd);
        res_.max_gap_drift = std::max(res_.max_gap_drift, std::abs(k.g_N));
        res_.max_velocity_drift = std::max(res_.max_velocity_drift, std::abs(k.v.y()));
      }
    }
    if (stepper_.t_new() >= o_.t_end) {
      take(o_.t_end);
      return;
    }
    // contacts that rose clear of the surface are armed; all clear and open: exact flight again
    bool clear = true;
    {
      const State& s = stepper_.state();
      const Vec3 q{s[0], s[1], s[2]};
      const Vec3 qd{s[3], s[4], s[5]};
      for (int k = 0; k < count; ++k) {
        const FnSpec& f = fns[idx(k)];
        if (f.fn != Fn::kGap) {
          clear = false;
          continue;
        }
        const bool above = m_.contact(f.contact, stepper_.t_new(), q, qd).g_N > tol[idx(k)];
        if (above) {
          start[idx(k)] = integrate::Start::kNormal;
          released_[idx(f.contact)] = false;
        } else {
          clear = false;
        }
      }
      std::array<ValueSlope, kMaxFn> v{};
      values(stepper_.t_new(), s, v);
      for (int k = 0; k < count; ++k) {
        if (fns[idx(k)].fn != Fn::kGap && v[idx(k)].value > tol[idx(k)])
          start[idx(k)] = integrate::Start::kNormal;
      }
    }
    if (clear && o_.exact_flight) {
      take(stepper_.t_new());
      return;
    }
  }
}

void Run::dispatch(const FnSpec& f, RootKind kind) {
  const int c = f.contact;
  switch (f.fn) {
    case Fn::kGap:
      if (kind == RootKind::kGraze)
        handle_graze(c);
      else
        handle_impact(c);
      return;
    case Fn::kLiftOff:
      // leave from exactly the surface: the drift of the held contact (≲ 1e-10 m) would otherwise
      // start the flight below it
      project_closed();
      modes_[idx(c)] = ContactMode::kOpen;
      released_[idx(c)] = true;
      chatter_end_[idx(c)] = kNaN;
      record(EventKind::kLiftOff, c);
      decide_modes();
      count_event();
      return;
    case Fn::kSlideEnd: {
      modes_[idx(c)] = ContactMode::kStick;
      const ConstrainedDynamics cd =
          constrained_dynamics(m_, t_, q_, qd_, modes_, o_.stabilization);
      const Vec2 lam = cd.lambda[idx(c)];
      if (std::abs(lam.x()) <= m_.feature(c).law.params.mu * lam.y() + lambda_tol_) {
        record(EventKind::kStick, c);
      } else {
        modes_[idx(c)] = sliding_mode(-lam.x());
        record(EventKind::kSlipReversal, c);
      }
      decide_modes();
      // the located zero of v_T carries the integration error (~1e-11 m/s); the new slip starts
      // from exactly v_T = 0, so that its own end event does not fire at once
      if (is_closed(modes_[idx(c)])) project_closed(c);
      count_event();
      return;
    }
    case Fn::kSlipOnset: {
      const ConstrainedDynamics cd =
          constrained_dynamics(m_, t_, q_, qd_, modes_, o_.stabilization);
      modes_[idx(c)] = sliding_mode(-cd.lambda[idx(c)].x());
      record(EventKind::kSlipOnset, c);
      decide_modes();
      if (is_closed(modes_[idx(c)])) project_closed(c);
      count_event();
      return;
    }
    case Fn::kPainleve:
      decide_modes();  // records the Painlevé event and stops
      if (!stopped_) {
        record(EventKind::kPainleve, c);
        stop(StopReason::kPainleve,
             "contact " + name(c) + " reached k_N = 0 while sliding at t = " + format_number(t_) +
                 " (Painleve)");
      }
      return;
    case Fn::kChatterEnd:
      chatter_end_[idx(c)] = kNaN;
      record(EventKind::kChatterEnd, c);
      count_event();
      return;
  }
}

// ---------------------------------------------------------------------------------------------

SimulationResult Run::execute() {
  validate(o_, t_);
  require(std::isfinite(t_), "initial.t", "must be finite");
  for (int i = 0; i < 3; ++i) {
    require_finite(q_(i), "initial.q");
    require_finite(qd_(i), "initial.qdot");
  }
  const int n = m_.num_contacts();
  L_.initial = energy();
  // initial modes: contacts on the surface and at rest are closed, approaching ones impact
  int approaching = -1;
  for (int c = 0; c < n; ++c) {
    const dynamics::ContactKinematics k = m_.contact(c, t_, q_, qd_);
    const double tol = 1e3 * gap_tol(c, q_);
    if (k.g_N < -tol) {
      throw InvalidArgument("initial.q", "contact " + name(c) + " penetrates the surface by " +
                                             format_number(-k.g_N) + " m");
    }
    if (k.g_N > tol) continue;
    if (k.v.y() < -velocity_tol()) {
      approaching = c;
    } else if (k.v.y() <= velocity_tol()) {
      modes_[idx(c)] = closed_mode(c, qd_, modes_);
    }
  }
  emit_sample(t_, q_, qd_);
  if (o_.output_dt > 0.0) next_sample_ = t_ + o_.output_dt;
  if (approaching >= 0) {
    handle_impact(approaching);
  } else {
    decide_modes();
  }
  while (!stopped_ && t_ < o_.t_end) {
    bool fly = o_.exact_flight && all_open();
    for (int c = 0; c < n && fly; ++c) fly = !released_[idx(c)];
    if (fly)
      flight_phase();
    else
      ode_phase();
    if (!(q_.allFinite() && qd_.allFinite())) {
      stop(StopReason::kNonFinite, "the state became non-finite at t = " + format_number(t_));
    }
  }
  if (!stopped_) {
    res_.reason = StopReason::kEndTime;
    res_.message = "reached t_end = " + format_number(o_.t_end);
  }
  res_.t = t_;
  res_.q = q_;
  res_.qd = qd_;
  res_.modes = modes_;
  L_.kinetic = m_.kinetic_energy(qd_);
  L_.potential = m_.potential_energy(q_);
  res_.energy = L_;
  return res_;
}

}  // namespace

SimulationResult simulate(const PlanarBodyModel& model, const InitialState& init,
                          const SimulationOptions& options, Recorder* recorder) {
  Run run(model, init, options, recorder);
  return run.execute();
}

}  // namespace clatter::hybrid
