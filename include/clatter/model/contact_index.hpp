#pragma once
/// @file
/// A model's contact by name, for the options and scenario keys that name one (`--contact`,
/// `--closed`, `--impact-section`, `impacts:NAME`, `impact:NAME` sections).

#include <string>
#include <string_view>

#include "clatter/model/system.hpp"

namespace clatter::model {

/// The index of the contact of `m` named `name`. Throws InvalidArgument(field, "no contact
/// \"NAME\" (contacts: a, b, …)") if there is none.
[[nodiscard]] int contact_index(const System& m, std::string_view name, const std::string& field);

}  // namespace clatter::model
