#include "clatter/model/parameters.hpp"

#include "clatter/core/error.hpp"

namespace clatter::model {

void ParameterSet::add(std::string name, double value, std::string unit, std::string doc) {
  // a model's own parameter named as its contacts' (e, mu, contact.<c>.<e|mu|mu_s|mu_d>) would be
  // hidden by them: with_parameter and sweeps would change the contacts instead
  if (has(name))
    throw InvalidArgument("parameters",
                          "the name '" + name +
                              "' is given twice; a model's own parameters may not be called e, "
                              "mu or contact.<c>.<e|mu|mu_s|mu_d>: those set its contacts' laws");
  list_.push_back({std::move(name), value, std::move(unit), std::move(doc)});
}

bool ParameterSet::has(std::string_view name) const {
  for (const Parameter& p : list_)
    if (p.name == name) return true;
  return false;
}

const Parameter& ParameterSet::find(std::string_view name) const {
  for (const Parameter& p : list_)
    if (p.name == name) return p;
  std::string known;
  for (const Parameter& p : list_) known += (known.empty() ? "" : ", ") + p.name;
  throw InvalidArgument(std::string(name), "unknown parameter (known: " + known + ")");
}

double ParameterSet::get(std::string_view name) const { return find(name).value; }

void ParameterSet::set(std::string_view name, double value) {
  const_cast<Parameter&>(find(name)).value = value;
}

std::vector<std::string> ParameterSet::names() const {
  std::vector<std::string> out;
  out.reserve(list_.size());
  for (const Parameter& p : list_) out.push_back(p.name);
  return out;
}

}  // namespace clatter::model
