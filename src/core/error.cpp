#include "clatter/core/error.hpp"

#include <charconv>

namespace clatter {

// The text of C's printf("%.17g") (the standard specifies to_chars with a precision as printf's
// conversion in the "C" locale), at a fifth of snprintf's cost: the engine's messages format a
// number or two per run, and analysis makes thousands of short runs.
std::string format_number(double x) {
  char buf[32];
  const std::to_chars_result r =
      std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 17);
  return {buf, r.ptr};
}

}  // namespace clatter
