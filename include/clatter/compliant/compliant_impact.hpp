#pragma once
/// @file
/// One impact of a body on a rough rigid half-space through the two-spring compliant contact
/// (compliant_contact.hpp), solved phase by phase in closed form ([Bi] §3.3, §4.2; spec
/// 002_pendulum.md §3.3–3.10, Fig 3.2 case catalogue).
///
/// Start: u = 0, (ẋ, ż) = (ẋ0, ż0), ż0 < 0. Initial mode ([Bi] Eq. 3.52–3.53):
/// @verbatim
///   |ẋ0/ż0| < μη  ⇒ stick;   otherwise slip with ŝ = sign ẋ0
/// @endverbatim
/// Tie |ẋ0/ż0| = μη (spec §6 item 10): slip if it is consistent (ŝ s grows from 0), else stick.
/// Transitions: stick → slip when |u1| = μη|u3| (ŝ = sign u1); slip → stick when s = 0; contact
/// ends when u3 returns to 0 (separation, t_f). Stick phases: stick_phase.hpp (modal closed form,
/// guaranteed first-event location); slip phases: slip_phase.hpp (analytic).
///
/// Wedging ([Bi] §4.2.1.5.2, spec §3.10): a slip phase with σ ≤ 0 whose u3 cannot return to 0
/// (u̇3 ≤ κ|u3|, κ = √−σ) is [Bi]'s divergence, decided analytically at the start of the phase
/// (t_wedge; no horizon). In the consistent hybrid model that slip stops when s reaches 0 (t_lock,
/// before anything diverges: energy is non-increasing) and the contact sticks. The solver follows
/// the motion on (unless Options::follow_lock is false): a periodic stick that reaches no event in
/// a full period is permanent (the body is jammed against the surface about a pre-loaded static
/// state), which is the Wedge outcome. For a pendulum the two views agree (tested).
///
/// Outcomes (phase sequences): GrossStick [stick], StickSlip [stick, slip], SlipStickSlip
/// [slip, stick, slip], GrossSlip [slip], Wedge (permanent contact), Other (any other sequence),
/// Unresolved (phase limit or a root search that did not converge; see `status`).
/// Times are measured from the first contact [s]; absent times are NaN, t_f = +∞ for a wedge.

#include <array>
#include <cstdint>
#include <limits>

#include "clatter/compliant/compliant_contact.hpp"
#include "clatter/core/enum_names.hpp"

namespace clatter::compliant {

inline constexpr int kMaxPhases = 32;
inline constexpr double kNoTime = std::numeric_limits<double>::quiet_NaN();

enum class Outcome : std::uint8_t {
  kGrossStick,
  kStickSlip,
  kSlipStickSlip,
  kGrossSlip,
  kWedge,
  kOther,
  kUnresolved,
};

[[nodiscard]] const char* to_string(Outcome outcome);

enum class SolveStatus : std::uint8_t {
  kOk,
  kPhaseLimit,      ///< more than max_phases phases
  kRootIterations,  ///< an event search hit its iteration limit
};

[[nodiscard]] const char* to_string(SolveStatus status);

}  // namespace clatter::compliant

namespace clatter {
template <>
struct EnumNames<compliant::Outcome> {
  static constexpr std::array<const char*, 7> names{
      "gross_stick", "stick_slip", "slip_stick_slip", "gross_slip", "wedge", "other", "unresolved"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() == static_cast<std::size_t>(compliant::Outcome::kUnresolved) + 1);
};
template <>
struct EnumNames<compliant::SolveStatus> {
  static constexpr std::array<const char*, 3> names{"ok", "phase_limit", "root_iterations"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() ==
                static_cast<std::size_t>(compliant::SolveStatus::kRootIterations) + 1);
};
}  // namespace clatter

namespace clatter::compliant {

struct Options {
  int max_phases{kMaxPhases};  ///< ≤ kMaxPhases
  bool follow_lock{true};      ///< continue after [Bi]'s wedging divergence is detected
};

struct Result {
  Outcome outcome{Outcome::kUnresolved};
  SolveStatus status{SolveStatus::kOk};
  int n_phases{0};
  std::array<Phase, kMaxPhases> phases{};
  double t_sigma{kNoTime};   ///< stick → slip of an initially sticking impact [s]
  double t_lt{kNoTime};      ///< first slip → stick of an initially sliding impact [s]
  double t_tl{kNoTime};      ///< stick → slip after t_lt [s]
  double t_c{kNoTime};       ///< end of compression: ż first reaches 0 [s]
  double t_f{kNoTime};       ///< end of contact (separation) [s]; +∞ for a wedge
  double t_wedge{kNoTime};   ///< start of the first slip meeting [Bi]'s divergence criterion [s]
  double t_lock{kNoTime};    ///< end (s = 0) of that slip in the consistent model [s]
  bool thesis_wedge{false};  ///< some slip phase met [Bi]'s divergence criterion
  bool contact_permanent{false};  ///< the motion ends in a permanent stick (no separation)
  State initial{};                ///< the state at first contact
  State final_state{};  ///< at separation; at the start of the permanent stick for a wedge

  [[nodiscard]] const Phase& last() const { return phases[n_phases - 1]; }
};

/// True when the impact starts in stick, with the tie rule above. @pre validate(model), ż0 < 0.
[[nodiscard]] bool starts_in_stick(const Model& model, double x_dot0, double z_dot0);

/// Throws InvalidArgument("x_dot0") when W is singular and (ẋ0, ż0) is not in range W (1e-9
/// relative): a constrained body cannot move its contact point across its constraint.
void require_in_range(const Model& model, double x_dot0, double z_dot0);

/// Solves one impact. Throws InvalidArgument naming "x_dot0" / "z_dot0" unless both are finite,
/// ż0 < 0 and (for a singular W) the velocity lies in range W, and the model's fields (validate).
/// Allocation-free.
[[nodiscard]] Result solve(const Model& model, double x_dot0, double z_dot0,
                           const Options& options = {});

/// The state at time t ∈ [0, t_end of the last phase], from the phase containing t (closed form).
/// Beyond the last phase's end (after separation) the state is the final one.
[[nodiscard]] State state_at(const Model& model, const Result& result, double t);

/// The outcome of a phase sequence (shared with the numerical reference integrator).
[[nodiscard]] Outcome classify(const Result& result);

/// Fills t_sigma, t_lt, t_tl from the phase list (shared with the reference integrator).
void fill_phase_times(Result& result);

}  // namespace clatter::compliant
