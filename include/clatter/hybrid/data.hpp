#pragma once
/// @file
/// The whole mutable state of one run of the event-driven engine (the Data half of Model/Data):
/// made once by make_data from a model, an initial state and the options, then advanced by
/// hybrid::step (step.hpp). Everything a step needs is here and sized at creation, so a step
/// allocates nothing on the heap (the event buffer grows only past its reserved capacity).
///
/// Fields are grouped by who writes them:
/// @verbatim
///   state         t, q [nq], q̇ [nq], aux [num_aux], modes [num_contacts], released, ignored,
///                 chatter
///   the step      segment: the interval [t0, t1] the last step covered and what evaluates the
///                 motion inside it (closed-form flight or carriage from (q0, q̇0), or the
///                 Runge–Kutta dense output in `ode`); events: the records the last step made
///   bookkeeping   energy (the ledger), counters, the stop reason
///   scratch       contact geometry and M's factor at the last event, ConstrainedDynamics
/// @endverbatim
/// A Data belongs to the model it was made for: step() with another model is undefined. Its
/// state may be read at any time. To change the state between steps (a restart from another
/// point), make a new Data: a Runge–Kutta phase in progress continues from its own stepper.

#include <array>
#include <chrono>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "clatter/core/energy_ledger.hpp"
#include "clatter/core/enum_names.hpp"
#include "clatter/hybrid/constrained_dynamics.hpp"
#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/hybrid/simultaneous_impact.hpp"
#include "clatter/integrate/dense_stepper.hpp"
#include "clatter/integrate/dop853_stepper.hpp"
#include "clatter/integrate/event_locator.hpp"
#include "clatter/model/system.hpp"

namespace clatter::hybrid {

/// Where a run starts. Contacts on their obstacle and at rest start closed; an approaching one
/// makes the first step an impact at t.
struct InitialState {
  double t{0.0};
  VecQ q{};    ///< generalized coordinates (size nq of the model)
  VecQ qd{};   ///< generalized velocities
  VecA aux{};  ///< auxiliary states (size num_aux; empty means zeros)
  /// Contacts known to be closed (a run continued from another, hybrid/schedule.hpp): they start
  /// closed and stick or slide as the forces decide; others are found from the state.
  std::array<bool, kMaxContacts> closed{};

  InitialState() = default;
  InitialState(double t0, const VecQ& q0, const VecQ& qd0, const VecA& aux0 = VecA())
      : t(t0), q(q0), qd(qd0), aux(aux0) {}
  /// From lists of numbers: InitialState{0.0, {0.0, 3.0, 0.1}, {0.0, 0.0, 1.0}}.
  InitialState(double t0, std::initializer_list<double> q0, std::initializer_list<double> qd0)
      : t(t0), q(from_list(q0)), qd(from_list(qd0)) {}

 private:
  static VecQ from_list(std::initializer_list<double> v) {
    VecQ out(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double x : v) out(i++) = x;
    return out;
  }
};

enum class StopReason : std::uint8_t {
  kEndTime,        ///< reached t_end
  kMaxEvents,      ///< max_events reached
  kZeno,           ///< zeno_events events within zeno_window
  kPainleve,       ///< a sliding contact with k_N ≤ 0
  kEventLocation,  ///< event location failed (iteration bound)
  kNonFinite,      ///< the state became NaN or infinite
  kWallTime,       ///< SimulationOptions::max_wall_time elapsed
  kCancelled,      ///< the recorder asked to stop (Recorder::keep_going)
  kMaxSteps,       ///< max_steps Runge–Kutta steps taken (a flow that never meets an event)
};
/// The number of StopReason values (codes 0 … kNumStopReasons − 1 in files and Python).
inline constexpr int kNumStopReasons = static_cast<int>(StopReason::kMaxSteps) + 1;

[[nodiscard]] const char* to_string(StopReason r);

}  // namespace clatter::hybrid

namespace clatter {
template <>
struct EnumNames<hybrid::StopReason> {
  static constexpr std::array<const char*, 9> names{"end_time",  "max_events",     "zeno",
                                                    "painleve",  "event_location", "non_finite",
                                                    "wall_time", "cancelled",      "max_steps"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() == static_cast<std::size_t>(hybrid::StopReason::kMaxSteps) + 1);
};
}  // namespace clatter

