#pragma once
/// @file
/// Named scalar parameters of a model, for scenarios, sweeps, continuation and Python: a model
/// lists its parameters with their values, units and allowed ranges, and rebuilds itself with one
/// of them changed (System::with_parameter).

#include <string>
#include <string_view>
#include <vector>

namespace clatter::model {

struct Parameter {
  std::string name;  ///< e.g. "surface.omega", "k_x", "contact.P1.e"
  double value{0.0};
  std::string unit;  ///< SI unit, "" for dimensionless, "rad" for angles
  std::string doc;   ///< one line
};

class ParameterSet {
 public:
  void add(std::string name, double value, std::string unit, std::string doc);
  [[nodiscard]] const std::vector<Parameter>& list() const { return list_; }
  [[nodiscard]] bool has(std::string_view name) const;
  /// Throws InvalidArgument naming `name` and listing the known names if it is unknown.
  [[nodiscard]] double get(std::string_view name) const;
  void set(std::string_view name, double value);
  [[nodiscard]] std::vector<std::string> names() const;

 private:
  [[nodiscard]] const Parameter& find(std::string_view name) const;
  std::vector<Parameter> list_;
};

}  // namespace clatter::model
