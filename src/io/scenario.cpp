#include "clatter/io/scenario.hpp"

#include "clatter/model/plugin.hpp"
#include "clatter/model/registry.hpp"

#include <toml++/toml.h>
#include <algorithm>
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

  [[nodiscard]] bool has(std::string_view k) const { return table_ && table_->get(k); }

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

  /// A numeric array of any length (fallback if absent).
  std::vector<double> any_vector(std::string_view k, std::vector<double> fallback) {
    known_.insert(std::string(k));
    if (!table_) return fallback;
    const toml::node* n = table_->get(k);
    if (!n) return fallback;
    const toml::array* a = n->as_array();
    require(a != nullptr, key(k).c_str(), "must be an array of numbers");
    return vector(k, a->size(), fallback);
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

  /// The numbers under unknown keys, nested tables flattened to dotted names (A.mass).
  [[nodiscard]] std::vector<std::pair<std::string, double>> unread_numbers() const {
    std::vector<std::pair<std::string, double>> out;
    if (!table_) return out;
    for (const auto& [k, v] : *table_)
      if (!known_.count(std::string(k.str()))) flatten(std::string(k.str()), v, out);
    return out;
  }
  /// Marks the dotted name k (one of unread_numbers) as read.
  void mark_read(std::string_view k) { applied_.insert(std::string(k)); }
  /// The numbers marked read by mark_read, by dotted name.
  [[nodiscard]] std::vector<std::pair<std::string, double>> applied() const {
    std::vector<std::pair<std::string, double>> all, out;
    if (!table_) return out;
    for (const auto& [k, v] : *table_) flatten(std::string(k.str()), v, all);
    for (auto& kv : all)
      if (applied_.count(kv.first)) out.push_back(std::move(kv));
    return out;
  }

  /// Throws for a key that no read asked for.
  void reject_unknown() const {
    if (!table_) return;
    for (const auto& [k, v] : *table_) {
      if (!known_.count(std::string(k.str()))) {
        // set by its parameter name (mark_read): every leaf under it must have been
        std::string first_unread;
        leaves(std::string(k.str()), v, first_unread);
        if (first_unread.empty()) continue;
        std::string allowed;
        for (const auto& a : known_) allowed += (allowed.empty() ? "" : ", ") + a;
        throw InvalidArgument(key(first_unread), "unknown key (allowed here: " + allowed + ")");
      }
    }
  }

 private:
  // the first leaf under `name` (itself if not a table) that mark_read did not see
  void leaves(const std::string& name, const toml::node& n, std::string& first_unread) const {
    if (!first_unread.empty()) return;
    if (const toml::table* t = n.as_table()) {
      for (const auto& [k, v] : *t) leaves(name + "." + std::string(k.str()), v, first_unread);
    } else if (!applied_.count(name)) {
      first_unread = name;
    }
  }

  static void flatten(const std::string& name, const toml::node& n,
                      std::vector<std::pair<std::string, double>>& out) {
    if (n.is_integer()) {
      out.emplace_back(name, static_cast<double>(*n.value_exact<int64_t>()));
    } else if (n.is_floating_point()) {
      out.emplace_back(name, *n.value_exact<double>());
    } else if (const toml::table* t = n.as_table()) {
      for (const auto& [k, v] : *t) flatten(name + "." + std::string(k.str()), v, out);
    }
  }

  const toml::table* table_;
  std::string prefix_;
  std::set<std::string> known_;
  std::set<std::string> applied_;  ///< dotted names set as the model's parameters
};

const toml::table* subtable(const toml::table& root, std::string_view k) {
  const toml::node* n = root.get(k);
  if (!n) return nullptr;
  const toml::table* t = n->as_table();
  require(t != nullptr, std::string(k).c_str(), "must be a table ([" + std::string(k) + "])");
  return t;
}

