#pragma once
// Where the kinds being registered come from (model/plugin.cpp sets it around a plugin's
// registration function), and the rollback of a plugin whose registration failed.

#include <string>

namespace clatter::model::detail {

/// The source recorded for register_model calls from now on ("built-in" by default).
void set_registration_source(std::string source);

/// Removes every kind registered from `source`; returns how many.
int unregister_source(const std::string& source);

}  // namespace clatter::model::detail