namespace clatter::hybrid {

/// What the engine counted (SimulationResult carries the same fields).
struct Counters {
  long events{0};
  long impacts{0};
  long rk_steps{0};
  long dop853_steps{0};  ///< of rk_steps, those taken by DOP853 (the rest by DOPRI5)
  long rhs_evaluations{0};
  long gap_evaluations{0};  ///< evaluations of the closed-form gaps in exact flights
  long carried_phases{0};   ///< phases of sustained contact in closed form (no Runge–Kutta step)
  long force_evaluations{0};  ///< evaluations of the closed-form contact forces in those phases
  int chatter_sequences{0};
  int multipoint_fallbacks{0};     ///< kMultipoint collisions resolved sequentially instead
  double max_gap_drift{0.0};       ///< max |g_N| of closed contacts at step ends [m]
  double max_velocity_drift{0.0};  ///< max |v_N| of closed contacts at step ends [m/s]
};

/// The event functions of a Runge–Kutta phase (falling through zero is the event), and the
/// margins of a carried phase.
enum class Guard : std::uint8_t {
  kGap,         ///< g_N of an open contact            → impact (or graze)
  kLiftOff,     ///< λ_N of a closed contact           → lift-off
  kSlideEnd,    ///< s·v_T of a sliding contact        → stick or slip reversal
  kSlipOnset,   ///< μ_s λ_N − |λ_T| of a sticking one → slip onset
  kPainleve,    ///< k_N of a sliding contact          → Painlevé
  kChatterEnd,  ///< t∞ − t of a predicted chatter     → its end
};

/// How the motion inside the last step's interval is evaluated (interpolate(), step.hpp).
enum class SegmentKind : std::uint8_t {
  kNone,        ///< an instant (the step was an event at t0 = t1, or it failed)
  kFlight,      ///< model::ExactFlight from (t0, q0, q̇0)
  kCarried,     ///< model::CarriedMotion of the contacts `stick` from (t0, q0, q̇0)
  kRungeKutta,  ///< the dense output of Data::ode on [t0, t1]
};

/// The interval the last step covered, up to (not past) its event: the motion before the event.
struct Segment {
  SegmentKind kind{SegmentKind::kNone};
  double t0{0.0};
  double t1{0.0};
  double tau{0.0};  ///< closed forms: the duration they were evaluated for (t1 = t0 + tau)
  VecQ q0{};
  VecQ qd0{};
  Modes modes{};                           ///< the contact modes along it
  std::array<bool, kMaxContacts> stick{};  ///< kCarried: the sticking contacts
};

/// A Runge–Kutta phase in progress: it lasts over steps (one accepted step each) until an event,
/// a target time, or all contacts clear (then an exact flight takes over).
///
/// Runge–Kutta state, n = nq, m = num_aux:
///   x = (q [n], q̇ [n], a [m], W_surface, L_friction as ∫ −λ·v, W_applied)
/// in a fixed-size array of N ≥ 2n + m + 3 entries (the unused tail stays 0): the smallest of
/// kSmallState (n ≤ 3, no auxiliary state), kMediumState (n ≤ 12, m ≤ 4) and kLargeState (up to
/// the capacities), so that a step's loops over N stay near the model's own size.
struct OdePhase {
  static constexpr std::size_t kSmallState = 9;
  static constexpr std::size_t kMediumState = 31;
  static constexpr std::size_t kLargeState = 2 * model::kMaxDof + model::kMaxAux + 3;
  static_assert(kMediumState < kLargeState);
  enum class Size : std::uint8_t { kSmall, kMedium, kLarge };
  static constexpr std::size_t kMaxGuards = 4 * kMaxContacts;
  struct Function {
    Guard guard{Guard::kGap};
    int contact{0};
  };

