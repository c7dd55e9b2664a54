#include "clatter/model/planar_body.hpp"

#include <cmath>
#include <string>

namespace clatter::model {

void validate(const PlanarBody& body) {
  // ordinary magnitudes: 1/m and 1/I enter W = J M⁻¹ Jᵀ, and a subnormal mass (1e-320) made
  // them infinite, the impacts NaN
  require(body.m >= 1e-100 && body.m <= 1e100, "mass", "must lie in [1e-100, 1e100] [kg]", body.m);
  require(body.I >= 1e-100 && body.I <= 1e100, "inertia", "must lie in [1e-100, 1e100] [kg m^2]",
          body.I);
}

}  // namespace clatter::model
