#pragma once
/// @file
/// Scenario files: a TOML description of a simulation (model, surface, law, initial state,
/// options), so that every run of the seeds' systems is one file in examples/. Parameters are
/// given by name, never by position; an unknown key is an error (a typo must not be ignored).
///
/// @verbatim
///   name = "rod_fig5"                      # optional: description, plot ("rod", "ball", "body")
///   [model]   kind = "rod" | "ball" | "block" | "body"
///             mass, gravity (9.81), half_length (rod), radius (ball), half_width and
///             half_height (block), inertia and [[model.contacts]] (body: name, position = [x, y],
///             radius, and optionally law, mu, e)
///   [surface] height, amplitude, omega, phase, belt_velocity, belt_amplitude, belt_omega,
///             belt_phase (all 0 by default: a fixed floor)
///   [law]     kind = "stronge" | "stronge-marcher" | "newton" | "whittaker" | "poisson" | "brach"
///             mu, e
///   [initial] t, q = [x, y, θ], qdot = [ẋ, ẏ, ω]
///   [simulation] t_end, output_dt, max_events, exact_flight, abs_tol, rel_tol, max_dt,
///             event_samples, chatter = "accumulation" | "cutoff", v_tol, chatter_tol,
///             two_contact = "sequential" | "multipoint" | "symmetric", theta_crit,
///             painleve = "stop" | "impact", stabilization_omega, stabilization_zeta,
///             zeno_events, zeno_window
/// @endverbatim
/// Errors throw InvalidArgument naming the key ("surface.omega") and the allowed range.

#include <filesystem>
#include <string>
#include <string_view>

#include "clatter/dynamics/planar_body_model.hpp"
#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/hybrid/simulator.hpp"

namespace clatter::io {

struct Scenario {
  std::string name;
  std::string description;
  std::string plot;  ///< plot style: "rod", "ball" or "body"
  dynamics::PlanarBodyModel model;
  hybrid::InitialState initial;
  hybrid::SimulationOptions options;
};

/// Parses scenario text; `source` names it in error messages.
[[nodiscard]] Scenario parse_scenario(std::string_view text, const std::string& source);

/// Reads and parses a scenario file.
[[nodiscard]] Scenario load_scenario(const std::filesystem::path& path);

}  // namespace clatter::io
