#pragma once
/// @file
/// Scenario files: a TOML description of a simulation (model, surface, law, initial state,
/// options), so that every run of the seeds' systems is one file in examples/. Parameters are
/// given by name, never by position; an unknown key is an error (a typo must not be ignored).
///
/// @verbatim
///   name = "rod_fig5"                      # optional: description, plot ("rod", "ball", "body",
///                                          # "generic")
///   [model]   kind = any registered kind (model/registry.hpp; `clatter models` lists them) and
///             the kind's parameters by name; plugin = "NAME" or "path/libNAME.so" loads a
///             plugin first (model/plugin.hpp: a path is relative to the scenario's folder, a
///             name is searched there, in CLATTER_PLUGIN_PATH and in the installed plugins).
///             The planar bodies:
///             kind = "rod" | "ball" | "block" | "body": mass, gravity (9.81), half_length (rod),
///             radius (ball), half_width and half_height (block), inertia and [[model.contacts]]
///             (body: name, position = [x, y], radius, and optionally law, mu, e);
///             kind = "pendulum_chain" (Newton's cradle, model/pendulum_chain.hpp): n, mass or
///             masses, radius or radii, length or lengths, spacing or spacings, gravity,
///             inertia_factor; kind = "planar_body_lines" (model/planar_body_lines.hpp): mass,
///             inertia, gravity = [g_x, g_y], radius or [[model.features]] (name, position,
///             radius), [[model.lines]] (name, point, normal or angle, amplitude, omega, phase,
///             belt_velocity)
///   [surface] (planar bodies) height, amplitude, omega, phase, belt_velocity, belt_amplitude,
///             belt_omega, belt_phase (all 0 by default: a fixed floor)
///   [law]     kind = "stronge" | "stronge-marcher" | "newton" | "whittaker" | "poisson" | "brach"
///             mu, e (the law at impact); mu_s, mu_d (sustained friction; default mu)
///   [contact.NAME] law, mu, e, mu_s, mu_d for one contact
///   [initial] t, q = [...], qdot = [...] (nq entries each), aux = [...] (auxiliary states)
///   [simulation] t_end, output_dt, max_events, max_steps, exact_flight, exact_contact,
///   broad_phase, abs_tol,
///             rel_tol, max_dt, integrator = "auto" | "dopri5" | "dop853",
///             event_samples, chatter = "accumulation" | "cutoff", v_tol, chatter_tol,
///             chatter_horizon,
///             two_contact = "sequential" | "multipoint" | "symmetric", theta_crit,
///             painleve = "stop" | "impact", stabilization_omega, stabilization_zeta,
///             zeno_events, zeno_window
/// @endverbatim
/// Errors throw InvalidArgument naming the key ("surface.omega") and the allowed range.

#include <filesystem>
#include <string>
#include <string_view>

#include <memory>

#include "clatter/hybrid/simulation_options.hpp"
#include "clatter/hybrid/simulator.hpp"
#include "clatter/model/system.hpp"

namespace clatter::io {

struct Scenario {
  std::string name;
  std::string description;
  std::string plot;  ///< plot style: "rod", "ball", "body" (planar bodies) or "generic"
  std::string kind;  ///< the model's kind (model/registry.hpp)
  std::shared_ptr<const model::System> model;
  hybrid::InitialState initial;
  hybrid::SimulationOptions options;
  /// simulation.chatter_horizon was given (else `clatter simulate` uses the sample step, so that
  /// the plot shows the bounces of a chatter before its accumulation point)
  bool chatter_horizon_given{false};
  std::string source;  ///< the file it was read from, as given to load_scenario ("" if parsed)
};

/// Parses scenario text; `source` names it in error messages, `base` is the folder a plugin
/// path is relative to (empty: the working directory).
[[nodiscard]] Scenario parse_scenario(std::string_view text, const std::string& source,
                                      const std::filesystem::path& base = {});

/// Reads and parses a scenario file.
[[nodiscard]] Scenario load_scenario(const std::filesystem::path& path);

}  // namespace clatter::io
