#pragma once
// The state of one simulation run and its stages (internal to src/hybrid). The step pipeline is
// Run::execute in simulator.cpp; each stage lives in its own file:
//
//   run_flight.cpp       exact free flight: guaranteed first root of the gaps
//   run_carried.cpp      sustained contact in closed form: guaranteed first root of the forces
//   run_ode.cpp          Runge–Kutta phase with event location on the interpolant, dispatch
//   run_impact.cpp       impacts: one contact, touching sets, multi-point, symmetric, grazes
//   run_chatter.cpp      the end of a complete chatter (accumulation point or V_tol cut-off)
//   run_modes.cpp        contact modes: consistency of the forces, Painlevé, projection
//   run_bookkeeping.cpp  samples, events, guards (max events, Zeno, wall clock)
//
// The run sees the model only through model::System (and its optional capabilities).

#include <array>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/hybrid/impact_resolution.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/hybrid/tolerances.hpp"
#include "clatter/integrate/crossing_search.hpp"
#include "clatter/integrate/root_finding.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// a contact or a pair of contacts sharing one impulse equally (symmetric reduction)
struct Group {
  int c{-1};
  int j{-1};
};

using Touching = std::array<bool, kMaxContacts>;

class Run {
 public:
  Run(const model::System& model, const InitialState& init, const SimulationOptions& options,
      Recorder* recorder);

  SimulationResult execute();

  // --- phases ---
  void flight_phase();
  void carried_phase(const model::CarriedMotion::Contacts& stick);
  [[nodiscard]] bool can_carry(model::CarriedMotion::Contacts& stick) const;
  void ode_phase();
  template <std::size_t N>
  void ode_phase_n();
  enum class Fn : std::uint8_t { kGap, kLiftOff, kSlideEnd, kSlipOnset, kPainleve, kChatterEnd };
  void dispatch(Fn fn, int c, integrate::RootKind kind);

  // --- impacts ---
  void handle_impact(int c);
  bool multipoint_impact(const Touching& touching);
  [[nodiscard]] Touching connected_to(int c, const Touching& touching) const;
  void assign_touching_modes(const Touching& touching);
  void handle_graze(int c);
  bool chatter_closes(const Group& g, const VecQ& qd_pre, const ContactImpact& bounce,
                      double& t_accumulation);
  // impacts use the contact geometry and mass factor cached at the event (J, w, g_N at (t, q)):
  // velocities are J q̇ − w for any q̇, without re-evaluating the model
  void cache_geometry();
  [[nodiscard]] ContactImpact group_impact(const Group& g, VecQ& qd, const LawChoice& law) const;
  [[nodiscard]] Vec2 velocity(int c, const VecQ& qd) const {
    const model::ContactGeometry& k = geometry_[idx(c)];
    return k.J.lazyProduct(qd) - k.w;
  }
  [[nodiscard]] double group_free_acceleration(const Group& g, double t, const VecQ& q,
                                               const VecQ& qd, Modes modes) const;
  int symmetric_partner(int c) const;
  bool level_pair(int c, int j);

  // --- modes ---
  void set_group_mode(const Group& g, const VecQ& qd, Modes& modes) const;
  ContactMode closed_mode(int c, const VecQ& qd, const Modes& modes) const;
  void decide_modes();
  bool resolve_painleve(int c, double k_N);
  void project_closed(int at_rest = -1);
  void open_contact(int c, bool released);

  // --- the coordinate-crossing section (Section::kCrossing) ---
  [[nodiscard]] bool crossing_section() const {
    return o_.section == Section::kCrossing && rec_ != nullptr;
  }
  // every crossing of q_i through c in a closed-form phase from (t0, q0, q̇0) on (0, tau], with
  // flow(τ, q, q̇) the state at t0 + τ and M2 ≥ |q̈_i| along it
  template <class Flow>
  void closed_form_crossings(double t0, const VecQ& q0, double tau, double M2, Flow&& flow);
  void emit_crossing(double t, const VecQ& q, const VecQ& qd, const VecA& aux);

