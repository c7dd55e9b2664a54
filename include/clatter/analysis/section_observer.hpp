#pragma once
/// @file
/// The observable of a sweep: a quantity sampled on a Poincaré section after the transient, and
/// the number of impacts. Three sections, all from what the engine reports (nothing is
/// interpolated here):
///  - SectionKind::kApex: the apex of the centre of mass in free flight (ẏ = 0, ÿ < 0;
///    hybrid::Section::kApex, [B] Fig 5.7): a coordinate q_i or a velocity q̇_i there;
///  - SectionKind::kImpact: every impact (hybrid::EventKind::kImpact: a contact's law applied) of
///    one contact or of any: the impact phase φ = Ω t mod 2π (Ω the forcing frequency), a
///    coordinate q_i, a pre-impact velocity q̇_i⁻, or the pre-impact normal relative velocity v_N⁻;
///  - SectionKind::kStroboscopic: the times t₀ + kT, T = 2π/Ω, from the start t₀ of the run (the
///    engine's samples with output_dt = T): q_i or q̇_i there;
///  - SectionKind::kCrossing: every crossing of a coordinate q_j through c in a direction (+1 up,
///    −1 down, 0 both; hybrid::Section::kCrossing, located by the engine in every phase): a
///    coordinate q_i or a velocity q̇_i there.
/// The impacts counted are the kImpact events after the transient (a plastic closure ending a
/// chatter is not one); per forcing period it is the number of impacts per period.
///
/// The periodic shortcut (PeriodicShortcut::tol > 0). The observer also watches the stroboscopic
/// states z_k = (q, q̇, a, contact modes)(t₀ + kT). With the window distance
///     d_k(p) = max_{j<p, i} |z_{k−j} − z_{k−j−p}|_i / max(1, |z_{k−j−p}|_i)
/// (∞ if the contact modes differ) and its ratio r = d_k(p)/d_{k−p}(p), the motion has closed on
/// a cycle of p forcing periods (the smallest such p ≤ max_cycle) when d_k(p) ≤ tol and either
/// d_k(p) ≤ 10⁻³ tol (round-off floor) or r < 1 with d_k(p) r/(1 − r) ≤ tol: the states still
/// to come move by less than tol if they converge geometrically at the rate seen. The observer
/// then asks the run to stop (keep_going() = false) and ignores what the run reports after t_k;
/// `extend` writes the rest of the record window by repeating the cycle's section values and
/// impacts (times in (t_{k−p}, t_k], shifted by multiples of pT), and gives the state at the end
/// t₀ + N T (N whole periods) as the cycle's state of the same index mod p.
/// What this means: for an orbit through a rigid carriage (every coordinate held by sticking
/// contacts, e.g. the rod riding the table between chatter and lift-off) the state after lift-off
/// depends on the phase only, so the cycle repeats to round-off and the shortcut changes nothing
/// beyond it. For an orbit approached geometrically the values written differ from the
/// brute-force run's by about tol relative (a multiplier ρ^p within 10⁻³ tol/d of 1 can leave up
/// to d/(1 − ρ^p)).
///
/// The stability check (PeriodicShortcut::check_stability, on by default). Near an UNSTABLE
/// periodic orbit that the run has reached along its stable manifold (started on it, or held by a
/// symmetry to round-off) the states repeat as well, but the brute-force run would leave the orbit
/// once round-off has grown. So a cycle is taken only after a perturbed replay (a `Replay` given
/// to the observer): from the latest state z_k with its velocities perturbed by
/// δq̇_i = ε max(1, |q̇_i|) s_i (ε = min(10⁴ tol, 10⁻⁴), s_i a fixed pattern of magnitudes ½…1; the
/// velocities only, so that no contact is pushed into its obstacle, and a closed contact's
/// projection keeps its constraints; not the velocities exactly 0 at every state of the cycle,
/// an invariant subspace the brute-force run keeps to as well, whose neutral directions — ẋ of a
/// ball bouncing in place — would drift), the run goes on for up to L = 4h periods (h ≥ 8, whole
/// cycles), and D_j, the distance (as d) of its state at t_k + jT from the cycle's state of the
/// same phase, decides:
///     D_j ≤ 10⁻³ ε at some j           → stable (the perturbation was wiped out: a carriage, a
///                                          completed chatter, or a fast contraction);
///     D_j > 10² ε at some j, or a failed replay → not shown stable;
///     at j = 2h, 3h, 4h: max_{j−h<i≤j} D_i < max_{i≤j−h} D_i → stable (the envelope has peaked
///                                          and falls: complex multipliers make D_j oscillate,
///                                          and a weakly damped orbit's transient can first grow);
///     none of these by j = L           → not shown stable.
/// A cycle not shown stable is not taken, nor any other for the next B periods (B = L, doubling
/// with every refusal: a run held near an unstable orbit pays O(log N) replays), and the run goes
/// on untouched: a value whose cycle is never taken is the brute-force run bit for bit. A taken
/// cycle costs at most L periods of replay. The shortcut stays off by default (it changes values
/// by up to ≈ tol).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "clatter/hybrid/event_record.hpp"
#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/system.hpp"

