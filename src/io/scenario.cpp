#include "clatter/io/scenario.hpp"

#include <toml++/toml.h>
#include <array>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

namespace clatter::io {

namespace {

// the TOML type of a node, for messages
std::string type_name(const toml::node& n) {
  if (n.is_boolean()) return "a boolean";
  if (n.is_string()) return "a string";
  if (n.is_integer()) return "an integer";
  if (n.is_floating_point()) return "a float";
  if (n.is_array()) return "an array";
  if (n.is_table()) return "a table";
  return "a date or time";
}

// a TOML table with the keys it may contain; every read records the key as known
class Section {
 public:
  Section(const toml::table* table, std::string prefix)
      : table_(table), prefix_(std::move(prefix)) {}

  [[nodiscard]] std::string key(std::string_view k) const {
    return prefix_.empty() ? std::string(k) : prefix_ + "." + std::string(k);
  }

  double number(std::string_view k, double fallback) {
    known_.insert(std::string(k));
    if (!table_) return fallback;
    const toml::node* n = table_->get(k);
    if (!n) return fallback;
    // strictly a TOML integer or float: true/false or "1.5" are not numbers
    if (n->is_floating_point() || n->is_integer()) {
      const double v = n->is_integer() ? static_cast<double>(*n->value_exact<int64_t>())
                                       : *n->value_exact<double>();
      require_finite(v, key(k).c_str());
      return v;
    }
    throw InvalidArgument(key(k), std::string("must be a number, got ") + type_name(*n));
  }

  double required_number(std::string_view k) {
    require(table_ && table_->get(k), key(k).c_str(), "is required");
    return number(k, 0.0);
  }

  std::string text(std::string_view k, const std::string& fallback) {
    known_.insert(std::string(k));
    if (!table_) return fallback;
    const toml::node* n = table_->get(k);
    if (!n) return fallback;
    if (n->is_string()) return *n->value_exact<std::string>();
    throw InvalidArgument(key(k), std::string("must be a string, got ") + type_name(*n));
  }

  bool flag(std::string_view k, bool fallback) {
    known_.insert(std::string(k));
    if (!table_) return fallback;
    const toml::node* n = table_->get(k);
    if (!n) return fallback;
    if (n->is_boolean()) return *n->value_exact<bool>();
    throw InvalidArgument(key(k), std::string("must be true or false, got ") + type_name(*n));
  }

  long integer(std::string_view k, long fallback) {
    known_.insert(std::string(k));
    if (!table_) return fallback;
    const toml::node* n = table_->get(k);
    if (!n) return fallback;
    // a TOML integer within the range of the options it sets (int): never wrapped modulo 2^32
    if (n->is_integer()) {
      const int64_t v = *n->value_exact<int64_t>();
      require(v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max(),
              key(k).c_str(), "must be an integer in [-2147483648, 2147483647]",
              static_cast<double>(v));
      return static_cast<long>(v);
    }
    throw InvalidArgument(key(k), std::string("must be an integer, got ") + type_name(*n));
  }

  /// A numeric array of exactly `size` entries (fallback if absent).
  std::vector<double> vector(std::string_view k, std::size_t size, std::vector<double> fallback) {
    known_.insert(std::string(k));
    if (!table_) return fallback;
    const toml::node* n = table_->get(k);
    if (!n) return fallback;
    const toml::array* a = n->as_array();
    require(a && a->size() == size, key(k).c_str(),
            "must be an array of " + std::to_string(size) + " numbers");
    std::vector<double> out;
    for (const toml::node& e : *a) {
      require(e.is_floating_point() || e.is_integer(), key(k).c_str(),
              "must contain numbers only, got " + type_name(e));
      const double v = e.is_integer() ? static_cast<double>(*e.value_exact<int64_t>())
                                      : *e.value_exact<double>();
      require_finite(v, key(k).c_str());
      out.push_back(v);
    }
    return out;
  }

  const toml::array* array(std::string_view k) {
    known_.insert(std::string(k));
    if (!table_) return nullptr;
    const toml::node* n = table_->get(k);
    if (!n) return nullptr;
    const toml::array* a = n->as_array();
    require(a != nullptr, key(k).c_str(), "must be an array of tables");
    return a;
  }

  /// Marks a key as allowed (a sub-table read elsewhere).
  void known_table(std::string_view k) { known_.insert(std::string(k)); }

