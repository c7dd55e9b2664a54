#pragma once
/// @file
/// Every crossing of a smooth function v(t) through zero on an interval, in both directions (the
/// coordinate-crossing Poincaré section, v = q_i − c). Two searches, for the two kinds of flow:
///
/// 1. all_crossings_curvature_bound: v known in closed form with a bound |v″| ≤ M₂ on [t₀, t₁]
///    (exact flights, closed-form carried contact). With σ = ±1 the side v starts on and g = σ v,
/// @verbatim
///      g(t + s) ≥ g(t) + g′(t) s − ½ M₂ s²  > 0   for  0 ≤ s < s*(t) = (g′ + √(g′² + 2M₂g)) / M₂
/// @endverbatim
///    (the bound holds for −v as for v), so the step t ← t + s* never passes a crossing: the search
///    of root_finding.hpp (first_root_curvature_bound) run on g, and after each crossing on −g from
///    the crossing, until t₁. A sign test at sample points would not do: a quadratic can cross
///    twice (up then down) between two samples. A tangency within `tol` (0 ≤ g ≤ tol where the
///    safe step falls below the resolution of t) is no crossing: the search steps over it by
///    √(2 tol/M₂), within which g ≥ −tol, and reports a crossing only if the class changed.
/// 2. all_crossings_on_samples: v on a dense-output interpolant, with its slope v′ (the rate of the
///    coordinate). The samples of the event search (event_locator.hpp) are used: a class change
///    between two samples is refined by TOMS 748; where v′ changes sign towards zero between two
///    samples of one class (a minimum of v ≥ 0, a maximum of v < 0), the extremum is located and a
///    crossing pair below it refined. So no crossing pair is missed that the event search would
///    see for a gap (one extremum per sample interval).
///
/// Classes: v ≥ 0 is "above", v < 0 "below"; an upward crossing (direction +1) goes from below to
/// above, a downward one (−1) from above to below. Crossings are reported on (t₀, t₁] in time order
/// to `emit(t, direction)`. Functions f are callables t ↦ ValueSlope{v(t), v′(t)}.

#include <algorithm>
#include <cmath>
#include <limits>

#include "clatter/integrate/root_finding.hpp"