namespace clatter::analysis {

enum class SectionKind : std::uint8_t { kApex, kImpact, kStroboscopic, kCrossing };

[[nodiscard]] const char* to_string(SectionKind k);

/// What is sampled, by name: a coordinate name of the model ("y"), a velocity (its name with the
/// suffix "dot": "ydot"), and on the impact section also "phase" and "v_N".
struct Observable {
  SectionKind section{SectionKind::kApex};
  std::string quantity{"y"};
  int contact{-1};             ///< impact section: only this contact's impacts (−1: any contact)
  std::string crossing{};      ///< crossing section: the name of the coordinate q_j crossing
  double crossing_value{0.0};  ///< crossing section: c [unit of q_j]
  int crossing_direction{0};   ///< crossing section: +1 upward, −1 downward, 0 both
};

/// The quantity resolved against a model.
struct ResolvedObservable {
  SectionKind section{SectionKind::kApex};
  enum class Kind : std::uint8_t { kCoordinate, kVelocity, kPhase, kNormalVelocity } kind{};
  int index{0};  ///< coordinate index for kCoordinate / kVelocity
  int contact{-1};
  int crossing_index{-1};  ///< crossing section: the index j of the crossing coordinate
  double crossing_value{0.0};
  int crossing_direction{0};
};

/// The engine's section for an observable (Section::kNone for the impact section, which comes
/// from the events), with the crossing's coordinate, value and direction.
void set_engine_section(const ResolvedObservable& what, hybrid::SimulationOptions& options);

/// Throws InvalidArgument naming `field` (e.g. "observe") and listing the allowed names if the
/// quantity is unknown for the model and section, or the contact index out of range.
[[nodiscard]] ResolvedObservable resolve(const Observable& o, const model::System& model,
                                         const char* field);

/// The column name of an observable: "<quantity>_<section>" ("y_apex", "phase_impact",
/// "thetadot_crossing").
[[nodiscard]] std::string column_name(const Observable& o);

/// When to take the periodic shortcut (see the file comment): tol = 0 turns it off.
struct PeriodicShortcut {
  double tol{0.0};             ///< relative match of the stroboscopic states, in [0, 1e-3]
  int max_cycle{64};           ///< longest cycle looked for [forcing periods], in [1, 64]
  bool check_stability{true};  ///< take a cycle only after the perturbed replay (file comment)
};

/// The stability check's replay: runs the model from `start` for `periods` forcing periods and
/// passes its state at every stroboscopic time start.t + jT (j = 1 … periods) to `at`, which
/// returns false to end the replay early. Returns false if the run failed or stopped for another
/// reason than the end of the replay or `at`.
using Replay = std::function<bool(const hybrid::InitialState& start, int periods,
                                  const std::function<bool(int j, const hybrid::Sample&)>& at)>;

/// A recorder keeping the observable's values and counting impacts from t_record on. It stops
/// the run (StopReason::kCancelled) when `keep_going` (may be null) returns false, or when the
/// periodic shortcut closes a cycle (then cycle() > 0 and `extend` finishes the record).
/// Needs the engine's samples at t₀ + kT (SimulationOptions::output_dt = T) for the stroboscopic
/// section or the shortcut.
class SectionObserver final : public hybrid::Recorder {
 public:
  /// `replay` (may be empty: every cycle found is taken) runs the stability check.
  SectionObserver(const ResolvedObservable& what, double t_record, double omega,
                  bool (*keep)(const void*), const void* context, PeriodicShortcut shortcut = {},
                  Replay replay = {});