// a TOML table as a model::ModelSpec (model/registry.hpp); `fallbacks` are tables found at the
// top level when the model table does not have them (the [surface] of the scenario files)
class TomlSpec final : public model::ModelSpec {
 public:
  TomlSpec(const toml::table* table, std::string prefix, const toml::table* root = nullptr)
      : s_(table, prefix), table_(table), prefix_(std::move(prefix)), root_(root) {}
  [[nodiscard]] std::string key(std::string_view k) const override { return s_.key(k); }
  double number(std::string_view k, double fallback) override { return s_.number(k, fallback); }
  double required_number(std::string_view k) override { return s_.required_number(k); }
  long integer(std::string_view k, long fallback) override { return s_.integer(k, fallback); }
  std::string text(std::string_view k, const std::string& fallback) override {
    return s_.text(k, fallback);
  }
  std::vector<double> vector(std::string_view k, std::size_t size,
                             std::vector<double> fallback) override {
    return size == 0 ? s_.any_vector(k, std::move(fallback))
                     : s_.vector(k, size, std::move(fallback));
  }
  std::vector<std::unique_ptr<model::ModelSpec>> tables(std::string_view k) override {
    std::vector<std::unique_ptr<model::ModelSpec>> out;
    const toml::array* a = s_.array(k);
    if (!a) return out;
    int i = 0;
    for (const toml::node& n : *a) {
      const toml::table* t = n.as_table();
      const std::string prefix = key(k) + "[" + std::to_string(i++) + "]";
      require(t != nullptr, prefix.c_str(), "must be a table");
      out.push_back(std::make_unique<TomlSpec>(t, prefix));
      out.back()->set_law(law());
    }
    return out;
  }
  std::unique_ptr<model::ModelSpec> table(std::string_view k) override {
    s_.known_table(k);
    const toml::table* t = table_ ? subtable(*table_, k) : nullptr;
    std::string prefix = key(k);
    if (!t && root_) {
      t = subtable(*root_, k);
      prefix = std::string(k);
    }
    auto spec = std::make_unique<TomlSpec>(t, prefix);
    spec->set_law(law());
    return spec;
  }
  void reject_unknown() const override { s_.reject_unknown(); }
  [[nodiscard]] std::vector<std::pair<std::string, double>> unread_numbers() const override {
    return s_.unread_numbers();
  }
  void mark_read(std::string_view k) override { s_.mark_read(k); }
  /// The model's parameters set by their names (mark_read), by dotted name.
  [[nodiscard]] std::vector<std::pair<std::string, double>> applied() const { return s_.applied(); }

 private:
  mutable Section s_;
  const toml::table* table_;
  std::string prefix_;
  const toml::table* root_;
};

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

// μ ≥ 0 and e ∈ [0, 1], named by the scenario's own keys
void validate_law(const Section& s, const LawChoice& law) {
  require(law.params.mu >= 0.0, s.key("mu").c_str(), "must be >= 0", law.params.mu);
  require(law.params.e >= 0.0 && law.params.e <= 1.0, s.key("e").c_str(), "must lie in [0, 1]",
          law.params.e);
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
  validate_law(s, law);
  return law;
}

}  // namespace

