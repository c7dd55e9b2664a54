#include "clatter/io/csv_number.hpp"

#include <charconv>

namespace clatter::io {

void append_g12(std::string& s, double x) {
  char buf[32];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 12).ptr);
}

}  // namespace clatter::io
