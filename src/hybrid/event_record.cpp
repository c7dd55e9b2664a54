#include "clatter/hybrid/event_record.hpp"

namespace clatter::hybrid {

const char* to_string(EventKind k) {
  switch (k) {
    case EventKind::kImpact:
      return "impact";
    case EventKind::kClosure:
      return "closure";
    case EventKind::kChatterEnd:
      return "chatter_end";
    case EventKind::kLiftOff:
      return "lift_off";
    case EventKind::kStick:
      return "stick";
    case EventKind::kSlipReversal:
      return "slip_reversal";
    case EventKind::kSlipOnset:
      return "slip_onset";
    case EventKind::kSymmetric:
      return "symmetric";
    case EventKind::kPainleve:
      return "painleve";
    case EventKind::kImpactWithoutCollision:
      return "impact_without_collision";
    case EventKind::kParameterChange:
      return "parameter_change";
  }
  return "unknown";
}

}  // namespace clatter::hybrid
