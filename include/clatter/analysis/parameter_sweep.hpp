#pragma once
/// @file
/// Brute-force sweeps of any named model parameter(s) on a 1-D or 2-D grid ([BP] §4.3 Fig. 8,
/// [B] §5.3 Fig 5.7, generalised): at every grid point, for every start (initial condition ×
/// direction, sweep_plan.hpp), simulate `transient_periods` forcing periods T = 2π/Ω, discard
/// them, and record an observable on a section for `record_periods` more (section_observer.hpp);
/// count its distinct values (the period of a periodic motion in section crossings) and the
/// impacts per period, and keep the run's stop reason. The forcing frequency Ω is the model's
/// parameter `period_parameter` at that point ("surface.omega" for the planar bodies), or, for a
/// model without one, the fixed `omega`.
///
/// A model without a forcing frequency (a walker, a free rocking block) measures the transient and
/// the record by another clock (SweepClock): seconds of simulated time, impacts of a named contact,
/// or crossings of the observable's section. With an event clock a value's run stops at the
/// (transient + record)-th counted event; the record holds what comes after the transient-th, and
/// a run that reaches `max_time` first is kept with SweepRecord::complete = false and a message
/// saying how many events it counted.
///
/// Carry-over (the seeds' procedure, CarryOver::kUp/kDown/kBoth): a value starts from the final
/// state (q, q̇, a) of the previous one in its chain, at the same phase of its own forcing:
/// t₀′ = (Ω t_end mod 2π)/(2π) · T′. A value whose run throws is recorded with the reason and the
/// next value starts from the last state that was reached.
///
/// Work is shared by chains (SweepPlan): to ranks as c mod ranks, or as SweepControl::next_chain
/// deals them (the CLI's MPI ranks: in order, to whichever asks); a process's chains to its
/// threads, in order, to whichever is free.
/// Each record depends only on its chain, so the records are the same at any thread or rank
/// count. Records already finished (a resumed sweep) are not recomputed: a chain continues from
/// the final state of its last finished value. The library never prints: progress and finished
/// records go to callbacks, and `keep_going` stops the sweep (the running values are dropped, not
/// recorded).

#include <atomic>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "clatter/analysis/section_observer.hpp"
#include "clatter/analysis/sweep_grid.hpp"
#include "clatter/analysis/sweep_plan.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/system.hpp"