  bool active{false};
  Size size{Size::kSmall};  ///< which steppers hold the phase
  bool order8{false};       ///< DOP853 (the *_dop853 steppers) rather than DOPRI5
  /// Integrator::kAuto: the steps are set by max_dt, not by the tolerance, where DOPRI5's 6
  /// stages per step cost less than DOP853's 15 (a cradle's max_dt = 0.001). Set when a DOP853
  /// phase's steps (8 or more) were all capped at max_dt with the error control asking for 10 ×
  /// max_dt (an error ≤ 0.09⁸ of the tolerance at the cap, where DOPRI5 at the cap meets it too);
  /// cleared for the rest of the run when a DOPRI5 phase's steps are limited by its error control.
  /// It chooses the method of the next phase (never within one).
  bool steps_at_max_dt{false};
  bool dopri5_limited{false};  ///< a DOPRI5 phase of this run was limited by its error control
  int capped_steps{0};         ///< of this phase: the controller asked for max_dt or more
  int limited_steps{0};  ///< of this phase: steps the error control held (not capped, not growing)
  std::optional<integrate::DenseStepper<kSmallState>> small_stepper;
  std::optional<integrate::DenseStepper<kMediumState>> medium_stepper;
  std::optional<integrate::DenseStepper<kLargeState>> large_stepper;
  std::optional<integrate::Dop853Stepper<kSmallState>> small_dop853;
  std::optional<integrate::Dop853Stepper<kMediumState>> medium_dop853;
  std::optional<integrate::Dop853Stepper<kLargeState>> large_dop853;
  Modes modes{};  ///< the modes the phase integrates (fixed along it)
  /// the broad phase (model::System::open_horizons): an open contact whose gap is not among the
  /// functions is proven open until open_until[c]; the step that reaches it adds the gap
  std::array<double, kMaxContacts> open_until{};
  int sleeping{0};        ///< open contacts whose gap is not among the functions
  bool woken{false};      ///< a contact was woken since the model was last asked
  double gap_noise{0.0};  ///< the round-off of t carried into the gaps (begin_ode_phase)
  std::array<Function, kMaxGuards> functions{};
  int count{0};
  std::array<double, kMaxGuards> tol{};
  std::array<integrate::Start, kMaxGuards> start{};
  EnergyLedger ledger_at_start{};  ///< the ledger when the phase began (its works add to it)
};

/// What the engine asks the model once per run (its sizes and optional capabilities), kept so
/// that a step makes no virtual call for them.
struct ModelShape {
  const model::ExactFlight* flight{nullptr};
  const model::CarriedMotion* carried{nullptr};
  const model::SymmetricPairs* symmetry{nullptr};
  int nq{0};
  int num_aux{0};
  int num_contacts{0};
  /// the coordinate named "y" (the apex section of a Runge–Kutta flight; found only when the
  /// options ask for the apex section), or −1
  int height{-1};
  bool guarded{false};  ///< the model guards its open contacts (model::System::contact_guards)
};

struct Data {
  ModelShape shape{};  ///< of the model the Data was made for

  // --- state ---
  double t{0.0};
  VecQ q{}, qd{};
  VecA aux{};
  Modes modes{};
  std::array<bool, kMaxContacts> closed_at_start{};  ///< InitialState::closed
  std::array<bool, kMaxContacts> released{};  ///< contacts that left without clearing the gap
  /// open contacts whose gap is not watched (shape.guarded): disabled by the model's guard, or
  /// enabled while the gap was still negative (watched again once it is positive)
  std::array<bool, kMaxContacts> ignored{};
  std::array<double, kMaxContacts> chatter_end{};  ///< predicted accumulation point, or NaN
  /// a chatter's bounces whose full prediction test is skipped: the last test's error estimate
  /// scales as v³, i.e. by e³ per bounce, so the bounces before it can pass are counted down
  std::array<int, kMaxContacts> chatter_skip{};
  std::array<double, kMaxContacts> chatter_last_v{};  ///< v⁺ of the contact's last bounce
  /// the first step resolves the start: an approaching contact's impact, or the modes
  bool started{false};
  int approaching{-1};  ///< the contact found approaching at the start, or −1

  // --- the last step ---
  Segment segment{};
  // default-initialized, not `{}`: value-initialization would first zero the steppers' storage
  // (≈ 8 KB of disengaged optionals), a cost on every short run (make_data)
  OdePhase ode;
  bool keep_events{true};           ///< whether steps fill `events` (options.record_events)
  std::vector<EventRecord> events;  ///< the events of the last step, in order

  // --- bookkeeping ---
  EnergyLedger energy{};  ///< initial, works and losses; kinetic/potential set by finish()
  Counters counters{};
  bool stopped{false};
  StopReason reason{StopReason::kEndTime};
  std::string message;  ///< why the run stopped
  double lambda_tol{0.0};
  std::vector<double> zeno_ring;  ///< the last zeno_events event times
  std::size_t zeno_pos{0};
  long phases{0};
  std::chrono::steady_clock::time_point wall_start{};

  // --- scratch, sized once ---
  // (default-initialized, not `{}`: zeroing their fixed-capacity storage first would cost more
  // than a short run; every member below has its own initializer)
  std::array<model::ContactGeometry, kMaxContacts> geometry;  ///< at the last event
  model::MassFactor mass;                                     ///< M at the last event configuration
  ConstrainedDynamics cd;
  /// the multi-point solver's (TwoContactRule::kMultipoint), made at the first collision
  std::optional<SimultaneousScratch> simultaneous{};
};

/// A Data at `init`: validates the options and the state (InvalidArgument naming the field: wrong
/// size, non-finite, penetrating an obstacle), finds the contacts closed at the start. The first
/// step() then resolves the start (an approaching contact's impact, or the modes) and returns at t.
[[nodiscard]] Data make_data(const model::System& model, const InitialState& init,
                             const SimulationOptions& options);

}  // namespace clatter::hybrid
