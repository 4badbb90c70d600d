#include "engine/simulate/trajectory.hpp"
#include "engine/problem/json_number.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <memory>

#include "engine/articulated/constraint_collision.hpp"
#include "engine/articulated/geom_kinematics.hpp"
#include "engine/gradient/point_eval.hpp"
#include "engine/simulate/run.hpp"

namespace sg {
namespace {

std::vector<double> values_of(const Dual1* x, int n) {
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = x[i].v;
  return out;
}

// Copies values out of the solver as it goes; bind() picks the decoder for the model type.
// Storage is reserved up front from the known output count.
struct Recorder {
  Trajectory* out;
  std::function<void(const Dual1*)> decode;
  bool body_frame_angular = false;  // free bodies run as a tree: angular velocities as the rigid layout's
  // Free bodies run as a tree name the plane by its geom, the one after the bodies': reported as -1, as the
  // free bodies' own code and the README's events have it.
  int plane_geom = -1;
  // contact.model "hard": the force is the impulses' average over the output interval (Moreau's impulses
  // are made inside each step, so the state alone shows none). Set by bind(); empty otherwise.
  std::function<double(int)> step_impulse;  // the last step's normal impulse on body i (0-based)
  std::vector<double> impulse_sum;
  double impulse_time = 0.0;

