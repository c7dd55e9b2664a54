#include "clatter/model/planar_body.hpp"

#include <cmath>
#include <string>

namespace clatter::model {

void validate(const PlanarBody& body) {
  require(std::isfinite(body.m) && body.m > 0.0, "mass", "must be finite and > 0", body.m);
  require(std::isfinite(body.I) && body.I > 0.0, "inertia", "must be finite and > 0", body.I);
}

}  // namespace clatter::model
