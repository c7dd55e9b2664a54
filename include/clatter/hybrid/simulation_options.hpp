#pragma once
/// @file
/// Options of an event-driven simulation (simulator.hpp). Every long run is bounded: by t_end, by
/// max_events, and by the Zeno guard; the result says which bound stopped it.

#include <cstdint>

#include "clatter/hybrid/constrained_dynamics.hpp"

namespace clatter::hybrid {

/// How a complete-chatter sequence (impacts with v → 0 in finite time) is ended.
enum class ChatterPolicy : std::uint8_t {
  kAccumulation,  ///< predict the accumulation point (chatter.hpp) and jump there (default)
  kCutoff,  ///< the seeds' rule: an impact with |v_N⁻| < v_tol closes the contact ([BP] §5.1)
};

/// How impacts of two contacts at (numerically) the same instant are resolved.
enum class TwoContactRule : std::uint8_t {
  kSequential,  ///< single-contact impacts one after another, the most approaching contact first,
                ///< until no touching contact approaches (every step is the contact's own law)
  kMultipoint,  ///< (default) simultaneous resolution by the multi-point energetic law of [R]
                ///< (simultaneous_impact.hpp) when the touching contacts use Stronge's law:
                ///< rigid-body constraints fix the impulse ratios, e* ends each event. Where the
                ///< solver fails (a numerically singular slip-state system), a nearly symmetric
                ///< pair gets equal impulses and anything else is resolved sequentially. Other
                ///< laws: sequential.
  kSymmetric,  ///< the seeds' reduction ([BP] §5.2 VII, X–XIII): if the body is within θ_crit of
               ///< the angle where the two contacts are level, level it, stop its spin, and apply
               ///< one impact with equal impulses at both (J = (J_i + J_j)/2)
};

/// What a sliding contact with k_N ≤ 0 (Painlevé: no consistent contact force) does.
enum class PainlevePolicy : std::uint8_t {
  kStop,                    ///< (default) the run stops with StopReason::kPainleve and says where
  kImpactWithoutCollision,  ///< if it is the only closed contact and k_N < 0: Stronge's law from
                            ///< v⁻ = (v_T, 0) (laws/impact_without_collision.hpp), the contact
                            ///< opens; otherwise (several closed contacts, k_N = 0) as kStop
};

/// The Runge–Kutta method of the phases without a closed form (any contact closed, or no exact
/// flight). Both locate events on their dense output.
enum class Integrator : std::uint8_t {
  kAuto,    ///< (default) DOP853 where rel_tol < kDop853BelowRelTol, DOPRI5 otherwise; and
            ///< DOPRI5 after a DOP853 phase whose steps were all capped at max_dt (until a
            ///< DOPRI5 phase's steps are limited by its error control: OdePhase)
  kDopri5,  ///< Dormand–Prince 5(4), 4th-order interpolant (integrate/dense_stepper.hpp)
  kDop853,  ///< Dormand–Prince 8(5,3), 7th-order interpolant (integrate/dop853_stepper.hpp)
};
/// kAuto takes DOP853 below this relative tolerance: at 1e-12 it needs ~6× fewer steps and 2.4×
/// fewer right-hand sides than DOPRI5 on the rod on a belt (docs/performance.md, "An order-8
/// Runge–Kutta").
inline constexpr double kDop853BelowRelTol = 1e-7;

/// A Poincaré section reported to Recorder::on_section.
enum class Section : std::uint8_t {
  kNone,
  kApex,  ///< ẏ = 0 with ÿ < 0 in free flight: the apex of the centre of mass ([B] Fig 5.7)
  /// q_i − c changes sign in the given direction (SimulationOptions::crossing_coordinate i,
  /// crossing_value c, crossing_direction), located in every phase of the motion: exact flights
  /// and closed-form carried contact by the guaranteed first-root search with the model's bound
  /// |q̈_i| ≤ M₂, Runge–Kutta phases on the interpolant (the samples of the event search, a root
  /// pair below an extremum of q_i included). Upward: from q_i < c to q_i ≥ c; downward: from
  /// q_i ≥ c to q_i < c. The time is refined to a few ulps (TOMS 748) or to the flight-root
  /// tolerance; the state passed is the flow's at that time (q_i = c to round-off). A jump of q at
  /// an event (the symmetric levelling) is not a crossing; a tangency of q_i to c is none.
  kCrossing,
};

struct SimulationOptions {
  double t_end{10.0};               ///< final time [s]
  long max_events{10'000'000};      ///< bound on the number of events
  long max_steps{10'000'000};       ///< bound on Runge–Kutta steps (StopReason::kMaxSteps)
  double max_wall_time{0.0};        ///< wall-clock limit of the run [s] (0: none)
  double output_dt{0.0};            ///< sample period [s] (0: no samples)
  bool record_events{true};         ///< pass every event to the recorder
  Section section{Section::kNone};  ///< Poincaré section passed to Recorder::on_section
  int crossing_coordinate{-1};      ///< kCrossing: the index i of q_i, in [0, nq)
  double crossing_value{0.0};       ///< kCrossing: c [unit of q_i], finite
  int crossing_direction{0};        ///< kCrossing: +1 upward, −1 downward, 0 both

  // flows
  bool exact_flight{true};   ///< closed-form free flight where all contacts are open
  bool exact_contact{true};  ///< closed-form sustained contact where the model offers it
                             ///< (model::CarriedMotion: a body riding or sticking on its obstacle)
  /// skip the gaps of contacts the model proves open (model::System::open_horizons); false
  /// evaluates every gap at every sample, to check a model's bounds against
  bool broad_phase{true};
  double abs_tol{1e-12};  ///< Runge–Kutta error tolerances (phases with closed contacts)
  double rel_tol{1e-12};
  double max_dt{0.05};  ///< largest Runge–Kutta step [s]
  Integrator integrator{Integrator::kAuto};
  int event_samples{4};  ///< samples of the interpolant per step for event location
  Stabilization stabilization{};

  // chatter and two contacts
  ChatterPolicy chatter{ChatterPolicy::kAccumulation};
  double v_tol{1e-6};         ///< kCutoff: critical normal speed [m/s]
  double chatter_tol{1e-12};  ///< kAccumulation: accepted error of the accumulation time [s]
  /// kAccumulation: a chatter is ended at its predicted accumulation point only once it is
  /// predicted to last less than this [s]; the bounces before are simulated one by one (0: end
  /// it at the first accurate prediction). A plot shows the bounces when it is the sample step.
  double chatter_horizon{0.0};
  TwoContactRule two_contact{TwoContactRule::kMultipoint};
  double theta_crit{1e-3};  ///< kSymmetric: angle window [rad]
  PainlevePolicy painleve{PainlevePolicy::kStop};

  // guards
  int zeno_events{1000};  ///< this many events within zeno_window stops the run (status kZeno)
  double zeno_window{1e-9};
};

[[nodiscard]] const char* to_string(TwoContactRule r);
[[nodiscard]] const char* to_string(ChatterPolicy p);
[[nodiscard]] const char* to_string(PainlevePolicy p);
[[nodiscard]] const char* to_string(Integrator i);
/// The method a run with these options uses (kAuto resolved by rel_tol).
[[nodiscard]] Integrator resolved_integrator(const SimulationOptions& o);

/// Throws InvalidArgument naming the field for a non-positive tolerance, step, horizon and so on.
void validate(const SimulationOptions& o, double t0);
/// The same, and the section's coordinate against the model's nq (crossing_coordinate in [0, nq)).
void validate(const SimulationOptions& o, double t0, int nq);

}  // namespace clatter::hybrid
