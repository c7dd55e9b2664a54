#pragma once
/// @file
/// Every tolerance of the event-driven engine, with its unit, in one place. They are relative to
/// scales the model states (model::System: gap scale of a contact [m], velocity_scale [m/s],
/// force_scale [N], mass_scale [kg]), so that they hold for any units and sizes of the system.
///
/// @verbatim
///   name                    value   unit / meaning
///   kGapTol                 1e-12   × (1 + gap scale) [m]: a gap this small is zero
///   kTouchingGaps           1e3     × gap tol: contacts this close touch at an impact
///   kStartPenetration       1e-6    × (1 + gap scale) [m]: a start below an obstacle by less
///                                   is touching it (the perturbed starts of the analysis'
///                                   differences); by more it is refused
///   kFlightRootTol          64 ε    × (1 + gap scale) [m]: root accuracy in exact flights
///   kVelocityTol            1e-12   × (1 + velocity scale) [m/s]: a speed this small is zero
///   kForceTol               1e-9    × force scale [N]: λ this small is zero (cone margins)
///   kBounceFloor            1e5     × velocity tol: a lone bounce slower than this that falls
///                                   back is closed (below the motion's resolution)
///   kPairBounceFloor        1e-4    [m/s]: bound of the same test with several contacts
///   kMultipointApproach     1e-8    × largest contact speed: approach for the multi-point law
///   kNearlySymmetricPair    1e-6    relative: two contacts' velocities equal → pair impact
///   kPairChatterSpread      0.1     relative: two contacts leaving together (pair chatter)
///   kChatterDifferenceStep  1e-4    [s]: step of the central differences of a_N', a_N''
///   kChatterExpansionBound  0.1     ε₁ = |b| Δt₁/α above which a chatter is not predicted
///   kWallClockCheckEvery    256     phases between reads of the wall clock
/// @endverbatim

#include <limits>

namespace clatter::hybrid::tol {

inline constexpr double kGapTol = 1e-12;
inline constexpr double kTouchingGaps = 1e3;
inline constexpr double kStartPenetration = 1e-6;
inline constexpr double kFlightRootTol = 64.0 * std::numeric_limits<double>::epsilon();
inline constexpr double kVelocityTol = 1e-12;
inline constexpr double kForceTol = 1e-9;
inline constexpr double kBounceFloor = 1e5;
inline constexpr double kPairBounceFloor = 1e-4;
inline constexpr double kMultipointApproach = 1e-8;
inline constexpr double kNearlySymmetricPair = 1e-6;
inline constexpr double kPairChatterSpread = 0.1;
inline constexpr double kChatterDifferenceStep = 1e-4;
inline constexpr double kChatterExpansionBound = 0.1;
inline constexpr int kWallClockCheckEvery = 256;

}  // namespace clatter::hybrid::tol