  /// Throws for a key that no read asked for.
  void reject_unknown() const {
    if (!table_) return;
    for (const auto& [k, v] : *table_) {
      if (!known_.count(std::string(k.str()))) {
        std::string allowed;
        for (const auto& a : known_) allowed += (allowed.empty() ? "" : ", ") + a;
        throw InvalidArgument(key(k.str()), "unknown key (allowed here: " + allowed + ")");
      }
    }
  }

 private:
  const toml::table* table_;
  std::string prefix_;
  std::set<std::string> known_;
};

const toml::table* subtable(const toml::table& root, std::string_view k) {
  const toml::node* n = root.get(k);
  if (!n) return nullptr;
  const toml::table* t = n->as_table();
  require(t != nullptr, std::string(k).c_str(), "must be a table ([" + std::string(k) + "])");
  return t;
}

template <class Enum, std::size_t N>
Enum choice(const std::string& value, const std::string& key,
            const std::array<std::pair<const char*, Enum>, N>& options) {
  std::string allowed;
  for (const auto& [name, e] : options) {
    if (value == name) return e;
    allowed += (allowed.empty() ? "" : ", ") + std::string(name);
  }
  throw InvalidArgument(key, "unknown value '" + value + "' (allowed: " + allowed + ")");
}

LawChoice read_law(Section& s, const LawChoice& fallback) {
  LawChoice law = fallback;
  const std::string kind = s.text("law", "");
  if (!kind.empty()) {
    try {
      law.kind = parse_law(kind);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument(s.key("law"), e.what());
    }
  }
  law.params.mu = s.number("mu", law.params.mu);
  law.params.e = s.number("e", law.params.e);
  return law;
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << e.description() << " (line " << e.source().begin.line << ", column "
        << e.source().begin.column << ")";
    throw InvalidArgument(source, msg.str());
  }
  Section top(&root, "");
  const std::string name = top.text("name", "scenario");
  const std::string description = top.text("description", "");
  std::string plot = top.text("plot", "");

  // law (for every contact unless a body contact overrides it)
  Section law_s(subtable(root, "law"), "law");
  top.known_table("law");
  LawChoice law;
  {
    const std::string kind = law_s.text("kind", "stronge");
    try {
      law.kind = parse_law(kind);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("law.kind", e.what());
    }
    law.params.mu = law_s.number("mu", 0.0);
    law.params.e = law_s.number("e", 0.0);
    law_s.reject_unknown();
  }

  // surface
  Section surf_s(subtable(root, "surface"), "surface");
  top.known_table("surface");
  dynamics::Surface surface;
  surface.height = surf_s.number("height", 0.0);
  surface.amplitude = surf_s.number("amplitude", 0.0);
  surface.omega = surf_s.number("omega", 0.0);
  surface.phase = surf_s.number("phase", 0.0);
  surface.belt_velocity = surf_s.number("belt_velocity", 0.0);
  surface.belt_amplitude = surf_s.number("belt_amplitude", 0.0);
  surface.belt_omega = surf_s.number("belt_omega", 0.0);
  surface.belt_phase = surf_s.number("belt_phase", 0.0);
  surf_s.reject_unknown();

  // model
  const toml::table* model_t = subtable(root, "model");
  require(model_t != nullptr, "model", "is required ([model] with kind = ...)");
  top.known_table("model");
  Section model_s(model_t, "model");
  const std::string kind = model_s.text("kind", "");
  const double mass = model_s.required_number("mass");
  const double gravity = model_s.number("gravity", 9.81);
  std::optional<dynamics::PlanarBodyModel> model;
  if (kind == "ball") {
    model = dynamics::make_ball(mass, model_s.number("radius", 0.0), gravity, surface, law);
    if (plot.empty()) plot = "ball";
  } else if (kind == "rod") {
    model = dynamics::make_rod(mass, model_s.required_number("half_length"), gravity, surface, law);
    if (plot.empty()) plot = "rod";
  } else if (kind == "block") {
    model = dynamics::make_block(mass, model_s.required_number("half_width"),
                                 model_s.required_number("half_height"), gravity, surface, law);
    if (plot.empty()) plot = "body";
  } else if (kind == "body") {
    const double inertia = model_s.required_number("inertia");
    std::vector<dynamics::ContactFeature> features;
    const toml::array* contacts = model_s.array("contacts");
    require(contacts && !contacts->empty(), "model.contacts",
            "a body needs [[model.contacts]] with name, position = [x, y] and radius");
    int i = 0;
    for (const toml::node& n : *contacts) {
      const toml::table* t = n.as_table();
      const std::string prefix = "model.contacts[" + std::to_string(i++) + "]";
      require(t != nullptr, prefix.c_str(), "must be a table");
      Section c(t, prefix);
      dynamics::ContactFeature f;
      std::string fallback_name = "C";     // (built in two steps: g++ 12's -Wrestrict misfires on
      fallback_name += std::to_string(i);  // the concatenation when this function is inlined)
      f.name = c.text("name", fallback_name);
      const std::vector<double> p = c.vector("position", 2, {0.0, 0.0});
      f.c_B = {p[0], p[1]};
      f.radius = c.number("radius", 0.0);
      f.law = read_law(c, law);
      c.reject_unknown();
      features.push_back(std::move(f));
    }
    model.emplace(PlanarBody{mass, inertia}, gravity, surface, std::move(features));
    if (plot.empty()) plot = "body";
  } else {
    throw InvalidArgument("model.kind",
                          "unknown value '" + kind + "' (allowed: ball, rod, block, body)");
  }
  model_s.reject_unknown();

