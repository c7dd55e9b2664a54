#include "clatter/model/contact.hpp"

#include <cmath>

#include "clatter/core/error.hpp"

namespace clatter::model {

void validate(const Contact& c, const std::string& prefix) {
  const auto field = [&](const char* name) { return prefix + "." + name; };
  // a name is a word of CSV headers, parameter names (contact.NAME.e) and option values
  require(!c.name.empty() && c.name.size() <= 64, "contact.name",
          "must have 1 to 64 characters, got " + std::to_string(c.name.size()));
  for (const char ch : c.name) {
    const auto code = static_cast<unsigned char>(ch);
    require(code > 0x20 && code != 0x7f && ch != ',' && ch != '"' && ch != '\'', "contact.name",
            "must not contain spaces, control characters, commas or quotes (a column name); "
            "got the character of code " +
                std::to_string(code));
  }
  const std::string mu = field("law.mu"), e = field("law.e"), mu_s = field("mu_s"),
                    mu_d = field("mu_d");
  require(std::isfinite(c.law.params.mu) && c.law.params.mu >= 0.0, mu.c_str(),
          "must be finite and >= 0", c.law.params.mu);
  require(std::isfinite(c.law.params.e) && c.law.params.e >= 0.0 && c.law.params.e <= 1.0,
          e.c_str(), "must be in [0, 1]", c.law.params.e);
  require(std::isfinite(c.mu_d) && c.mu_d >= 0.0, mu_d.c_str(), "must be finite and >= 0", c.mu_d);
  if (!(std::isfinite(c.mu_s) && c.mu_s >= c.mu_d))  // the message only when it is thrown
    throw InvalidArgument(mu_s, "must be finite and >= mu_d = " + format_number(c.mu_d) + ", got " +
                                    format_number(c.mu_s));
}

}  // namespace clatter::model