  void on_sample(const hybrid::Sample& s) override;
  void on_section(const hybrid::Sample& s) override;
  void on_event(const hybrid::EventRecord& e) override;
  bool keep_going() override { return cycle_ == 0 && (keep_ == nullptr || keep_(context_)); }

  /// Forcing periods of the closed cycle (0: none found).
  [[nodiscard]] int cycle() const { return cycle_; }
  /// The stroboscopic index k at which the cycle closed (its time t₀ + kT).
  [[nodiscard]] long closed_at() const { return strobe_; }
  /// Stability checks run, and cycles refused by them.
  [[nodiscard]] int checks() const { return checks_; }
  [[nodiscard]] int refusals() const { return refusals_; }
  /// After a closed cycle: appends the cycle's values and impacts in [t_record, t_end] past t_k,
  /// and sets the state at t_end = t₀ + N T. @pre cycle() > 0, N whole, N ≥ k.
  void extend(double t_end, long N, double& t, model::VecQ& q, model::VecQ& qd, model::VecA& aux);

  /// Moves the start of the record to t (a sweep whose transient is counted in events learns it
  /// during the run). @pre no value or impact at or after t has been seen yet.
  void set_record_from(double t) { t_record_ = t; }

  std::vector<double> values;
  long impacts{0};

 private:
  void log_value(double t, double v);
  [[nodiscard]] const hybrid::Sample& back(int m) const;  ///< the strobe m periods ago
  /// d(p) of the window that ends `from` periods ago
  [[nodiscard]] double window_distance(int from, int p) const;
  [[nodiscard]] bool closes(int p) const;
  /// The perturbed replay of the cycle of p periods ending at the latest state (file comment).
  [[nodiscard]] bool shown_stable(int p);

  ResolvedObservable what_;
  double t_record_;
  double omega_;
  bool (*keep_)(const void*);
  const void* context_;
  PeriodicShortcut shortcut_;
  // the shortcut's memory: the last 3·max_cycle + 1 stroboscopic states, and the section values
  // and impact times of at least the last 1.5·max_cycle periods (transient included)
  std::vector<hybrid::Sample> ring_;
  long strobe_{-1};                ///< index k of the latest stroboscopic state
  int head_{0};                    ///< its place in the ring (k mod its size)
  static constexpr int kKeys = 4;  ///< coordinates also kept in rings of their own (a pre-filter)
  std::vector<double> keys_;       ///< q_i of the ring's states, i < kKeys: at 2iR + slot and + R
  int lead_{0};                    ///< the coordinate that rejected the latest candidate
  double t_first_{0.0}, period_{0.0};
  int cycle_{0};
  double t_closed_{0.0};
  Replay replay_;
  int checks_{0}, refusals_{0};
  long quiet_until_{-1};  ///< after a refusal no cycle is taken before this strobe index
  long backoff_{0};       ///< the next refusal's quiet span [periods]
  std::vector<double> log_t_, log_v_;  ///< section values and their times
  std::vector<double> log_impacts_;    ///< impact times
};

}  // namespace clatter::analysis
