#pragma once
// Scenario files for the commands: io::load_scenario, with every error naming the TOML key the
// user wrote (the model and the engine check their own fields, "mass", "contact.mu", "t_end", and
// do not know the file's layout), and checks of what the engine cannot check itself.

#include <string>

#include "clatter/core/error.hpp"
#include "clatter/io/scenario.hpp"

namespace clatter::cli {

/// The TOML key of a field named by the model or the engine ("mass" → "model.mass",
/// "contact.mu" → "law.mu", "t_end" → "simulation.t_end"); `field` itself if it has no key.
[[nodiscard]] std::string scenario_key(const std::string& field);

/// `e` with its field replaced by scenario_key(field).
[[nodiscard]] InvalidArgument with_scenario_key(const InvalidArgument& e);

/// Whether a plugin's model that fails its conformance check at the scenario's initial state is
/// refused (`--strict`: InvalidArgument naming "model" and the failed checks) or only warned
/// about, in one line on stderr (the default).
void set_strict_models(bool strict);

/// Loads a scenario; InvalidArgument names the TOML key. A model from a plugin is checked
/// (model/conformance.hpp) at the initial state, see set_strict_models. With `check_motion`, also
/// refuses a surface whose motion cannot be evaluated over the run (A ω² that overflows, or a phase
/// ω t_end that has lost its digits), naming surface.omega / surface.belt_omega.
[[nodiscard]] io::Scenario load_scenario_checked(const std::string& path, bool check_motion);

/// Checks the surface against an end time (after a --t-end override).
void check_surface(const io::Scenario& sc, double t_end);

}  // namespace clatter::cli