namespace clatter::analysis {

/// What the transient and the record are measured in.
enum class SweepClock : std::uint8_t {
  kPeriods,    ///< forcing periods T = 2π/Ω (the seeds' sweeps; needs Ω)
  kTime,       ///< seconds of simulated time
  kImpacts,    ///< impacts (kImpact events) of contact `clock_contact` (−1: of any contact)
  kCrossings,  ///< crossings of the observable's section (apex or crossing sections)
};

[[nodiscard]] const char* to_string(SweepClock c);

/// The clock named by `spec`: "periods", "time", "impacts", "impacts:CONTACT" (a contact name of
/// `model`) or "crossings". Throws InvalidArgument naming `field` and the allowed names.
void parse_clock(std::string_view spec, const model::System& model, const char* field,
                 SweepClock& clock, int& contact);

/// The periodic shortcut's tolerance where the user gave none: on under the periods clock (the
/// model is forced, and the shortcut watches its stroboscopic states), off (0) under the other
/// clocks. With it, a value's record differs from the full run's by about 1e-10 relative, and
/// not at all through a rigid carriage (section_observer.hpp); a cycle is taken only after the
/// perturbed replay shows it stable. `clatter sweep --no-periodic-shortcut` and Python's
/// periodic_tol=0 run every value in full.
inline constexpr double kDefaultPeriodicTol = 1e-10;
[[nodiscard]] constexpr double default_periodic_tol(SweepClock clock) {
  return clock == SweepClock::kPeriods ? kDefaultPeriodicTol : 0.0;
}

struct ParameterSweep {
  SweepGrid grid;
  CarryOver carry{CarryOver::kNone};
  Observable observe{};
  double transient_periods{1000.0};  ///< discarded, in units of `clock` (forcing periods)
  double record_periods{200.0};      ///< recorded after the transient, in units of `clock`
  SweepClock clock{SweepClock::kPeriods};
  int clock_contact{-1};  ///< kImpacts: the contact whose impacts count (−1: any)
  /// event clocks: a value's run ends max_time [s] after its start if its count is not reached
  double max_time{0.0};
  std::string period_parameter{"surface.omega"};  ///< Ω by name ("" : use `omega`)
  double omega{0.0};                              ///< Ω [rad/s] when period_parameter is empty
  /// stop a value's run once its stroboscopic states close a cycle, and write the rest of the
  /// record by repeating it (section_observer.hpp: exact through a rigid carriage, within about
  /// tol relative otherwise; off here, on by default in `clatter sweep` and Python's
  /// sweep_parameters under the periods clock: default_periodic_tol). Taken only when
  /// transient_periods + record_periods is a whole number.
  PeriodicShortcut periodic{};
};

/// One (grid point, run) of a sweep.
struct SweepRecord {
  std::size_t point{0};
  int run{0};
  std::vector<double> values;  ///< the observable on the section, after the transient
  /// distinct values (count_distinct: 1e-6 relative; −1 above 64): 1 for period 1, 0 if the
  /// section was never crossed (e.g. sustained contact on the apex section)
  int distinct{0};
  long impacts{0};                 ///< impacts after the transient
  double impacts_per_period{0.0};  ///< impacts / record_periods (per unit of the clock)
  /// false: an event clock's count was not reached by max_time (the record is short; message)
  bool complete{true};
  hybrid::StopReason reason{hybrid::StopReason::kEndTime};
  std::string message;  ///< the simulator's stop message
  std::string error;    ///< non-empty if the run threw: why (then reason is moot)
  long events{0};       ///< events of the whole run
  long rk_steps{0};     ///< Runge–Kutta steps of the whole run
  int cycle{0};         ///< the periodic shortcut's cycle [forcing periods] (0: run in full)
  long closed_at{0};    ///< the forcing period at which it closed (periods simulated)
  int refused{0};       ///< cycles the shortcut's stability check refused (section_observer.hpp)
  /// CPU time of the value's run on its thread [s] (0 for a record finished before a resume);
  /// not a result: outputs that must be the same at any thread count leave it out
  double seconds{0.0};
  double t{0.0};  ///< final state (carry-over, resume)
  model::VecQ q{};
  model::VecQ qd{};
  model::VecA aux{};
  std::exception_ptr failure;  ///< the exception of a failed run (this process only)
};

/// How the sweep is run. Callbacks are called one at a time (never concurrently).
struct SweepControl {
  int threads{1};  ///< threads of this process, ≥ 1
  int rank{0};  ///< this process among `ranks` (MPI): it runs the chains c with c mod ranks = rank
  int ranks{1};
  /// Dynamic dealing (replaces rank/ranks when set): the next chain for this process to run, or
  /// any value ≥ SweepPlan::chains() when none is left (then it is not called again by that
  /// thread). Called by the worker threads one at a time. Any chain may come to this process, so
  /// every finished record (resume) is taken as possibly its own: on_resumed sees all of them,
  /// and `total` in on_record is the whole sweep's.
  std::function<std::size_t()> next_chain;
  /// records finished earlier (a resumed sweep): not recomputed, returned as they are
  std::vector<SweepRecord> finished;
  /// more records finished earlier, from a source that passes each of them to its argument (e.g.
  /// a journal on disk): called twice, so that none has to be held (keep_records = false keeps
  /// only the one each chain continues from)
  std::function<void(const std::function<void(const SweepRecord&)>&)> finished_source;
  /// called when a record is finished, with the numbers of this process's records done (finished
  /// earlier included) and in all
  std::function<void(const SweepRecord&, std::size_t done, std::size_t total)> on_record;
  /// polled during the runs, from any thread (thread-safe): false stops the sweep
  std::function<bool()> keep_going;
  /// true: the outcome holds this process's records. false: it holds none, and every record is
  /// only handed to on_resumed or on_record, so that the memory of a sweep does not grow with its
  /// grid (a caller streams the records to its outputs)
  bool keep_records{true};
  /// called once for each finished record that stands (a resumed chain's prefix), before any run
  std::function<void(const SweepRecord&)> on_resumed;
};

struct SweepOutcome {
  /// this process's records (all when ranks = 1) in the order (point, run); empty unless
  /// SweepControl::keep_records
  std::vector<SweepRecord> records;
  /// false if keep_going stopped it. With next_chain: every chain dealt to this process ran to
  /// its end (the sweep is complete when this holds on every process and the dealer is empty)
  bool complete{true};
};

/// Throws InvalidArgument naming the field: grid of 0 or more than 2 axes, an axis with n ∉ [1,
/// 1e6], non-finite ends, a repeated or unknown parameter or a value out of its range (the model
/// rebuilt at the grid's corners), negative durations, no initial state, an unknown observable,
/// no forcing frequency where one is needed (the periods clock, the stroboscopic section, the
/// impact phase, the periodic shortcut), an event clock with counts that are not whole or no
/// max_time > 0, a crossings clock without an apex or crossing section, a clock contact out of
/// range, periodic.tol ∉ [0, 1e-3] or periodic.max_cycle ∉ [1, 64], threads ∉
/// [1, 256], rank ∉ [0, ranks).
void validate(const ParameterSweep& sweep, const model::System& model,
              const std::vector<hybrid::InitialState>& initials, const SweepControl& control);

/// Runs the sweep from the initial conditions `initials` (one per initial-condition index).
/// `options` supplies the tolerances and guards; t_end, the section and the recording are set per
/// value. @pre validate passed.
[[nodiscard]] SweepOutcome run_sweep(const model::System& model,
                                     const std::vector<hybrid::InitialState>& initials,
                                     const hybrid::SimulationOptions& options,
                                     const ParameterSweep& sweep, SweepControl control);

}  // namespace clatter::analysis
