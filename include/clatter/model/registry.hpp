#pragma once
/// @file
/// Models by kind: a registry of factories shared by scenario files, the command line and Python.
/// A factory reads the model's parameters by name from a ModelSpec (a [model] table of a scenario
/// file, a Python dict, …) and returns the model; the spec rejects names nobody read, so a typo
/// is an error naming the key.
///
/// A user's own system registers itself from a plugin's registration function (model/plugin.hpp,
/// examples/user_model/spring_box.cpp), or from the program that uses it:
/// @verbatim
///   clatter::model::register_model(
///       "my_oscillator", "a mass on a spring hitting a wall", [](clatter::model::ModelSpec& s) {
///         return std::make_unique<MyOscillator>(s.number("k", 1.0), s.law());
///       });
/// @endverbatim

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clatter/laws/impact_law.hpp"
#include "clatter/model/system.hpp"

namespace clatter::model {

/// The parameters of one model, read by name. Every read marks the key as known.
class ModelSpec {
 public:
  virtual ~ModelSpec() = default;
  /// The full name of key k for messages ("model.k_x").
  [[nodiscard]] virtual std::string key(std::string_view k) const = 0;
  /// A finite number, or `fallback` if absent. Throws InvalidArgument naming key(k) otherwise.
  virtual double number(std::string_view k, double fallback) = 0;
  /// A finite number that must be present.
  virtual double required_number(std::string_view k) = 0;
  /// An integer (exact, within ±2⁵³), or `fallback` if absent.
  virtual long integer(std::string_view k, long fallback) = 0;
  virtual std::string text(std::string_view k, const std::string& fallback) = 0;
  /// A list of finite numbers of length `size` (any length if size = 0), or `fallback`.
  virtual std::vector<double> vector(std::string_view k, std::size_t size,
                                     std::vector<double> fallback) = 0;
  /// A list of tables (e.g. the contact features of a body), each as its own spec.
  virtual std::vector<std::unique_ptr<ModelSpec>> tables(std::string_view k) = 0;
  /// A sub-table (e.g. "surface"), empty (every read gives its fallback) if absent.
  virtual std::unique_ptr<ModelSpec> table(std::string_view k) = 0;
  /// Throws for a key that no read asked for.
  virtual void reject_unknown() const = 0;
  /// The numbers under keys that no read asked for, nested tables flattened to dotted names
  /// ("A.mass" for `A.mass = 0.2` or `[model.A] mass = 0.2`): make_model sets those that are
  /// parameters of the model it built (System::parameters, the names `clatter models` shows).
  [[nodiscard]] virtual std::vector<std::pair<std::string, double>> unread_numbers() const {
    return {};
  }
  /// Marks the dotted key k (one of unread_numbers) as read.
  virtual void mark_read(std::string_view /*k*/) {}

  /// The default impact law of the model's contacts (the scenario's [law] table).
  [[nodiscard]] const LawChoice& law() const { return law_; }
  void set_law(const LawChoice& law) { law_ = law; }

 private:
  LawChoice law_{};
};

using Factory = std::function<std::unique_ptr<System>(ModelSpec&)>;

/// The source of the kinds that come with clatter (RegisteredModel::source).
inline constexpr const char* kBuiltInSource = "built-in";

struct RegisteredModel {
  std::string kind;
  std::string doc;  ///< one line
  Factory make;
  std::string source{kBuiltInSource};  ///< or "plugin <path>", the plugin that registered it
};

/// Adds a kind (returns true, for static registration). Throws InvalidArgument if the kind
/// exists already.
bool register_model(std::string kind, std::string doc, Factory make);

/// Every registered kind, in registration order (the built-in models first).
[[nodiscard]] const std::vector<RegisteredModel>& registered_models();

/// The model of `kind` from `spec`. Throws InvalidArgument("model.kind", …) listing the kinds
/// if it is unknown, and whatever InvalidArgument the factory throws for bad parameters; any
/// other exception of a factory becomes InvalidArgument("model.kind", …) naming the kind and
/// where it came from (a plugin's factory may fail in ways the library cannot foresee).
[[nodiscard]] std::unique_ptr<System> make_model(std::string_view kind, ModelSpec& spec);

/// A ModelSpec over a flat list of named numbers (Python keyword arguments, tests). A dotted name
/// "surface.omega" is key "omega" of sub-table "surface"; a list is its entries "masses[0]",
/// "masses[1]", … in order.
class NumberSpec final : public ModelSpec {
 public:
  NumberSpec(std::vector<std::pair<std::string, double>> values, std::string prefix = "model");
  [[nodiscard]] std::string key(std::string_view k) const override;
  double number(std::string_view k, double fallback) override;
  double required_number(std::string_view k) override;
  long integer(std::string_view k, long fallback) override;
  std::string text(std::string_view k, const std::string& fallback) override;
  std::vector<double> vector(std::string_view k, std::size_t size,
                             std::vector<double> fallback) override;
  std::vector<std::unique_ptr<ModelSpec>> tables(std::string_view k) override;
  std::unique_ptr<ModelSpec> table(std::string_view k) override;
  void reject_unknown() const override;
  [[nodiscard]] std::vector<std::pair<std::string, double>> unread_numbers() const override;
  void mark_read(std::string_view k) override;

 private:
  std::vector<std::pair<std::string, double>> values_;
  std::vector<bool> read_;
  std::string prefix_;
};

}  // namespace clatter::model