  // initial state
  Section init_s(subtable(root, "initial"), "initial");
  top.known_table("initial");
  hybrid::InitialState init;
  init.t = init_s.number("t", 0.0);
  const std::vector<double> q = init_s.vector("q", 3, {0.0, 0.0, 0.0});
  const std::vector<double> qd = init_s.vector("qdot", 3, {0.0, 0.0, 0.0});
  init.q = {q[0], q[1], q[2]};
  init.qd = {qd[0], qd[1], qd[2]};
  init_s.reject_unknown();

  // options
  Section sim(subtable(root, "simulation"), "simulation");
  top.known_table("simulation");
  hybrid::SimulationOptions o;
  o.t_end = sim.required_number("t_end");
  o.output_dt = sim.number("output_dt", o.output_dt);
  o.max_events = sim.integer("max_events", o.max_events);
  o.exact_flight = sim.flag("exact_flight", o.exact_flight);
  o.abs_tol = sim.number("abs_tol", o.abs_tol);
  o.rel_tol = sim.number("rel_tol", o.rel_tol);
  o.max_dt = sim.number("max_dt", o.max_dt);
  o.event_samples = static_cast<int>(sim.integer("event_samples", o.event_samples));
  o.chatter =
      choice<hybrid::ChatterPolicy, 2>(sim.text("chatter", "accumulation"), "simulation.chatter",
                                       {{{"accumulation", hybrid::ChatterPolicy::kAccumulation},
                                         {"cutoff", hybrid::ChatterPolicy::kCutoff}}});
  o.v_tol = sim.number("v_tol", o.v_tol);
  o.chatter_tol = sim.number("chatter_tol", o.chatter_tol);
  o.two_contact = choice<hybrid::TwoContactRule, 3>(
      sim.text("two_contact", hybrid::to_string(o.two_contact)), "simulation.two_contact",
      {{{"sequential", hybrid::TwoContactRule::kSequential},
        {"multipoint", hybrid::TwoContactRule::kMultipoint},
        {"symmetric", hybrid::TwoContactRule::kSymmetric}}});
  o.theta_crit = sim.number("theta_crit", o.theta_crit);
  o.painleve = choice<hybrid::PainlevePolicy, 2>(
      sim.text("painleve", "stop"), "simulation.painleve",
      {{{"stop", hybrid::PainlevePolicy::kStop},
        {"impact", hybrid::PainlevePolicy::kImpactWithoutCollision}}});
  o.stabilization.omega = sim.number("stabilization_omega", o.stabilization.omega);
  o.stabilization.zeta = sim.number("stabilization_zeta", o.stabilization.zeta);
  o.zeno_events = static_cast<int>(sim.integer("zeno_events", o.zeno_events));
  o.zeno_window = sim.number("zeno_window", o.zeno_window);
  sim.reject_unknown();
  hybrid::validate(o, init.t);

  top.reject_unknown();
  require(plot == "rod" || plot == "ball" || plot == "body", "plot",
          "unknown value '" + plot + "' (allowed: rod, ball, body)");
  return Scenario{name, description, plot, std::move(*model), init, o};
}

Scenario load_scenario(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  require(in.good(), "scenario", "cannot read file '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path.string());
}

}  // namespace clatter::io
