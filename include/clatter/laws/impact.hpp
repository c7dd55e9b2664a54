#pragma once
/// @file
/// The one interface shared by every planar impact law in clatter.
///
/// An impact on a single contact with frozen configuration ([NDC] §2.1, [BP] §2) maps the
/// pre-impact relative contact velocity v⁻ = (v_T⁻, v_N⁻), v_N⁻ < 0 (approach), to the
/// post-impact velocity v⁺ through a total impulse Λ = (Λ_T, Λ_N):
/// @verbatim
///   v⁺ = v⁻ + W Λ,        Λ_N ≥ 0,        |Λ_T| ≤ μ Λ_N   (Coulomb)
///   ΔE = ½ Λ·(v⁻ + v⁺) = ½ v⁺ᵀW⁻¹v⁺ − ½ v⁻ᵀW⁻¹v⁻   (kinetic-energy change [J], ≤ 0 iff
///   dissipative)
/// @endverbatim
/// Every law returns an ImpactOutcome with the same diagnostics, so laws can be swapped in a
/// simulation and compared. Laws that are not energy-consistent (Newton with friction, Poisson with
/// friction, plain Brach) report Status::kEnergyGain instead of hiding a gain.
///
/// References: [NDC] Nordmark, Dankowicz & Champneys 2009; [BP] Burns & Piiroinen 2015;
/// [B] Burns, PhD thesis. See docs/laws.md.

#include <array>
#include <cstdint>

#include "clatter/contact/contact_matrix.hpp"
#include "clatter/core/enum_names.hpp"
#include "clatter/core/types.hpp"

namespace clatter {

/// Contact mode during one segment of an impact, in impulse time p_N.
enum class SlipMode : std::uint8_t {
  kSlipPositive,  ///< v_T > 0, λ_T = −μ λ_N
  kSlipNegative,  ///< v_T < 0, λ_T = +μ λ_N
  kStick,         ///< v_T ≡ 0, λ_T = −(B/A) λ_N, |B| ≤ μA
};

/// One straight segment of the impact trajectory in the (v_T, v_N) plane.
struct Segment {
  SlipMode mode{SlipMode::kStick};
  double p_N_begin{0.0};  ///< normal impulse at the start of the segment [N·s]
  double p_N_end{0.0};    ///< normal impulse at its end [N·s]
};

/// Expected outcomes of a law; misuse (bad input) throws instead.
enum class Status : std::uint8_t {
  kOk,          ///< result valid and ΔE ≤ 0
  kEnergyGain,  ///< result is what the law prescribes, but ΔE > 0 (law is not energy-consistent)
  kSingular,    ///< the law's normal impulse is unbounded or negative (e.g. Brach with D(μ) ≤ 0)
  kNoTermination,  ///< an impulse-space integration did not reach its termination condition
};

[[nodiscard]] const char* to_string(Status s);
[[nodiscard]] const char* to_string(SlipMode m);

template <>
struct EnumNames<Status> {
  static constexpr std::array<const char*, 4> names{"ok", "energy_gain", "singular",
                                                    "no_termination"};
  // a value added without its word (or a word without its value) does not compile
  static_assert(names.size() == static_cast<std::size_t>(Status::kNoTermination) + 1);
};

/// The contact state at the onset of the impact.
struct ImpactInput {
  Vec2 v_pre{0.0, -1.0};  ///< (v_T⁻, v_N⁻) [m/s], v_N⁻ < 0
  ContactMatrix W{};      ///< contact-space inverse inertia, SPD
};

/// Law parameters. Each law reads the ones it needs.
struct ImpactParams {
  double mu{0.0};  ///< Coulomb friction coefficient μ ≥ 0 (Brach: the friction bound μ_f)
  double e{
      0.0};  ///< restitution in [0, 1]: e_N (Newton/Whittaker/Brach), e_P (Poisson), e* (Stronge)
  /// Stronge's closed form only: apply this region's formula (0–10) whatever the classification,
  /// for the "forced region" continuation through a boundary of [NDC] §5 (the result is then
  /// admissible only where the region's boundary functions have its sign); −1: classify
  int forced_region{-1};
};

inline constexpr int kMaxSegments = 4;

struct ImpactOutcome {
  Vec2 v_post{0.0, 0.0};  ///< (v_T⁺, v_N⁺) [m/s]
  Vec2 Lambda{0.0, 0.0};  ///< total impulse (Λ_T, Λ_N) [N·s]
  int region{-1};         ///< Stronge region 1–10, 0 = immediate stick; −1 when not applicable
  int brach_case{-1};     ///< extended-Brach case 1–8; −1 when not applicable
  double delta_energy{0.0};     ///< ΔE = ½ Λ·(v⁻ + v⁺) [J]
  double p_N_compression{0.0};  ///< normal impulse at the end of compression (v_N = 0) [N·s]
  Status status{Status::kOk};
  bool ends_in_stick{false};  ///< v_T⁺ = 0 by impulsive stick (the map has co-rank 1)
  int n_segments{0};
  std::array<Segment, kMaxSegments> segments{};
};

/// Sets delta_energy = ½ Λ·(v⁻ + v⁺) and, if it exceeds round-off relative to the approach energy
/// ½ v⁻ᵀW⁻¹v⁻, sets status (if kOk) to kEnergyGain.
void account_energy(const ImpactInput& in, ImpactOutcome& out);

/// Fills Lambda = W⁻¹(v⁺ − v⁻) and delta_energy from v_post, and sets status to kEnergyGain when
/// ΔE exceeds round-off (relative to the approach energy ½ v⁻ᵀW⁻¹v⁻).
void finish_from_velocity(const ImpactInput& in, ImpactOutcome& out);

/// Fills v_post = v⁻ + WΛ and delta_energy from Lambda, with the same energy check.
void finish_from_impulse(const ImpactInput& in, ImpactOutcome& out);

/// Throws InvalidArgument naming the field unless: v_pre finite with v_N⁻ < 0, W SPD,
/// μ ≥ 0 finite, e ∈ [0, 1].
void validate(const ImpactInput& in, const ImpactParams& params);

}  // namespace clatter
