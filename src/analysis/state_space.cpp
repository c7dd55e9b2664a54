#include "clatter/analysis/state_space.hpp"

#include "clatter/core/error.hpp"

namespace clatter::analysis {

int state_dimension(const model::System& m) { return 2 * m.nq() + m.num_aux(); }

std::vector<std::string> state_names(const model::System& m) {
  const std::vector<std::string> q = m.coordinate_names();
  std::vector<std::string> names = q;
  for (const std::string& n : q) names.push_back(n + "dot");
  for (const std::string& n : m.aux_names()) names.push_back(n);
  return names;
}

int state_index(const model::System& m, std::string_view name, const char* field) {
  const std::vector<std::string> names = state_names(m);
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
    list += (i == 0 ? "" : ", ") + names[i];
  }
  throw InvalidArgument(field, "unknown state component '" + std::string(name) + "' of model " +
                                   std::string(m.kind()) + " (one of: " + list + ")");
}

StateVector pack_state(const model::System& m, const model::VecQ& q, const model::VecQ& qd,
                       const model::VecA& aux) {
  const int nq = m.nq(), na = m.num_aux();
  StateVector x = StateVector::Zero(state_dimension(m));
  x.head(nq) = q;
  x.segment(nq, nq) = qd;
  if (aux.size() == na) x.tail(na) = aux;
  return x;
}

void unpack_state(const model::System& m, const StateVector& x, model::VecQ& q, model::VecQ& qd,
                  model::VecA& aux) {
  const int nq = m.nq(), na = m.num_aux();
  q = x.head(nq);
  qd = x.segment(nq, nq);
  aux = x.tail(na);
}

void state_rate(const model::System& m, double t, const StateVector& x, const hybrid::Modes& modes,
                const hybrid::Stabilization& stab, hybrid::ConstrainedDynamics& scratch,
                StateVector& out) {
  model::VecQ q, qd;
  model::VecA aux;
  unpack_state(m, x, q, qd, aux);
  hybrid::constrained_dynamics(m, t, q, qd, aux, modes, stab, scratch);
  const int nq = m.nq(), na = m.num_aux();
  out.resize(state_dimension(m));
  out.head(nq) = qd;
  out.segment(nq, nq) = scratch.qdd;
  if (na > 0) out.tail(na) = scratch.eval.aux_rate;
}

}  // namespace clatter::analysis
