// `clatter models [--scenario FILE] [--plugin PATH]`: the registered model kinds
// (model/registry.hpp) with one line each and where each comes from (built-in or a plugin), and
// the plugins loaded; with a scenario, its model's coordinates, contacts (law, e*, μ at impact,
// μ_s, μ_d) and every parameter by name with value, unit and meaning, as JSON on stdout: the names
// that scenario files ([model], [contact.NAME]), sweeps and Python address.

#include <iostream>
#include <nlohmann/json.hpp>

#include "clatter/io/scenario.hpp"
#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"
#include "commands/commands.hpp"

namespace clatter::cli {

namespace {

int run_models(const std::string& scenario) {
  nlohmann::json j;
  if (scenario.empty()) {
    nlohmann::json kinds = nlohmann::json::array();
    for (const model::RegisteredModel& m : model::registered_models())
      kinds.push_back({{"kind", m.kind}, {"doc", m.doc}, {"source", m.source}});
    j["kinds"] = kinds;
    nlohmann::json plugins = nlohmann::json::array();
    for (const model::LoadedPlugin& p : model::loaded_plugins())
      plugins.push_back({{"name", p.name}, {"path", p.path.string()}, {"kinds", p.kinds}});
    j["plugins"] = plugins;
  } else {
    const io::Scenario sc = io::load_scenario(scenario);
    const model::System& m = *sc.model;
    j["kind"] = sc.kind;
    j["nq"] = m.nq();
    j["coordinates"] = m.coordinate_names();
    j["aux"] = m.aux_names();
    nlohmann::json contacts = nlohmann::json::array();
    for (int c = 0; c < m.num_contacts(); ++c) {
      const model::Contact& k = m.contact(c);
      contacts.push_back({{"name", k.name},
                          {"law", std::string(to_string(k.law.kind))},
                          {"e", k.law.params.e},
                          {"mu", k.law.params.mu},
                          {"mu_s", k.mu_s},
                          {"mu_d", k.mu_d}});
    }
    j["contacts"] = contacts;
    nlohmann::json params = nlohmann::json::array();
    const model::ParameterSet ps = m.parameters();
    for (const model::Parameter& p : ps.list())
      params.push_back({{"name", p.name}, {"value", p.value}, {"unit", p.unit}, {"doc", p.doc}});
    j["parameters"] = params;
    j["capabilities"] = {{"exact_flight", m.exact_flight() != nullptr},
                         {"exact_contact", m.carried_motion() != nullptr},
                         {"symmetric_pairs", m.symmetry() != nullptr}};
  }
  std::cout << j.dump(2) << "\n";
  return 0;
}

}  // namespace

Run add_models(CLI::App& app) {
  auto scenario = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "models", "List the model kinds, or a scenario's model: coordinates, contacts, parameters");
  sub->add_option("--scenario", *scenario, "a scenario file (TOML) whose model to describe");
  return [scenario] { return run_models(*scenario); };
}

}  // namespace clatter::cli
