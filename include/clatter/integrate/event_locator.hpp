#pragma once
/// @file
/// Location of the first event on one step of a dense-output integration, over several event
/// functions at once.
///
/// Every event function e_j(t) is oriented so that the event is e_j falling through zero
/// (gap g_N → 0⁻: impact; λ_N → 0⁻: lift-off; μλ_N − |λ_T| → 0⁻: slip onset; s·v_T → 0⁻: end of
/// a slip). On [t₀, t₁] all functions are sampled at m + 1 points of the interpolant:
///   - a sign change brackets a root, refined by TOMS 748 (root_finding.hpp);
///   - where the slope e′ is known (the gap, whose slope is v_N), a change of e′ from − to +
///     between samples is a local minimum: it is located (root of e′) and a root pair below it is
///     found even when both samples are positive (near-grazing double roots are not skipped);
///   - a start on the surface (|e(t₀)| ≤ tol with e′(t₀) > 0, just after an impact; or any start
///     flagged kReleased, just after a lift-off) is not an event: the function is armed once it
///     exceeds tol, or bracketed from its first maximum when it falls back before that, so a short
///     flight (chatter) is found and the restart point does not re-trigger;
///   - a flight too short to resolve (its maximum ≤ tol) is reported as RootKind::kGraze;
///   - a start flagged kBelow (a guarded contact enabled inside its obstacle,
///     model::System::contact_guards) is not an event while it stays at or below tol: it is armed
///     once it exceeds tol, or bracketed from its maximum when it rose above tol and fell through
///     zero between two samples; a rise that stays below tol is nothing.
/// Of the candidates in the earliest sample interval, the earliest refined time wins.
///
/// The event source E provides
///   void all(double t, Scratch<ValueSlope, kMax>& out)   functions [0, count) at t
///   ValueSlope one(double t, int j)                       function j at t
/// with slope = NaN where it is not known.

#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

#include "clatter/core/scratch.hpp"
#include "clatter/integrate/root_finding.hpp"

namespace clatter::integrate {

enum class Start : std::uint8_t {
  kNormal,    ///< must be positive (or on the surface and rising) at t₀
  kReleased,  ///< just released on the surface: not an event until it first exceeds tol
  kBelow,     ///< below the surface, waiting: not an event until it first exceeds tol
};

struct FirstEvent {
  RootKind kind{RootKind::kNone};
  int function{-1};
  double t{0.0};
};

template <std::size_t kMax, class E>
[[nodiscard]] FirstEvent locate_first_event(E& source, int count, double t0, double t1, int samples,
                                            const std::array<double, kMax>& tol,
                                            const std::array<Start, kMax>& start) {
  FirstEvent best;
  best.t = t1;
  // the samples at the two ends of the current interval (swapped, not copied, as it advances)
  Scratch<ValueSlope, kMax> buffer_a;
  Scratch<ValueSlope, kMax> buffer_b;
  Scratch<ValueSlope, kMax>* prev_p = &buffer_a;
  Scratch<ValueSlope, kMax>* cur_p = &buffer_b;
  // each function's state: armed (0), on the surface (1), or waiting below it (2)
  enum : std::uint8_t { kArmed, kOnSurface, kWaiting };
  Scratch<std::uint8_t, kMax> state;
  const auto known = [](const ValueSlope& v) { return !std::isnan(v.slope); };
  source.all(t0, *prev_p);
  for (int j = 0; j < count; ++j) {
    const auto i = static_cast<std::size_t>(j);
    const ValueSlope& p = (*prev_p)[i];
    if (start[i] == Start::kReleased || start[i] == Start::kBelow) {
      state[i] = p.value > tol[i] ? kArmed : start[i] == Start::kReleased ? kOnSurface : kWaiting;
    } else if (p.value > tol[i]) {
      state[i] = kArmed;
    } else if (p.value > -tol[i] && known(p) && p.slope > 0.0) {
      state[i] = kOnSurface;
    } else {
      return {RootKind::kCrossing, j, t0};  // on the event side at the start
    }
  }
  double tp = t0;
  for (int k = 1; k <= samples; ++k) {
    const double t = k == samples ? t1 : t0 + (t1 - t0) * k / samples;
    source.all(t, *cur_p);
    for (int j = 0; j < count; ++j) {
      const auto i = static_cast<std::size_t>(j);
      const ValueSlope& p = (*prev_p)[i];
      const ValueSlope& c = (*cur_p)[i];
      const auto value_of = [&](double x) { return source.one(x, j).value; };
      const auto slope_of = [&](double x) { return source.one(x, j).slope; };
      FirstEvent cand;
      if (state[i] != kArmed) {
        if (c.value > tol[i]) {
          state[i] = kArmed;
        } else if (known(c) && c.slope < 0.0 && known(p) && p.slope > 0.0) {
          // rose and fell within (tp, t): bracket from the maximum (waiting below the surface:
          // an event only if it rose above tol first)
          const double tm = refine_root(slope_of, tp, t, p.slope, c.slope);
          const double vm = value_of(tm);
          if (vm <= tol[i]) {
            if (state[i] == kOnSurface) cand = {RootKind::kGraze, j, tp};
          } else if (c.value <= 0.0) {
            cand = {RootKind::kCrossing, j, refine_root(value_of, tm, t, vm, c.value)};
          } else {
            state[i] = kArmed;
          }
        } else if (c.value < -tol[i] && state[i] == kOnSurface) {
          cand = {RootKind::kGraze, j, tp};  // fell back without a resolvable flight
        }
      } else if (c.value <= 0.0) {
        cand = {RootKind::kCrossing, j, refine_root(value_of, tp, t, p.value, c.value)};
      } else if (known(p) && known(c) && p.slope < 0.0 && c.slope > 0.0) {
        // a local minimum between two positive samples: a root pair may hide below it
        const double tm = refine_root(slope_of, tp, t, p.slope, c.slope);
        const double vm = value_of(tm);
        if (vm <= 0.0) {
          cand = {RootKind::kCrossing, j, refine_root(value_of, tp, tm, p.value, vm)};
        } else if (vm <= tol[i]) {
          cand = {RootKind::kGraze, j, tm};
        }
      }
      if (cand.kind != RootKind::kNone && (best.kind == RootKind::kNone || cand.t < best.t)) {
        best = cand;
      }
    }
    if (best.kind != RootKind::kNone) return best;
    std::swap(prev_p, cur_p);
    tp = t;
  }
  return best;
}

}  // namespace clatter::integrate