Scenario parse_scenario(std::string_view text, const std::string& source,
                        const std::filesystem::path& base) {
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
  // the name makes folder names (out/<name>_sweep), the description a plot title and a JSON field
  require(name.size() <= 200, "name",
          "must have at most 200 characters, got " + std::to_string(name.size()));
  require(description.size() <= 10000, "description",
          "must have at most 10000 characters, got " + std::to_string(description.size()));
  std::string plot = top.text("plot", "");

  // law (for every contact unless the model or a [contact.NAME] table overrides it)
  Section law_s(subtable(root, "law"), "law");
  top.known_table("law");
  LawChoice law;
  double mu_s = 0.0, mu_d = 0.0;
  {
    const std::string kind = law_s.text("kind", "stronge");
    try {
      law.kind = parse_law(kind);
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("law.kind", e.what());
    }
    law.params.mu = law_s.number("mu", 0.0);
    law.params.e = law_s.number("e", 0.0);
    validate_law(law_s, law);
    mu_d = law_s.number("mu_d", law.params.mu);
    mu_s = law_s.number("mu_s", std::max(mu_d, law.params.mu));
    require(mu_d >= 0.0, "law.mu_d", "must be >= 0", mu_d);
    require(mu_s >= mu_d, "law.mu_s", "must be >= law.mu_d", mu_s);
    law_s.reject_unknown();
  }

  // model: any registered kind (model/registry.hpp), its parameters by name
  const toml::table* model_t = subtable(root, "model");
  require(model_t != nullptr, "model", "is required ([model] with kind = ...)");
  top.known_table("model");
  top.known_table("surface");
  TomlSpec model_s(model_t, "model", &root);
  const std::string kind = model_s.text("kind", "");
  const std::string plugin = model_s.text("plugin", "");
  // a kind a plugin already registered (--plugin, Python's load_plugin, or this scenario read
  // before) is used as it is: the scenario's plugin is looked for only when the kind is missing
  const auto& kinds = model::registered_models();
  const bool known = std::any_of(kinds.begin(), kinds.end(),
                                 [&](const model::RegisteredModel& r) { return r.kind == kind; });
  if (!plugin.empty() && !known) {
    // its kinds are registered before the kind is looked up
    (void)model::load_plugin(model::find_plugin(plugin, base, "model.plugin"), "model.plugin");
  }
  model_s.set_law(law);
  std::unique_ptr<model::System> model = model::make_model(kind, model_s);
  if (plot.empty()) plot = kind == "ball" || kind == "rod" ? kind : "body";
  if (kind != "ball" && kind != "rod" && kind != "block" && kind != "body" && plot == "body")
    plot = "generic";

  // contacts: sustained friction from [law], then [contact.NAME] overrides
  {
    std::vector<model::Contact> contacts;
    for (int c = 0; c < model->num_contacts(); ++c) contacts.push_back(model->contact(c));
    const bool sustained_given = law_s.has("mu_s") || law_s.has("mu_d");
    if (sustained_given)
      for (model::Contact& c : contacts) {
        c.mu_s = mu_s;
        c.mu_d = mu_d;
      }
    top.known_table("contact");
    if (const toml::table* ct = subtable(root, "contact")) {
      for (const auto& [k, node] : *ct) {
        const std::string cname(k.str());
        model::Contact* target = nullptr;
        for (model::Contact& c : contacts)
          if (c.name == cname) target = &c;
        std::string names;
        for (const model::Contact& c : contacts) names += (names.empty() ? "" : ", ") + c.name;
        require(target != nullptr, ("contact." + cname).c_str(),
                "no such contact in this model (contacts: " + names + ")");
        require(node.as_table() != nullptr, ("contact." + cname).c_str(), "must be a table");
        Section cs(node.as_table(), "contact." + cname);
        target->law = read_law(cs, target->law);
        target->mu_d = cs.number("mu_d", cs.has("mu") ? target->law.params.mu : target->mu_d);
        target->mu_s = cs.number(
            "mu_s", std::max(target->mu_d, cs.has("mu") ? target->law.params.mu : target->mu_s));
        require(target->mu_d >= 0.0, cs.key("mu_d").c_str(), "must be >= 0", target->mu_d);
        require(target->mu_s >= target->mu_d, cs.key("mu_s").c_str(), "must be >= mu_d",
                target->mu_s);
        cs.reject_unknown();
      }
    }
    model = model->with_contacts(std::move(contacts));
    // a contact's parameter set by its name in [model] (contact.P1.mu_s) is the most specific
    // setting: it stands over [law] and [contact.NAME] (the model-wide e and mu do not)
    for (const auto& [k, v] : model_s.applied())
      if (k.rfind("contact.", 0) == 0) {
        try {
          model = model->with_parameter(k, v);
        } catch (const InvalidArgument& e) {
          throw InvalidArgument("model." + k, e.what());
        }
      }
  }

  // initial state, sized by the model
  Section init_s(subtable(root, "initial"), "initial");
  top.known_table("initial");
  hybrid::InitialState init;
  init.t = init_s.number("t", 0.0);
  const auto n = static_cast<std::size_t>(model->nq());
  const auto to_vec = [](const std::vector<double>& v) {
    model::VecQ out(static_cast<Eigen::Index>(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i) out(static_cast<Eigen::Index>(i)) = v[i];
    return out;
  };
  init.q = to_vec(init_s.vector("q", n, std::vector<double>(n, 0.0)));
  init.qd = to_vec(init_s.vector("qdot", n, std::vector<double>(n, 0.0)));
  const auto na = static_cast<std::size_t>(model->num_aux());
  if (na > 0) {
    const std::vector<double> a = init_s.vector("aux", na, std::vector<double>(na, 0.0));
    init.aux = model::VecA(static_cast<Eigen::Index>(na));
    for (std::size_t i = 0; i < na; ++i) init.aux(static_cast<Eigen::Index>(i)) = a[i];
  }
  init_s.reject_unknown();

  // options
  Section sim(subtable(root, "simulation"), "simulation");
  top.known_table("simulation");
  hybrid::SimulationOptions o;
  o.t_end = sim.required_number("t_end");
  o.output_dt = sim.number("output_dt", o.output_dt);
  o.max_events = sim.integer("max_events", o.max_events);
  o.max_steps = sim.integer("max_steps", o.max_steps);
  o.exact_flight = sim.flag("exact_flight", o.exact_flight);
  o.exact_contact = sim.flag("exact_contact", o.exact_contact);
  o.broad_phase = sim.flag("broad_phase", o.broad_phase);
  o.abs_tol = sim.number("abs_tol", o.abs_tol);
  o.rel_tol = sim.number("rel_tol", o.rel_tol);
  o.max_dt = sim.number("max_dt", o.max_dt);
  o.event_samples = static_cast<int>(sim.integer("event_samples", o.event_samples));
  o.integrator =
      choice<hybrid::Integrator, 3>(sim.text("integrator", "auto"), "simulation.integrator",
                                    {{{"auto", hybrid::Integrator::kAuto},
                                      {"dopri5", hybrid::Integrator::kDopri5},
                                      {"dop853", hybrid::Integrator::kDop853}}});
  o.chatter =
      choice<hybrid::ChatterPolicy, 2>(sim.text("chatter", "accumulation"), "simulation.chatter",
                                       {{{"accumulation", hybrid::ChatterPolicy::kAccumulation},
                                         {"cutoff", hybrid::ChatterPolicy::kCutoff}}});
  o.v_tol = sim.number("v_tol", o.v_tol);
  o.chatter_tol = sim.number("chatter_tol", o.chatter_tol);
  const bool chatter_horizon_given = sim.has("chatter_horizon");
  o.chatter_horizon = sim.number("chatter_horizon", o.chatter_horizon);
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
  require(plot == "rod" || plot == "ball" || plot == "body" || plot == "generic", "plot",
          "unknown value '" + plot + "' (allowed: rod, ball, body, generic)");
  Scenario sc;
  sc.name = name;
  sc.description = description;
  sc.plot = plot;
  sc.kind = kind;
  sc.model = std::shared_ptr<const model::System>(std::move(model));
  sc.initial = init;
  sc.options = o;
  sc.chatter_horizon_given = chatter_horizon_given;
  return sc;
}

Scenario load_scenario(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  require(in.good(), "scenario", "cannot read file '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  Scenario sc = parse_scenario(text.str(), path.string(), path.parent_path());
  sc.source = path.string();
  return sc;
}

}  // namespace clatter::io
