#include "clatter/model/contact_index.hpp"

#include "clatter/core/error.hpp"

namespace clatter::model {

int contact_index(const System& m, std::string_view name, const std::string& field) {
  std::string names;
  for (int c = 0; c < m.num_contacts(); ++c) {
    if (m.contact(c).name == name) return c;
    names += (names.empty() ? "" : ", ") + m.contact(c).name;
  }
  throw InvalidArgument(field,
                        "no contact \"" + std::string(name) + "\" (contacts: " + names + ")");
}

}  // namespace clatter::model
