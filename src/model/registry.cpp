#include "clatter/model/registry.hpp"

#include <cmath>

#include "clatter/core/error.hpp"
#include "registry_source.hpp"

namespace clatter::model {

namespace detail {
// the built-in kinds, in one table (builtin_models.cpp)
void add_builtin_models(std::vector<RegisteredModel>& table);
}  // namespace detail

namespace {

std::vector<RegisteredModel>& table() {
  static std::vector<RegisteredModel> models = [] {
    std::vector<RegisteredModel> t;
    detail::add_builtin_models(t);
    for (RegisteredModel& m : t) m.source = kBuiltInSource;
    return t;
  }();
  return models;
}

std::string& current_source() {
  static std::string source = kBuiltInSource;
  return source;
}

}  // namespace

namespace detail {

void set_registration_source(std::string source) { current_source() = std::move(source); }

int unregister_source(const std::string& source) {
  std::vector<RegisteredModel>& t = table();
  const auto before = t.size();
  std::erase_if(t, [&](const RegisteredModel& m) { return m.source == source; });
  return static_cast<int>(before - t.size());
}

}  // namespace detail

bool register_model(std::string kind, std::string doc, Factory make) {
  for (const RegisteredModel& m : table())
    require(m.kind != kind, "model.kind",
            "kind '" + kind + "' is registered already (by " + m.source + ")");
  table().push_back({std::move(kind), std::move(doc), std::move(make), current_source()});
  return true;
}

const std::vector<RegisteredModel>& registered_models() { return table(); }

std::unique_ptr<System> make_model(std::string_view kind, ModelSpec& spec) {
  std::string known;
  for (const RegisteredModel& m : table()) {
    if (m.kind == kind) {
      std::unique_ptr<System> model;
      try {
        model = m.make(spec);
      } catch (const InvalidArgument&) {
        throw;
      } catch (const std::exception& e) {
        throw InvalidArgument("model.kind", "the factory of kind '" + m.kind + "' (" + m.source +
                                                ") failed: " + e.what());
      }
      require(model != nullptr, "model.kind",
              "the factory of kind '" + m.kind + "' (" + m.source + ") returned no model");
      // the model's parameters by the names it shows (`clatter models`), set after the factory:
      // one spelling accepted wherever it is shown (a cradle's A.mass beside its masses = [...])
      std::string unknown;
      for (const auto& [k, v] : spec.unread_numbers()) {
        if (!model->parameters().has(k)) {
          if (unknown.empty()) unknown = k;
          continue;
        }
        try {
          model = model->with_parameter(k, v);
        } catch (const InvalidArgument& e) {
          throw InvalidArgument(spec.key(k), e.what());
        }
        spec.mark_read(k);
      }
      if (!unknown.empty()) {
        std::string names;
        for (const std::string& n : model->parameters().names())
          names += (names.empty() ? "" : ", ") + n;
        throw InvalidArgument(spec.key(unknown),
                              "unknown key of kind '" + m.kind +
                                  "': neither read by its factory nor one of its parameters (" +
                                  names + ")");
      }
      spec.reject_unknown();
      return model;
    }
    known += (known.empty() ? "" : ", ") + m.kind;
  }
  throw InvalidArgument("model.kind",
                        "unknown kind '" + std::string(kind) + "' (known: " + known + ")");
}

// ---------------------------------------------------------------------------------------------
// NumberSpec

NumberSpec::NumberSpec(std::vector<std::pair<std::string, double>> values, std::string prefix)
    : values_(std::move(values)), read_(values_.size(), false), prefix_(std::move(prefix)) {}

std::string NumberSpec::key(std::string_view k) const {
  return prefix_.empty() ? std::string(k) : prefix_ + "." + std::string(k);
}

double NumberSpec::number(std::string_view k, double fallback) {
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (values_[i].first != k) continue;
    read_[i] = true;
    require_finite(values_[i].second, key(k).c_str());
    return values_[i].second;
  }
  return fallback;
}

double NumberSpec::required_number(std::string_view k) {
  for (const auto& [name, v] : values_)
    if (name == k) return number(k, 0.0);
  throw InvalidArgument(key(k), "is required");
}

long NumberSpec::integer(std::string_view k, long fallback) {
  const double x = number(k, static_cast<double>(fallback));
  require(std::abs(x) <= 9007199254740992.0 && x == std::floor(x), key(k).c_str(),
          "must be an integer", x);
  return static_cast<long>(x);
}

std::string NumberSpec::text(std::string_view k, const std::string& fallback) {
  for (const auto& [name, v] : values_)
    require(name != k, key(k).c_str(), "must be a string (a number was given)");
  return fallback;
}

std::vector<double> NumberSpec::vector(std::string_view k, std::size_t size,
                                       std::vector<double> fallback) {
  // a list is given as its entries "k[0]", "k[1]", … (Python's masses=[1, 2, 3])
  std::vector<double> list;
  for (std::size_t n = 0;; ++n) {
    const std::string entry = std::string(k) + "[" + std::to_string(n) + "]";
    std::size_t found = values_.size();
    for (std::size_t i = 0; i < values_.size(); ++i)
      if (values_[i].first == entry) found = i;
    if (found == values_.size()) break;
    read_[found] = true;
    require_finite(values_[found].second, key(entry).c_str());
    list.push_back(values_[found].second);
  }
  if (!list.empty()) {
    require(size == 0 || list.size() == size, key(k).c_str(),
            "must be a list of " + std::to_string(size) + " numbers, got " +
                std::to_string(list.size()));
    return list;
  }
  if (size == 1) return {number(k, fallback.empty() ? 0.0 : fallback[0])};
  for (const auto& [name, v] : values_)
    require(name != k, key(k).c_str(), "must be a list of numbers");
  return fallback;
}

std::vector<std::unique_ptr<ModelSpec>> NumberSpec::tables(std::string_view k) {
  for (const auto& [name, v] : values_)
    require(name != k, key(k).c_str(), "must be a list of tables");
  return {};
}

std::unique_ptr<ModelSpec> NumberSpec::table(std::string_view k) {
  const std::string pre = std::string(k) + ".";
  std::vector<std::pair<std::string, double>> sub;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (values_[i].first.rfind(pre, 0) != 0) continue;
    read_[i] = true;
    sub.emplace_back(values_[i].first.substr(pre.size()), values_[i].second);
  }
  auto spec = std::make_unique<NumberSpec>(std::move(sub), key(k));
  spec->set_law(law());
  return spec;
}

std::vector<std::pair<std::string, double>> NumberSpec::unread_numbers() const {
  std::vector<std::pair<std::string, double>> out;
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (!read_[i]) out.push_back(values_[i]);
  return out;
}

void NumberSpec::mark_read(std::string_view k) {
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (values_[i].first == k) read_[i] = true;
}

void NumberSpec::reject_unknown() const {
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (read_[i]) continue;
    throw InvalidArgument(key(values_[i].first), "unknown parameter of this model");
  }
}

}  // namespace clatter::model