namespace clatter::integrate {

enum class CrossingSearchStatus : std::uint8_t {
  kDone,    ///< the interval was searched to its end
  kFailed,  ///< the evaluation budget ran out (crossings after the last reported one unknown)
};

/// All crossings of v on (t0, t1] for |v″| ≤ M2 (see the file comment); `tol` is the absolute
/// tolerance on v that counts as zero; `max_evaluations` bounds the evaluations between two
/// crossings (a long carried phase may cross many times). @pre M2 ≥ 0, t0 ≤ t1.
///
/// From a point within tol of zero and moving towards it, the crossing is bracketed by one trial
/// point ahead (where the tangent line reaches −tol, at most √(2 tol/M₂) ahead) and refined by
/// TOMS 748 (to a few ulps of t); if the trial point is on the same side, the safe steps go on (a
/// tangency, or a crossing pair, is approached from above without passing it).
template <class F, class Emit>
[[nodiscard]] CrossingSearchStatus all_crossings_curvature_bound(F&& f, Emit&& emit, double t0,
                                                                 double t1, double M2, double tol,
                                                                 int max_evaluations = 800) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  const auto value = [&](double x) { return f(x).value; };
  double t = t0;
  ValueSlope fv = f(t);
  int evaluations = 1;
  double sigma = fv.value >= 0.0 ? 1.0 : -1.0;  // the class at t: g = σ v ≥ 0
  const auto changed = [&](double v) { return (v >= 0.0) != (sigma > 0.0); };
  // a crossing in [a, b] (v(a), v(b) of opposite classes): report it; the class flips
  const auto cross = [&](double a, double b, double va, double vb) {
    emit(refine_root(value, a, b, va, vb), sigma > 0.0 ? -1 : 1);
    sigma = -sigma;
    evaluations = 0;
  };
  while (evaluations < max_evaluations) {
    const double g = sigma * fv.value;
    const double gs = sigma * fv.slope;
    const double t_min_step = 8.0 * kEps * std::max(1.0, std::abs(t));
    if (g <= tol && gs < 0.0) {
      // near zero and moving towards it: bracket where the line g + g′s reaches −tol (v is
      // resolved to tol only), but no further than √(2 tol/M₂), within which a crossing pair
      // below a minimum is no deeper than tol
      double reach = 2.0 * tol / -gs;
      if (M2 > 0.0) reach = std::min(reach, std::sqrt(2.0 * tol / M2));
      const double tt = std::min(t + std::max({2.0 * g / -gs, reach, t_min_step}), t1);
      const ValueSlope w = f(tt);
      ++evaluations;
      if (changed(w.value)) {
        cross(t, tt, fv.value, w.value);
        t = tt;
        fv = w;
        continue;
      }
      if (tt >= t1) return CrossingSearchStatus::kDone;
    }
    double step = curvature_safe_step(g, gs, M2);
    if (!(step > t_min_step)) {
      // on zero (a tangency, or a crossing not resolvable in t): step over it; within
      // √(2 tol/M₂), g ≥ g + g′s − ½M₂s² ≥ −tol
      if (M2 <= 0.0) {
        if (gs == 0.0) return CrossingSearchStatus::kDone;  // v constant on the tolerance band
        step = t_min_step;
      } else {
        step = std::max(std::sqrt(2.0 * tol / M2), t_min_step);
      }
    }
    const double t_prev = t;
    const ValueSlope f_prev = fv;
    t = std::min(t + step, t1);
    fv = f(t);
    ++evaluations;
    // a class change here: the bound violated by round-off, or a step over a tangency that dipped
    // through. From a start on zero (just after a crossing) the safe step can end on the next
    // crossing exactly (a parabola's step 2v′/M₂ is its return to zero): the bracket is then
    // taken from the middle of the step, where v is clear of zero, so that it cannot converge
    // to the crossing just reported
    if (changed(fv.value)) {
      if (sigma * f_prev.value > tol) {
        cross(t_prev, t, f_prev.value, fv.value);
      } else {
        const double tm = 0.5 * (t_prev + t);
        const ValueSlope fm = f(tm);
        ++evaluations;
        if (!changed(fm.value) && sigma * fm.value > tol) {
          cross(tm, t, fm.value, fv.value);
        } else {
          emit(t, sigma > 0.0 ? -1 : 1);  // within round-off of t
          sigma = -sigma;
          evaluations = 0;
        }
      }
    }
    if (t >= t1) return CrossingSearchStatus::kDone;
  }
  return CrossingSearchStatus::kFailed;
}

/// All crossings of v on (t0, t1] from `samples` + 1 points of an interpolant (see the file
/// comment). @pre samples ≥ 1.
template <class F, class Emit>
void all_crossings_on_samples(F&& f, Emit&& emit, double t0, double t1, int samples) {
  const auto value = [&](double x) { return f(x).value; };
  const auto slope = [&](double x) { return f(x).slope; };
  ValueSlope prev = f(t0);
  double tp = t0;
  for (int k = 1; k <= samples; ++k) {
    const double t = k == samples ? t1 : t0 + (t1 - t0) * k / samples;
    const ValueSlope cur = f(t);
    const bool above_p = prev.value >= 0.0;
    const bool above_c = cur.value >= 0.0;
    if (above_p != above_c) {
      emit(refine_root(value, tp, t, prev.value, cur.value), above_c ? 1 : -1);
    } else if (std::isfinite(prev.slope) && std::isfinite(cur.slope) &&
               (above_p ? prev.slope < 0.0 && cur.slope > 0.0
                        : prev.slope > 0.0 && cur.slope < 0.0)) {
      // an extremum towards zero between two samples of one class: a crossing pair may hide
      const double tm = refine_root(slope, tp, t, prev.slope, cur.slope);
      const double vm = value(tm);
      if ((vm >= 0.0) != above_p) {
        emit(refine_root(value, tp, tm, prev.value, vm), above_p ? -1 : 1);
        emit(refine_root(value, tm, t, vm, cur.value), above_p ? 1 : -1);
      }
    }
    prev = cur;
    tp = t;
  }
}

}  // namespace clatter::integrate