  void bind(const ParticleSystem<Dual1>& sys) {
    decode = [this, &sys](const Dual1* y) {
      const int n = sys.model->count, nq = 3 * n;
      out->q.push_back(values_of(y, nq));
      out->v.push_back(values_of(y + nq, nq));
      std::vector<double> f(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) f[static_cast<std::size_t>(i)] = sys.normal_force(y, y + nq, i).v;
      out->force.push_back(std::move(f));
    };
  }
  void bind(const RigidSystem<Dual1>& sys) {
    if (sys.model().contact == ContactModel::hard)
      step_impulse = [&sys](int b) { return sys.hard_normal_impulse(b).v; };
    decode = [this, &sys](const Dual1* y) {
      const int n = sys.model().count;
      std::vector<double> q, v, f;
      for (int b = 0; b < n; ++b) {
        const BodyState<Dual1> st = sys.body_state(y, b);
        for (const Dual1& x : {st.pos.x, st.pos.y, st.pos.z, st.quat.w, st.quat.x, st.quat.y, st.quat.z})
          q.push_back(x.v);
        for (const Dual1& x : {st.vel.x, st.vel.y, st.vel.z, st.angvel.x, st.angvel.y, st.angvel.z})
          v.push_back(x.v);
        f.push_back(sys.contact_force(y, b).v);
      }
      out->q.push_back(std::move(q));
      out->v.push_back(std::move(v));
      out->force.push_back(std::move(f));
      out->contacts.push_back(contact_marks(sys, y));
    };
  }
  // Tree bodies as rigid ones (the same layout, so plots and the 3-D view read them alike): the body
  // frame's pose and the world velocities of its origin, angular in the world frame (in the body frame for
  // free bodies run as a tree, as their own layout has it).
  void bind(const TreeSystem<Dual1>& sys) {
    if (sys.model().con.opt.hard) step_impulse = [&sys](int b) { return sys.hard_normal_impulse(b + 1).v; };
    decode = [this, &sys](const Dual1* y) {
      const int n = sys.model().bodies();
      std::vector<double> q, v, f(static_cast<std::size_t>(n), 0.0);
      sys.coordinate(y, 1, 0, 0);  // fills the poses and velocities of every body
      const TreeData<Dual1>& d = sys.data();
      for (int b = 1; b <= n; ++b) {
        const Vec3<Dual1> vel = sys.point_velocity(b), world_w = sys.angular_velocity(b);
        const Vec3<Dual1> w = body_frame_angular ? mul_transpose(to_mat3(d.xquat[b]), world_w) : world_w;
        for (const Dual1& x :
             {d.xpos[b].x, d.xpos[b].y, d.xpos[b].z, d.xquat[b].w, d.xquat[b].x, d.xquat[b].y, d.xquat[b].z})
          q.push_back(x.v);
        for (const Dual1& x : {vel.x, vel.y, vel.z, w.x, w.y, w.z}) v.push_back(x.v);
      }
      out->q.push_back(std::move(q));
      out->v.push_back(std::move(v));
      out->qpos.push_back(values_of(d.qpos, sys.tree().nq));
      out->qvel.push_back(values_of(d.qvel, sys.tree().nv));
      tree_contacts(sys, y, f);
      out->force.push_back(std::move(f));
    };
  }
  // The contact force on each body (the sum of its contacts' row forces, MuJoCo's rules at y) and the
  // contacts to draw (out to the CFD width when CFD is on: those beyond the margin are virtual).
  void tree_contacts(const TreeSystem<Dual1>& sys, const Dual1* y, std::vector<double>& force) {
    std::vector<ContactMark> marks;
    if (sys.model().con.opt.hard) {
      hard_contact_marks(sys, marks);
    } else if (sys.forces_by_rules(y)) {
      const TreeConstraintData<Dual1>& cd = *sys.constraint_data();
      const TreeConstraintModel<Dual1>& cm = sys.model().con;
      for (int r = 0; r < cd.nefc; ++r) {
        if (!tree_contact_row(cd.efc_type[r])) continue;
        const TreeContact<Dual1>& c = cd.contact[cd.efc_id[r]];
        for (const int body : {cm.geom[c.geom1].body, cm.geom[c.geom2].body})
          if (body > 0) force[static_cast<std::size_t>(body - 1)] += cd.efc_force[r].v;
      }
      if (cm.cfd.enabled) sys.collide_cfd_band();
      for (int i = 0; i < cd.ncon; ++i) {
        const TreeContact<Dual1>& c = cd.contact[i];
        const bool beyond = !(c.dist.v < c.includemargin.v);
        if (beyond && !(cm.cfd.enabled && c.dist.v - c.includemargin.v < tree_cfd_band(cm))) continue;
        marks.push_back(mark_of(c, beyond));
      }
    }
    out->contacts.push_back(std::move(marks));
  }
  // contact.model "hard": the impulses' contacts are made inside the Moreau step, so the state's touching
  // pairs are collected here (as the free bodies' view shows them). Needs the
  // state's kinematics in sys.data() (decode's coordinate() call).
  std::unique_ptr<TreeConstraintData<Dual1>> hard_scratch;
  void hard_contact_marks(const TreeSystem<Dual1>& sys, std::vector<ContactMark>& marks) {
    if (!hard_scratch) hard_scratch = std::make_unique<TreeConstraintData<Dual1>>();
    TreeConstraintData<Dual1>& cd = *hard_scratch;
    tree_geom_kinematics(sys.model().con, sys.data(), cd);
    tree_collide_geoms(sys.tree(), sys.model().con, sys.data(), cd);
    for (int i = 0; i < cd.ncon; ++i) {
      const TreeContact<Dual1>& c = cd.contact[i];
      marks.push_back(mark_of(c, !(c.dist.v < c.includemargin.v)));
    }
  }
  // A contact (free bodies' or a tree's: both carry pos, frame and dist) as the view draws it.
  template <class C>
  static ContactMark mark_of(const C& c, bool is_virtual) {
    return {{c.pos.x.v, c.pos.y.v, c.pos.z.v},
            {c.frame[0].x.v, c.frame[0].y.v, c.frame[0].z.v},
            c.dist.v,
            is_virtual};
  }
  static std::vector<ContactMark> contact_marks(const RigidSystem<Dual1>& sys, const Dual1* y) {
    Contact<Dual1> found[kMaxRigidContacts];
    const bool cfd = sys.model().cfd.enabled;
    const int n = sys.contacts(y, found, kMaxRigidContacts, cfd);
    std::vector<ContactMark> marks;
    for (int i = 0; i < n; ++i) marks.push_back(mark_of(found[i], found[i].dist.v > 0.0));
    return marks;
  }
  void on_output(long, double t, const Dual1* y, int) {
    out->t.push_back(t);
    decode(y);
    if (step_impulse) interval_forces(out->force.back());
  }
  // Hard contact: each body's impulses since the last output over the time they took (0 at the start).
  void interval_forces(std::vector<double>& force) {
    for (std::size_t b = 0; b < force.size(); ++b)
      force[b] = impulse_time > 0.0 && b < impulse_sum.size() ? impulse_sum[b] / impulse_time : 0.0;
    impulse_sum.assign(force.size(), 0.0);
    impulse_time = 0.0;
  }
  void on_accept(double h) {
    out->dt.push_back(h);
    if (!step_impulse) return;
    for (std::size_t b = 0; b < impulse_sum.size(); ++b) impulse_sum[b] += step_impulse(static_cast<int>(b));
    impulse_time += h;
  }
  void on_reject(double) {}
  void on_event(double t, const EventId& id) {
    // A straight-through CFD surrogate's own switches: "cfd_" and the kind (cfd_onset: into its band).
    const std::string kind =
        std::string(surrogate_event(id.surface) ? "cfd_" : "") + event_kind_name(id.kind);
    const auto body = [this](int geom) { return geom == plane_geom ? -1 : geom; };
    out->events.push_back({t, kind, body(id.a), body(id.b), id.feature, id.row, id.tangential});
  }
};

}  // namespace

Trajectory simulate_trajectory(const Problem& problem, double value) {
  Trajectory tr;
  tr.value = value;
  tr.layout = problem.data.type == ModelType::rigid  ? "rigid"
              : problem.data.type == ModelType::tree ? "tree"
                                                     : "particles";
  ProblemData<Dual1> pd = convert_problem<Dual1>(problem.data);
  *parameter_slot(pd, problem.sweep.parameter) = seeded<Dual1>(value, 0);
  const auto outputs = static_cast<std::size_t>(problem.integrator.steps + 1);
  tr.t.reserve(outputs);
  tr.q.reserve(outputs);
  tr.v.reserve(outputs);
  tr.force.reserve(outputs);
  Recorder rec{&tr, {}};
  rec.body_frame_angular = problem.data.type == ModelType::rigid;
  if (problem.data.type == ModelType::rigid) rec.plane_geom = problem.data.rigid.count;
  SimWorkspace<Dual1> ws;
  const RunOutput<Dual1> run = run_simulation(pd, problem.integrator, ws, rec);
  const SolveStats& st = run.stats;
  tr.accepted = st.accepted;
  tr.rejected = st.rejected;
  if (st.status != Status::ok) {
    tr.status = describe_failure(st);
    tr.loss = tr.grad = std::numeric_limits<double>::quiet_NaN();
    return tr;
  }
  tr.loss = run.loss.v;
  tr.grad = run.loss.d[0];
  return tr;
}

Trajectory tree_states_trajectory(const Problem& problem, const std::vector<double>& t,
                                  const std::vector<std::vector<double>>& y,
                                  const std::vector<std::vector<double>>& ctrl) {
  Trajectory tr;
  tr.layout = "tree";
  tr.loss = tr.grad = std::numeric_limits<double>::quiet_NaN();
  if (problem.data.type != ModelType::tree) {
    tr.status = "not a joint tree";
    return tr;
  }
  ProblemData<Dual1> pd = convert_problem<Dual1>(problem.data);
  JointTreeModel<Dual1>& m = pd.tree;
  m.controls = TreeControls<Dual1>{};  // each state's controls are set as constants below
  Recorder rec{&tr, {}};
  std::vector<Dual1> state;
  for (std::size_t i = 0; i < y.size() && i < t.size(); ++i) {
    if (!ctrl.empty()) {
      const std::vector<double>& u = ctrl[std::min(i, ctrl.size() - 1)];
      for (int a = 0; a < m.act.nu && a < static_cast<int>(u.size()); ++a) m.ctrl[a] = Dual1(u[a]);
    }
    // The system copies the constant controls when it is built: one per state (outside any step).
    const auto sys = std::make_unique<TreeSystem<Dual1>>(&m, problem.integrator.fixed_step());
    if (static_cast<int>(y[i].size()) != sys->dim()) {
      tr.status = "state " + std::to_string(i) + " has " + std::to_string(y[i].size()) +
                  " numbers, the tree " + std::to_string(sys->dim());
      return tr;
    }
    rec.bind(*sys);
    state.assign(y[i].begin(), y[i].end());
    rec.on_output(static_cast<long>(i), t[i], state.data(), sys->dim());
  }
  return tr;
}

nlohmann::json trajectory_to_json(const Trajectory& tr) {
  nlohmann::json events = nlohmann::json::array();
  for (const EventMark& e : tr.events)
    events.push_back({{"t", e.t},
                      {"kind", e.kind},
                      {"a", e.a},
                      {"b", e.b},
                      {"feature", e.feature},
                      {"row", e.row},
                      {"tangential", e.tangential}});
  nlohmann::json contacts = nlohmann::json::array();
  for (const auto& step : tr.contacts) {
    nlohmann::json marks = nlohmann::json::array();
    for (const ContactMark& c : step)
      marks.push_back({{"pos", c.pos}, {"normal", c.normal}, {"dist", c.dist}, {"virtual", c.is_virtual}});
    contacts.push_back(marks);
  }
  nlohmann::json out = {{"contacts", contacts},
                        {"value", tr.value},
                        {"t", tr.t},
                        {"q", tr.q},
                        {"v", tr.v},
                        {"force", tr.force},
                        {"dt", tr.dt},
                        {"events", events},
                        {"loss", number_or_null(tr.loss)},
                        {"grad", number_or_null(tr.grad)},
                        {"status", tr.status},
                        {"layout", tr.layout},
                        {"accepted", tr.accepted},
                        {"rejected", tr.rejected}};
  if (!tr.qpos.empty()) {  // joint trees
    out["qpos"] = tr.qpos;
    out["qvel"] = tr.qvel;
  }
  return out;
}

}  // namespace sg
