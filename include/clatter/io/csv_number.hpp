#pragma once
// The numbers of the sweep's CSV files: 12 significant digits, the text of C's printf("%.12g")
// (and of a stream with precision(12)), written by std::to_chars at a fraction of their cost.

#include <string>

namespace clatter::io {

/// Appends x as C's printf("%.12g") writes it.
void append_g12(std::string& s, double x);

}  // namespace clatter::io
