#pragma once
// The stages of one step of the engine (internal to src/hybrid): Run is a view of
// (model, Data, options) whose methods are the stages; it owns nothing, so a Run made for one call
// of step() and dropped after it loses nothing. The step pipeline is step() in step.cpp; each stage
// lives in its own file:
//
//   run_start.cpp        the start: validation, initial modes (make_data), the first step
//   run_flight.cpp       exact free flight: guaranteed first root of the gaps
//   run_carried.cpp      sustained contact in closed form: guaranteed first root of the forces
//   run_ode.cpp          Runge–Kutta phase with event location on the interpolant, dispatch
//   run_impact.cpp       impacts: one contact, touching sets, multi-point, symmetric, grazes
//   run_chatter.cpp      the end of a complete chatter (accumulation point or V_tol cut-off)
//   run_modes.cpp        contact modes: consistency of the forces, Painlevé, projection
//   run_bookkeeping.cpp  events, guards (max events, Zeno, wall clock)
//
// The run sees the model only through model::System (and its optional capabilities).

#include <array>
#include <chrono>
#include <limits>
#include <string>
#include <vector>

#include "clatter/core/error.hpp"
#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/hybrid/data.hpp"
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

// the state at t on the dense output of the phase's last step (run_ode.cpp)
void ode_state_at(const OdePhase& phase, int nq, int na, double t, VecQ& q, VecQ& qd, VecA& aux);

class Run {
 public:
  Run(const model::System& model, Data& data, const SimulationOptions& options);

  // --- the start (run_start.cpp) ---
  void find_initial_modes();
  void start();
  // the multi-point solver's scratch in Data, made (and its vectors reserved) at first use
  [[nodiscard]] SimultaneousScratch& simultaneous_scratch() const;

  // --- phases: each covers Data::segment and ends at an event or `until` ---
  // each returns whether it ended at an event
  bool flight_phase(double until);
  bool carried_phase(const model::CarriedMotion::Contacts& stick, double until);
  [[nodiscard]] bool can_carry(model::CarriedMotion::Contacts& stick) const;
  [[nodiscard]] bool can_fly() const;
  // a Runge–Kutta phase: begun, then one accepted step per call until it ends (d_.ode.active false)
  void begin_ode_phase();
  // whether the step ended at an event
  bool ode_step(double until);
  // Stepper: integrate::DenseStepper<N> or integrate::Dop853Stepper<N>
  template <class Stepper>
  void begin_ode_phase_n(Stepper& stepper);
  template <class Stepper>
  bool ode_step_n(Stepper& stepper, double until);
  /// the broad phase (model::System::open_horizons) at the current state d_.t, q, q̇, a: the
  /// open contacts proven open beyond `t_sleep` lose their gap function (kept: released
  /// contacts, and with `armed_only` gaps not yet armed); true if the model offers horizons
  bool sleep_open_contacts(double t_sleep, bool armed_only);
  /// the sleeping contacts whose proof ends before t1 get their gap function back
  void wake_open_contacts(double t1);
  /// contact c's gap function back among the phase's (armed; waiting below its obstacle while
  /// Data::ignored): the broad phase's proof ended, or its guard enabled it
  void wake_gap(int c);
  /// the model's guards (model::System::contact_guards) at the current state d_.t, q, q̇, a:
  /// Data::ignored of the open contacts (disabled, or enabled with a gap not yet above
  /// `watch_above`: waiting), closed contacts watched, and `enabled` (every contact enabled for a
  /// model without guards, whose Data::ignored stays as it is)
  void update_guards(std::array<bool, kMaxContacts>& enabled, double watch_above = 0.0);
  /// update_guards at the end of a Runge–Kutta step, the phase's gap functions following it: a
  /// disabled contact's leaves, an enabled one's comes back (integrate::Start::kBelow while
  /// waiting)
  void refresh_phase_guards();
  using Fn = Guard;
  void dispatch(Fn fn, int c, integrate::RootKind kind);
  void note_step_size(double taken, double next, double asked);

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
    const model::ContactGeometry& k = d_.geometry[idx(c)];
    return k.J.lazyProduct(qd) - k.w;
  }
  [[nodiscard]] double group_free_acceleration(const Group& g, double t, const VecQ& q,
                                               const VecQ& qd, Modes modes) const;
  int symmetric_partner(int c) const;
  bool level_pair(int c, int j);

  // --- modes ---
  void set_group_mode(const Group& g, const VecQ& qd, Modes& modes) const;
  ContactMode closed_mode(int c, const VecQ& qd, const Modes& modes) const;
  /// The contacts of `closing` (touching, closing now) decided together: each slipping one
  /// slides its way, those at rest stick, then the sticking one whose force leaves its cone by
  /// the most slides, in turn, until every sticking force lies in its cone.
  void close_together(const Touching& closing, const VecQ& qd, Modes& modes) const;
  void decide_modes();
  bool resolve_painleve(int c, double k_N);
  void project_closed(int at_rest = -1);
  void open_contact(int c, bool released);

  // --- bookkeeping ---
  void record_impact(const Group& g, const ContactImpact& r, EventKind kind,
                     double t_accumulation = 0.0);
  void record(EventKind kind, int c, const Vec2& v_pre = Vec2::Zero(),
              const Vec2& v_post = Vec2::Zero());
  bool count_event();
  void stop(StopReason r, std::string message);
  void check_wall_clock();
  // the segment of a phase in closed form, from the current state
  void begin_segment(SegmentKind kind);
  [[nodiscard]] double energy_at(double t, const VecQ& q, const VecQ& qd) const {
    return m_.kinetic_energy(t, q, qd) + m_.potential_energy(t, q);
  }
  [[nodiscard]] double energy() const { return energy_at(d_.t, d_.q, d_.qd); }
  [[nodiscard]] bool all_open() const;
  [[nodiscard]] model::ContactGeometry contact_at(int c, double t, const VecQ& q,
                                                  const VecQ& qd) const {
    model::ContactGeometry k;
    m_.contact_geometry(c, t, q, qd, k);
    return k;
  }
  [[nodiscard]] static double gap_tol(double scale) { return tol::kGapTol * (1.0 + scale); }
  [[nodiscard]] double gap_tol(int c, const VecQ& q) const {
    return gap_tol(m_.gap_scale(c, d_.t, q));
  }
  [[nodiscard]] double velocity_tol() const {
    return tol::kVelocityTol * (1.0 + m_.velocity_scale(d_.t, d_.q, d_.qd));
  }
  [[nodiscard]] double mu_s(int c) const { return m_.contact(c).mu_s; }
  [[nodiscard]] const std::string& name(int c) const { return m_.contact(c).name; }
  static std::size_t idx(int c) { return static_cast<std::size_t>(c); }

  // --- the model, the options (immutable) and the Data the stages work on ---
  const model::System& m_;
  const SimulationOptions& o_;
  Data& d_;
};

}  // namespace clatter::hybrid
