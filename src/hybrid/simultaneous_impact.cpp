#include "clatter/hybrid/simultaneous_impact.hpp"

#include "clatter/multipoint/collision.hpp"

namespace clatter::hybrid {

SimultaneousImpact resolve_simultaneous(const model::System& model, double t, const model::VecQ& q,
                                        const model::VecQ& qd,
                                        const std::array<bool, model::kMaxContacts>& active,
                                        SimultaneousScratch& scratch) {
  namespace mp = multipoint;
  SimultaneousImpact out;
  mp::Input& in = scratch.input;
  model::VecQ& frame_velocity = out.frame_velocity;
  if (!model.multipoint_input(t, q, active, in, frame_velocity)) return out;
  // the active contacts in index order (as the model stacked them)
  std::array<int, model::kMaxContacts>& index = out.contact;
  int k = 0;
  for (int c = 0; c < model.num_contacts(); ++c)
    if (active[static_cast<std::size_t>(c)]) index[static_cast<std::size_t>(k++)] = c;
  out.n_active = k;
  in.qdot_pre = qd - frame_velocity;
  mp::Params& params = scratch.params;
  params.e_star.resize(1);  // the capacity stays
  params.e_star[0] = model.contact(index[0]).law.params.e;
  params.work = mp::WorkDefinition::kIntegral;
  params.compression = mp::CompressionRule::kFirstMinimum;
  mp::validate(params);
  const mp::Prepared prep = mp::prepare(in);
  mp::CollisionResult& r = scratch.result;
  mp::resolve_collision(prep, params, r);
  out.status = static_cast<int>(r.status);
  out.energy_gain = r.status == mp::Status::kEnergyGain;
  out.ok = r.status == mp::Status::kOk || out.energy_gain;
  out.events = static_cast<int>(r.events.size());
  out.qd_post = r.qdot_post;
  out.qd_post += frame_velocity;
  for (int a = 0; a < k; ++a) {
    const auto c = static_cast<std::size_t>(index[static_cast<std::size_t>(a)]);
    for (const mp::EventResult& e : r.events)
      out.Lambda[c] += Vec2(e.Lambda(2 * a), e.Lambda(2 * a + 1));
    out.v_pre[c] = {r.v_pre(2 * a), r.v_pre(2 * a + 1)};
    out.v_post[c] = {r.v_post(2 * a), r.v_post(2 * a + 1)};
  }
  return out;
}

}  // namespace clatter::hybrid
