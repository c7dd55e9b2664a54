#include "clatter/model/contact.hpp"

#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::model {

// Called for every model made (a continuation makes one per flow): no string is built unless a
// check fails.
void validate(const Contact& c, const std::string& prefix) {
  // a name is a word of CSV headers, parameter names (contact.NAME.e) and option values
  if (c.name.empty() || c.name.size() > 64)
    throw InvalidArgument("contact.name",
                          "must have 1 to 64 characters, got " + std::to_string(c.name.size()));
  for (const char ch : c.name) {
    const auto code = static_cast<unsigned char>(ch);
    if (!(code > 0x20 && code != 0x7f && ch != ',' && ch != '"' && ch != '\''))
      throw InvalidArgument("contact.name",
                            "must not contain spaces, control characters, commas or quotes (a "
                            "column name); got the character of code " +
                                std::to_string(code));
  }
  const auto fail = [&](const char* name, const std::string& message) {
    throw InvalidArgument(prefix + "." + name, message);
  };
  const auto& p = c.law.params;
  if (!(std::isfinite(p.mu) && p.mu >= 0.0))
    fail("law.mu", "must be finite and >= 0, got " + format_number(p.mu));
  if (!(std::isfinite(p.e) && p.e >= 0.0 && p.e <= 1.0))
    fail("law.e", "must be in [0, 1], got " + format_number(p.e));
  if (!(std::isfinite(c.mu_d) && c.mu_d >= 0.0))
    fail("mu_d", "must be finite and >= 0, got " + format_number(c.mu_d));
  if (!(std::isfinite(c.mu_s) && c.mu_s >= c.mu_d))
    fail("mu_s", "must be finite and >= mu_d = " + format_number(c.mu_d) + ", got " +
                     format_number(c.mu_s));
}

}  // namespace clatter::model
