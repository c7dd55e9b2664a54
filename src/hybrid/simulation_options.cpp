#include "clatter/hybrid/simulation_options.hpp"

#include <cmath>
#include <string>

#include "clatter/core/error.hpp"

namespace clatter::hybrid {

const char* to_string(TwoContactRule r) {
  switch (r) {
    case TwoContactRule::kSequential:
      return "sequential";
    case TwoContactRule::kMultipoint:
      return "multipoint";
    case TwoContactRule::kSymmetric:
      return "symmetric";
  }
  return "unknown";
}

const char* to_string(ChatterPolicy p) {
  return p == ChatterPolicy::kAccumulation ? "accumulation" : "cutoff";
}

const char* to_string(PainlevePolicy p) { return p == PainlevePolicy::kStop ? "stop" : "impact"; }

const char* to_string(Integrator i) {
  switch (i) {
    case Integrator::kAuto:
      return "auto";
    case Integrator::kDopri5:
      return "dopri5";
    case Integrator::kDop853:
      return "dop853";
  }
  return "auto";
}

Integrator resolved_integrator(const SimulationOptions& o) {
  if (o.integrator != Integrator::kAuto) return o.integrator;
  return o.rel_tol < kDop853BelowRelTol ? Integrator::kDop853 : Integrator::kDopri5;
}

void validate(const SimulationOptions& o, double t0) {
  if (!(std::isfinite(o.t_end) && o.t_end > t0))  // the message only when thrown (once per run)
    throw InvalidArgument("t_end",
                          "must be finite and later than the initial time " + format_number(t0));
  require(o.max_events > 0, "max_events", "must be > 0");
  require(o.max_steps > 0, "max_steps", "must be > 0");
  require(std::isfinite(o.chatter_horizon) && o.chatter_horizon >= 0.0, "chatter_horizon",
          "must be finite and >= 0 [s]", o.chatter_horizon);
  require(std::isfinite(o.max_wall_time) && o.max_wall_time >= 0.0, "max_wall_time",
          "must be finite and >= 0 [s] (0: no limit)", o.max_wall_time);
  require(std::isfinite(o.output_dt) && o.output_dt >= 0.0, "output_dt",
          "must be finite and >= 0 (0: no samples)", o.output_dt);
  require(std::isfinite(o.abs_tol) && o.abs_tol > 0.0, "abs_tol", "must be > 0", o.abs_tol);
  require(std::isfinite(o.rel_tol) && o.rel_tol > 0.0, "rel_tol", "must be > 0", o.rel_tol);
  require(std::isfinite(o.max_dt) && o.max_dt > 0.0, "max_dt", "must be > 0", o.max_dt);
  require(o.event_samples >= 1 && o.event_samples <= 64, "event_samples", "must lie in [1, 64]");
  require(std::isfinite(o.stabilization.omega) && o.stabilization.omega >= 0.0,
          "stabilization.omega", "must be finite and >= 0", o.stabilization.omega);
  require(std::isfinite(o.stabilization.zeta) && o.stabilization.zeta >= 0.0, "stabilization.zeta",
          "must be finite and >= 0", o.stabilization.zeta);
  require(std::isfinite(o.v_tol) && o.v_tol > 0.0, "v_tol", "must be > 0 [m/s]", o.v_tol);
  require(std::isfinite(o.chatter_tol) && o.chatter_tol > 0.0, "chatter_tol", "must be > 0 [s]",
          o.chatter_tol);
  require(std::isfinite(o.theta_crit) && o.theta_crit >= 0.0 && o.theta_crit < 0.5, "theta_crit",
          "must lie in [0, 0.5) [rad]", o.theta_crit);
  require(o.zeno_events >= 2, "zeno_events", "must be >= 2");
  require(std::isfinite(o.zeno_window) && o.zeno_window > 0.0, "zeno_window", "must be > 0 [s]",
          o.zeno_window);
  if (o.section == Section::kCrossing) {
    require(o.crossing_coordinate >= 0, "crossing_coordinate",
            "must be the index of a coordinate, >= 0 (" + std::to_string(o.crossing_coordinate) +
                " given)");
    require(std::isfinite(o.crossing_value), "crossing_value", "must be finite", o.crossing_value);
    require(o.crossing_direction >= -1 && o.crossing_direction <= 1, "crossing_direction",
            "must be +1 (upward), -1 (downward) or 0 (both) (" +
                std::to_string(o.crossing_direction) + " given)");
  }
}

void validate(const SimulationOptions& o, double t0, int nq) {
  validate(o, t0);
  if (o.section == Section::kCrossing)
    require(o.crossing_coordinate < nq, "crossing_coordinate",
            "must lie in [0, " + std::to_string(nq) + ") for this model (" +
                std::to_string(o.crossing_coordinate) + " given)");
}

}  // namespace clatter::hybrid
