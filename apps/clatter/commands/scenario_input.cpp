#include "commands/scenario_input.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include "clatter/model/conformance.hpp"
#include "clatter/model/planar_body_model.hpp"
#include "clatter/model/registry.hpp"

namespace clatter::cli {

std::string scenario_key(const std::string& field) {
  static const std::map<std::string, std::string> keys = {
      {"mass", "model.mass"},
      {"gravity", "model.gravity"},
      {"inertia", "model.inertia"},
      {"radius", "model.radius"},
      {"half_length", "model.half_length"},
      {"half_width", "model.half_width"},
      {"half_height", "model.half_height"},
      {"contact.mu", "law.mu (or a contact's mu)"},
      {"contact.e", "law.e (or a contact's e)"},
      {"contact.radius", "model.contacts.radius"},
      {"contact.position", "model.contacts.position"},
      {"stabilization.omega", "simulation.stabilization_omega"},
      {"stabilization.zeta", "simulation.stabilization_zeta"},
  };
  if (const auto it = keys.find(field); it != keys.end()) return it->second;
  static const char* const simulation[] = {
      "abs_tol",    "chatter_tol", "event_samples", "integrator", "max_dt",
      "max_events", "max_steps",   "output_dt",     "rel_tol",    "t_end",
      "theta_crit", "v_tol",       "zeno_events",   "zeno_window"};
  for (const char* s : simulation)
    if (field == s) return "simulation." + field;
  return field;
}

InvalidArgument with_scenario_key(const InvalidArgument& e) {
  const std::string key = scenario_key(e.field());
  if (key == e.field()) return e;
  return InvalidArgument(key, std::string(e.what()).substr(e.field().size() + 2));
}

namespace {

bool strict_models = false;

// a model that does not come with clatter is checked once, at the start (the built-in ones are
// checked by the test suite on every example)
void check_plugin_model(const io::Scenario& sc) {
  const auto& kinds = model::registered_models();
  const auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const model::RegisteredModel& m) {
    return m.kind == sc.kind;
  });
  if (kind == kinds.end() || kind->source == model::kBuiltInSource) return;
  const model::ConformanceReport report = model::check_conformance(
      *sc.model, sc.initial.t, sc.initial.q, sc.initial.qd, sc.initial.aux);
  if (report.pass()) return;
  std::string failed;
  for (const model::ConformanceCheck& c : report.checks)
    if (!c.pass)
      failed += (failed.empty() ? "" : ", ") + c.name + " (error " + format_number(c.error) +
                " > " + format_number(c.tolerance) + ")";
  const std::string what = "the model of kind '" + sc.kind + "' (" + kind->source +
                           ") fails its conformance check at the initial state: " + failed;
  if (strict_models) throw InvalidArgument("model", what + " (--strict)");
  std::cerr << "clatter: warning: " << what << " (model/conformance.hpp; --strict refuses it)\n";
}

}  // namespace

void set_strict_models(bool strict) { strict_models = strict; }

io::Scenario load_scenario_checked(const std::string& path, bool check_motion) {
  try {
    io::Scenario sc = io::load_scenario(path);
    if (check_motion) check_surface(sc, sc.options.t_end);
    check_plugin_model(sc);
    return sc;
  } catch (const InvalidArgument& e) {
    throw with_scenario_key(e);
  }
}

void check_surface(const io::Scenario& sc, double t_end) {
  const auto* planar = dynamic_cast<const model::PlanarBodyModel*>(sc.model.get());
  if (planar == nullptr) return;  // only the planar bodies have a moving surface to check
  const model::Surface& s = planar->surface();
  const double horizon = std::max(std::abs(t_end), std::abs(sc.initial.t));
  // the phase ω t must keep its digits (sin of 1e17 rad is noise) and A ω² must be finite
  require(std::isfinite(s.amplitude * s.omega * s.omega) && std::abs(s.omega) * horizon <= 1e12,
          "surface.omega",
          "with surface.amplitude and the end time gives a surface motion that cannot be "
          "evaluated (need |omega| t_end <= 1e12 and A omega^2 finite), got omega = " +
              format_number(s.omega));
  require(std::isfinite(s.belt_amplitude * s.belt_omega * s.belt_omega) &&
              std::abs(s.belt_omega) * horizon <= 1e12,
          "surface.belt_omega",
          "with surface.belt_amplitude and the end time gives a belt motion that cannot be "
          "evaluated (need |belt_omega| t_end <= 1e12), got " +
              format_number(s.belt_omega));
}

}  // namespace clatter::cli
