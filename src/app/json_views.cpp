#include "json_views.hpp"

#include <cmath>

#include "clatter/laws/stronge_boundaries.hpp"
#include "clatter/laws/stronge_scaling.hpp"

namespace clatter::app::detail {

nlohmann::json json_number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

nlohmann::json outcome_json(const ImpactInput& in, const ImpactParams& params,
                            const ImpactOutcome& out) {
  nlohmann::json j;
  j["v_pre"] = {in.v_pre.x(), in.v_pre.y()};
  j["W"] = {in.W.A, in.W.B, in.W.C};
  j["mu"] = params.mu;
  j["e"] = params.e;
  j["v_post"] = {out.v_post.x(), out.v_post.y()};
  j["Lambda"] = {out.Lambda.x(), out.Lambda.y()};
  j["region"] = out.region >= 0 ? nlohmann::json(out.region) : nlohmann::json();
  j["case"] = out.brach_case >= 0 ? nlohmann::json(out.brach_case) : nlohmann::json();
  j["delta_energy"] = out.delta_energy;
  j["status"] = to_string(out.status);
  j["ends_in_stick"] = out.ends_in_stick;
  j["p_N_compression"] = out.p_N_compression;
  nlohmann::json segments = nlohmann::json::array();
  for (int i = 0; i < out.n_segments; ++i) {
    const Segment& s = out.segments[static_cast<std::size_t>(i)];
    segments.push_back(
        {{"mode", to_string(s.mode)}, {"p_N_begin", s.p_N_begin}, {"p_N_end", s.p_N_end}});
  }
  j["segments"] = segments;
  // Stronge's law: the boundaries of the impact's region and its signed distance to each
  // ([NDC] §4.1, laws/stronge_boundaries.hpp), nearest first
  if (out.region >= 1 && in.v_pre.y() < 0.0) {
    nlohmann::json bounds = nlohmann::json::array();
    for (const BoundaryDistance& b : boundaries_of_impact(in.v_pre, in.W, params))
      bounds.push_back({{"regions", {b.boundary.lower, b.boundary.upper}},
                        {"type", to_string(b.boundary.type)},
                        {"continuity", b.boundary.c1 ? "C1" : "C0"},
                        {"H", b.H},
                        {"distance", b.distance}});
    j["boundaries"] = bounds;
  }
  // Stronge's law: the scaled variables of [NDC] §3.2 / Table 5 (laws/stronge_scaling.hpp)
  if (out.region >= 0 && in.v_pre.y() < 0.0) {
    const StrongeScaled s = stronge_scaled(in.v_pre, in.W, params.mu);
    j["scaled"] = {{"B", s.B}, {"mu", s.mu}, {"v_T", s.v_T}};
  }
  return j;
}

nlohmann::json brach_json(const BrachBounds& b) {
  return {{"s", b.s},
          {"mu_E1", json_number(b.mu_E1)},
          {"mu_E2", json_number(b.mu_E2)},
          {"mu_M", json_number(b.mu_M)},
          {"mu_C", json_number(b.mu_C)},
          {"mu_s", json_number(b.mu_s)},
          {"case", b.brach_case},
          {"mu", json_number(b.mu)},
          {"impulse_ratio", json_number(b.ratio)},
          {"choice", b.choice}};
}

}  // namespace clatter::app::detail
