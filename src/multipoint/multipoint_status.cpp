#include "clatter/multipoint/multipoint_status.hpp"

namespace clatter::multipoint {

const char* to_string(Status s) { return name_of(s); }

}  // namespace clatter::multipoint