  // --- bookkeeping ---
  void record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                     double t_accumulation = 0.0);
  void record(EventKind kind, int c, const Vec2& v_pre = Vec2::Zero(),
              const Vec2& v_post = Vec2::Zero());
  bool count_event();
  void stop(StopReason r, std::string message);
  void check_wall_clock();
  [[nodiscard]] Sample sample_at(double t, const VecQ& q, const VecQ& qd, const VecA& aux) const;
  void emit_sample(double t, const VecQ& q, const VecQ& qd, const VecA& aux);
  [[nodiscard]] double next_sample_time() const;
  [[nodiscard]] double energy_at(double t, const VecQ& q, const VecQ& qd) const {
    return m_.kinetic_energy(t, q, qd) + m_.potential_energy(t, q);
  }
  [[nodiscard]] double energy() const { return energy_at(t_, q_, qd_); }
  [[nodiscard]] bool all_open() const;
  [[nodiscard]] model::ContactGeometry contact_at(int c, double t, const VecQ& q,
                                                  const VecQ& qd) const {
    model::ContactGeometry k;
    m_.contact_geometry(c, t, q, qd, k);
    return k;
  }
  [[nodiscard]] static double gap_tol(double scale) { return tol::kGapTol * (1.0 + scale); }
  [[nodiscard]] double gap_tol(int c, const VecQ& q) const {
    return gap_tol(m_.gap_scale(c, t_, q));
  }
  [[nodiscard]] double velocity_tol() const {
    return tol::kVelocityTol * (1.0 + m_.velocity_scale(t_, q_, qd_));
  }
  [[nodiscard]] double mu_s(int c) const { return m_.contact(c).mu_s; }
  [[nodiscard]] const std::string& name(int c) const { return m_.contact(c).name; }
  static std::size_t idx(int c) { return static_cast<std::size_t>(c); }

  // --- the model and the options (immutable) ---
  const model::System& m_;
  const model::ExactFlight* flight_;
  const model::CarriedMotion* carried_;
  const model::SymmetricPairs* symmetry_;
  const SimulationOptions& o_;
  Recorder* rec_;
  const int nq_;
  const int na_;
  const int nc_;

  // --- the state (mutable) ---
  double t_;
  VecQ q_, qd_;
  VecA aux_;
  const std::array<bool, kMaxContacts> closed_;  ///< contacts given as closed at the start
  Modes modes_{};
  std::array<bool, kMaxContacts> released_{};       ///< contacts that left without clearing the gap
  std::array<double, kMaxContacts> chatter_end_{};  ///< predicted accumulation point, or NaN
  /// a chatter's bounces whose full prediction test is skipped: the last test's error estimate
  /// scales as v³, i.e. by e³ per bounce, so the bounces before it can pass are counted down
  std::array<int, kMaxContacts> chatter_skip_{};
  std::array<double, kMaxContacts> chatter_last_v_{};  ///< v⁺ of the contact's last bounce

  // --- scratch, sized once ---
  std::array<model::ContactGeometry, kMaxContacts> geometry_{};
  model::MassFactor mass_{};  ///< M at the cached event configuration
  mutable ConstrainedDynamics cd_{};

  // --- bookkeeping ---
  EnergyLedger L_{};
  SimulationResult res_{};
  bool stopped_{false};
  double t_first_sample_{0.0};
  long sample_index_{0};
  double lambda_tol_{0.0};
  std::vector<double> zeno_ring_;
  std::size_t zeno_pos_{0};
  long phases_{0};
  std::chrono::steady_clock::time_point wall_start_;
};

template <class Flow>
void Run::closed_form_crossings(double t0, const VecQ& q0, double tau, double M2, Flow&& flow) {
  const int i = o_.crossing_coordinate;
  const double c = o_.crossing_value;
  VecQ q(nq_), qd(nq_);
  const auto v = [&](double s) {
    flow(s, q, qd);
    return integrate::ValueSlope{q(i) - c, qd(i)};
  };
  const auto emit = [&](double s, int direction) {
    if (o_.crossing_direction != 0 && direction != o_.crossing_direction) return;
    flow(s, q, qd);
    emit_crossing(t0 + s, q, qd, aux_);
  };
  // q_i is resolved to round-off of its terms, as a gap of an exact flight
  const double tol = tol::kFlightRootTol * (1.0 + std::abs(c) + std::abs(q0(i)));
  const integrate::CrossingSearchStatus status =
      integrate::all_crossings_curvature_bound(v, emit, 0.0, tau, M2, tol);
  if (status == integrate::CrossingSearchStatus::kFailed) {
    stop(StopReason::kEventLocation,
         "the crossing of " + m_.coordinate_names()[idx(i)] + " = " + format_number(c) +
             " was not located from t = " + format_number(t0) + " (evaluation budget exhausted)");
  }
}

}  // namespace clatter::hybrid
