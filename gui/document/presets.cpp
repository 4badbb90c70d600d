#include "gui/document/presets.hpp"

namespace sg::gui {

std::span<const Preset> preset_table() {
  static const std::vector<Preset> table = {
      {"toy_coarse",
       "1-D toy: coarse",
       "toy_point_mass.json",
       {},
       "DiffMJX's 1-D toy, penalty contact at h = 0.1: the loss is a sawtooth and the gradient flips sign "
       "between "
       "about -3.6 and +4. Look at the error plot: AD agrees with FD of the same simulation to about 1e-10, "
       "so "
       "the gradient is exact for this discrete map and still wrong for the physics. Pin it (P), then open "
       "the "
       "fine preset."},
      {"toy_fine",
       "1-D toy: fine",
       "toy_point_mass.json",
       {"integrator.substeps=1000", "gradient.fd_eps=1e-4"},
       "The same toy with 1000 substeps (h = 1e-4): the loss is smooth and the gradient sits at the "
       "continuous ODE's +-0.80 (its sign flips where the final height crosses the target). Against the "
       "pinned coarse sweep, the oscillation is the step size's doing, not the contact's. FD uses a step of "
       "1e-4, one time step: the fine loss still jumps by O(h) wherever the contact moves across a step, "
       "and the scene's 1e-6 would turn those jumps into spikes of +-62 at 46 of the 2000 points."},
      {"toy_adaptive",
       "1-D toy: adaptive",
       "toy_point_mass.json",
       {"integrator.type=tsit5", "integrator.rtol=1e-8", "integrator.atol=1e-8"},
       "Tsit5 at rtol = atol = 1e-8 with the contact events located: the smooth loss and the continuous "
       "ODE's "
       "gradient (+-0.80035) without a thousand steps per output. The status bar counts accepted steps, "
       "rejections and events; turn integrator.events off to see what stepping across the contact costs."},
      {"toy_adaptive_plain",
       "1-D toy: adaptive, events off",
       "toy_point_mass.json",
       {"integrator.type=tsit5", "integrator.rtol=1e-8", "integrator.atol=1e-8", "integrator.events=false"},
       "Tsit5 1e-8 stepping across the contact switches as DiffMJX does: AD misses the damping jump at "
       "contact "
       "by about 1e-5, and FD of the adaptive simulation itself is noise (off by up to 7: its step decisions "
       "jump with the parameter). Set gradient.reference to fd_tight to compare AD with a reference worth "
       "trusting."},
      {"elastic_naive",
       "Elastic: naive",
       "toy_elastic.json",
       {},
       "An ideal elastic impact by flipping the velocity at the step after contact: AD and FD agree on "
       "dq_N/dq0 "
       "= +1 between the jumps, while the loss falls across the sweep. The discrete map is a staircase of "
       "pieces "
       "with the wrong slope; the time-of-impact preset fixes it."},
      {"elastic_toi",
       "Elastic: time of impact",
       "toy_elastic.json",
       {"contact.elastic.toi=true"},
       "The step split at the exact time of impact: the discrete map is smooth and AD = FD = the analytic "
       "dq_N/dq0 = -1 (d loss/dq0 = -1, then +1 past the minimum at q0 = 1). Press Descend: every path ends "
       "in a "
       "minimum."},
      {"falling_hard",
       "Falling mass: hard",
       "falling_mass.json",
       {"loss.terms.0.quantity=velocity"},
       "The analytic-smoothing paper's falling mass (Fig. 3), loss = final velocity: Moreau time stepping "
       "with "
       "hard contact (kappa = inf). Masses dropped from below about 1.23 m land (velocity 0), higher ones "
       "still "
       "fall: the loss jumps and the gradient is exactly 0 on both sides, useless for optimisation."},
      {"falling_smoothed",
       "Falling mass: smoothed",
       "falling_mass.json",
       {"loss.terms.0.quantity=velocity", "contact.hard.kappa=30"},
       "The same with the analytic sigmoid smoothing of the contact, kappa = 30 (the paper's Fig. 3 picture "
       "at "
       "this dt of 0.01): the jump becomes a ramp, and the gradient is one smooth dip (about -35 near 1.2 m, "
       "close to randomized smoothing's -24) that equals FD, since it is the exact derivative of a smooth "
       "simulation. Drag kappa to trade smoothness for fidelity; the kappa 300 preset shows what happens "
       "when "
       "the ramp is narrower than a step."},
      {"falling_smoothed_kappa300",
       "Falling mass: kappa 300 (contrast)",
       "falling_mass.json",
       {"loss.terms.0.quantity=velocity", "contact.hard.kappa=300"},
       "kappa = 300, the paper's training value, at this scene's dt of 0.01: the sigmoid ramp is a few mm "
       "wide while the mass lands at up to 5 cm a step, so each step samples the ramp somewhere else. The "
       "gradient flips sign about 70 times where the mass lands and spikes to -390 against randomized "
       "smoothing's -24: still the exact derivative of the simulation (AD = FD), but not a useful one. "
       "Shrink integrator.dt or kappa to see it settle."},
      {"falling_stochastic",
       "Falling mass: stochastic",
       "falling_mass.json",
       {"loss.terms.0.quantity=velocity", "gradient.smoothing.samples=64"},
       "Randomized smoothing with 64 samples beside the hard model: the zeroth-order estimate sees the jump "
       "but "
       "is noisy, the first-order one averages the hard model's zero gradients and stays biased to 0. "
       "Compare "
       "with the analytic smoothing preset."},
      // 3-D rigid bodies, all 200 points of the scene files (a few milliseconds a point with contact events).
      {"box_toss_mjx",
       "Box toss: MJX",
       "toss_box_mjx.json",
       {},
       "MJX's setting: explicit Euler at h = 0.01 on the box toss, the final y over the initial v_z. AD is "
       "exact "
       "for this discrete map (it matches FD to 1e-9) and far from the physics: 6.2 at v_z = -2, where the "
       "converged derivative is 0.58. Pin it, then open the DiffMJX preset."},
      {"box_toss_diffmjx",
       "Box toss: DiffMJX",
       "toss_box_diffmjx.json",
       {"integrator.rtol=1e-7", "integrator.atol=1e-7"},
       "DiffMJX's adaptive Tsit5 at rtol = atol = 1e-7 (the scene's 1e-8 is its sweep figure) on the same "
       "toss, "
       "contact events located: AD is within 1% of a tight-tolerance reference (median 0.7%; pick "
       "gradient.reference fd_tight to draw it). The status bar shows about 300 steps and 70 located contact "
       "switches per point."},
      {"box_toss_diffmjx_plain",
       "Box toss: DiffMJX, events off",
       "toss_box_diffmjx.json",
       {"integrator.rtol=1e-7", "integrator.atol=1e-7", "integrator.events=false",
        "gradient.reference=fd_tight"},
       "DiffMJX's own stepping across the contact switches: the frozen-step gradient misses the force jumps "
       "at "
       "contact onset, 17% median error against the tight reference at 1e-7 (drawn here), with a floor of "
       "about 1% that a tighter tolerance does not remove. Compare the rejected steps in the status bar."},
      {"box_toss_diffmjx_cfd",
       "Box toss: DiffMJX, straight-through CFD",
       "toss_box_diffmjx.json",
       {"contact.cfd.enabled=true", "contact.cfd.solimp=[0,0.01,0.05,1,2]"},
       "DiffMJX's CFD settings for the cube (solimp-CFD [0, 0.01, 0.05, 1, 2], straight-through): the same "
       "simulation, the surrogate's gradient. The surrogate's own switches (its rows, its band's edge) end "
       "steps like the contacts': set contact.cfd.surrogate_events=false to let the steps run across them "
       "and watch the gradient go jagged."},
      {"box_toss_diffmjx_softcol",
       "Box toss: DiffMJX soft collision",
       "toss_box_diffmjx_softcol.json",
       {},
       "DiffMJX's smoothed box collision (collision.mode diffmjx, softness 0.1): four coincident "
       "contacts at a blend of the lowest corners, 1-6 mm short of touching; the loss at v_z = -2 is "
       "DiffMJX's -0.3018 (exact collision: -0.2609)."},
      {"sphere_toss_diffmjx",
       "Sphere toss: DiffMJX",
       "toss_sphere_diffmjx.json",
       {},
       "DiffMJX's sphere toss (Tsit5, 1e-8): one contact point, so few switches (about 13 located per "
       "point). "
       "AD matches FD of the same simulation to 0.2% (median); compare the events and the error with the "
       "box's four corners."},
      {"capsule_toss_diffmjx",
       "Capsule toss: DiffMJX",
       "toss_capsule_diffmjx.json",
       {},
       "DiffMJX's capsule toss (Tsit5, 1e-8): the two end spheres touch down one after the other, each a "
       "located contact switch; AD matches FD to 0.2% (median). Watch the 3-D view: one end lands, bounces, "
       "then the other."},
      {"cylinder_toss_diffmjx",
       "Cylinder toss: DiffMJX",
       "toss_cylinder_diffmjx.json",
       {},
       "DiffMJX's cylinder toss (Tsit5, 1e-8): rim points and a triangle of cap points make and break "
       "contact as "
       "it tips, the most rejected steps of the tosses; AD still matches FD to 0.3% (median)."},
      {"ellipsoid_toss_diffmjx",
       "Ellipsoid toss: DiffMJX",
       "toss_ellipsoid_diffmjx.json",
       {},
       "DiffMJX's ellipsoid toss (Tsit5, 1e-8): a single contact point that moves smoothly over the surface, "
       "the best AD-FD agreement of the tosses (0.05% median)."},
      {"billiards_cfd",
       "Billiards: CFD",
       "billiards.json",
       {},
       "Straight-through Contacts From Distance: the simulation is plain MuJoCo contact, the gradient sees "
       "the "
       "8-ball from 10 cm (the cyan lines in the 3-D view). Where the cue ball misses, the gradient still "
       "points towards a hit: press Descend and watch the paths from the misses move into the valley.",
       0.2},
      {"billiards_nocfd",
       "Billiards: no CFD",
       "billiards.json",
       {"contact.cfd.enabled=false"},
       "Plain contact: where the cue ball misses, the gradient is exactly 0 and Descend's paths from there "
       "never "
       "move; where it hits, AD through the collision matches FD.",
       0.2},
      {"billiards_nogravity",
       "Billiards: no gravity",
       "billiards_nogravity.json",
       {},
       "DiffMJX's appendix corner case: only the ball-ball contact, no table. The frozen adaptive steps run "
       "across the CFD surrogate's own switches (surrogate_events off, as DiffMJX steps) and the unrolled "
       "gradient oscillates; switch contact.cfd.surrogate_events on and it is as smooth as backsolve's.",
       0.2},
      {"billiards_nogravity_backsolve",
       "Billiards: backsolve",
       "billiards_nogravity.json",
       {"gradient.mode=backsolve"},
       "The same corner case with the continuous adjoint (DiffMJX Fig. S3): state and adjoint integrated "
       "backwards in time instead of differentiating the frozen steps. The AD curve is smooth where the "
       "unrolled one across the surrogate's switches oscillates. Backsolve can be wrong on damped or "
       "switching contact (the state is not "
       "retraced backwards): compare with FD, and see gradient.mode's tooltip.",
       0.2},
      {"cube_push",
       "Cube push: Adam",
       "cube_push.json",
       {},
       "The few-shot paper's Fig. 1: a pushed cube hits a resting one, and the push speed is optimised so "
       "that "
       "the second cube stops 15 cm on. Press Descend: Adam's paths from five starts meet near 2 m/s within "
       "30 steps, also the ones too slow to reach the other cube (straight-through CFD's gradient). The "
       "sliding corners hop (MuJoCo's pyramidal friction), so FD is noise while AD follows the trend.",
       0.15},
      {"cube_push_nocfd",
       "Cube push: no CFD",
       "cube_push.json",
       {"contact.cfd.enabled=false"},
       "Without CFD, pushes slower than 0.89 m/s never reach the other cube: the loss is flat and the "
       "gradient exactly 0 there, and Descend's slowest start never moves.",
       0.15},
      {"cube_push_hard",
       "Cube push: smoothed hard contact",
       "cube_push.json",
       {"contact.model=hard", "integrator.type=moreau", "integrator.dt=0.002", "integrator.steps=500",
        "contact.hard.kappa=300", "contact.cfd.enabled=false", "gradient.fd_eps=1e-7"},
       "The same push with the analytic-smoothing paper's hard contact (Moreau steps, kappa = 300; the "
       "friction is the surfaces' 0.4): no soft-contact hops and a smooth loss. AD equals central FD at "
       "every point. FD's step is 1e-7 here: at the default 1e-6 a few central differences straddle a kink "
       "the smoothing leaves (a contact entering the 10 / kappa look-ahead, the friction cone switching "
       "between sticking and sliding) and spike. Compare the minimum with the soft contact's.",
       0.15},
      {"identify_cube",
       "Identify: cube",
       "identify_cube_toss.json",
       {},
       "System identification: the cube's friction, solref and throw speed from its own positions. Open the "
       "Identify tab and press Fit: Levenberg-Marquardt starts from wrong values "
       "(identify.parameters.*.start) "
       "and each number's error against the scene's truth falls by orders of magnitude within about ten "
       "steps. Raise identify.noise to see which numbers the data pin down (friction) and which they barely "
       "see (the damping ratio)."},
      {"identify_rollouts",
       "Identify: rollouts",
       "identify_cube_rollouts.json",
       {},
       "Identification from several measured runs of one cube (identify.rollouts: a drop, a throw, another "
       "tilt), fitted together. Open the Identify tab and press Fit. Set identify.rollouts.0.value to 2 (a "
       "faster throw) and fit again: the fit stops in a local minimum, solref far from the truth."},
      {"identify_contactnets",
       "Identify: real cube tosses",
       "contactnets_cube.json",
       {},
       "Real measurements (DiffMJX Sec. 5.1): the ContactNets acrylic cube's first toss, simulated from its "
       "measured start with MJX's Euler at the 148 Hz sampling step; the sweep moves the cube's friction "
       "and the loss is where it ends along x. In the Identify tab, 'measured tosses' replays any toss "
       "from its first measured frame (the measurement against the simulation; in the 3-D view the "
       "measured cube translucent green beside the simulated one) and fits the side length to the tosses "
       "(DiffMJX Fig. 9; set the size smaller first, Fit, Apply, Replay). All 400 tosses and the paper's "
       "configurations: softgrad fit scenes/contactnets_cube.json --tosses "
       "../shared/data/contactnets/tosses.csv --wrt model.bodies.0.size (docs/identification.md)."},
      {"robot_pendulum_floor",
       "Robots: pendulum strikes the floor",
       "pendulum_floor.json",
       {},
       "A double pendulum imported from MJCF whose ball strikes the floor and skids: MuJoCo's soft contact "
       "over joints, stepped as mj_step does (softgrad validate shows the difference at round-off). AD and "
       "FD "
       "of the Euler map agree at every point; the gradient jumps where the strike moves by a step.",
       0.6},
      {"robot_humanoid",
       "Robots: humanoid falls",
       "humanoid_fall.json",
       {},
       "MuJoCo's own humanoid.xml (a free joint at the root, 21 limited hinges) pushed and falling: up to "
       "14 contacts at once. Whether the head ends in front or behind flips with the push, and the loss "
       "curve jumps there; between the jumps AD follows FD. Play it back in the 3-D view.",
       0.9},
      {"robot_slider_crank",
       "Robots: MuJoCo's slider-crank",
       "slider_crank.json",
       {},
       "MuJoCo's own slider_crank.xml: three links driven through slider-crank transmissions (a rod from a "
       "crank site to a slider on a site's axis). The third is MuJoCo's 'broken' crank: its rod cannot reach "
       "its axis at the start, so its length is the crank site's position along the axis until the link "
       "swings within reach. Sweep the forward crank's target; AD follows FD at every point."},
      {"robot_rock_toss",
       "Robots: a mesh rock strikes a ramp",
       "rock_toss.json",
       {},
       "A rock, a convex mesh of ten vertices, thrown along the floor into a low mesh ramp. Meshes collide "
       "as "
       "their convex hulls, as in MuJoCo: the floor touches the hull's deepest vertex and up to two of its "
       "neighbours, the ramp meets the rock through MPR. Sweep the spin at release: each spin lands the rock "
       "on other vertices, and the loss and gradient jump where the tumbling changes; play a point back in "
       "the 3-D view."},
      {"robot_terrain_roll",
       "Robots: a ball rolls over terrain",
       "terrain_roll.json",
       {},
       "A ball launched across hilly terrain, a height field read from a PNG height map. As in MuJoCo, the "
       "ball meets each triangle of the grid cells under it as a prism, through MPR. Sweep the sideways "
       "launch speed: where the ball ends and its gradient change as it runs down one side of a hill or the "
       "other, and the faceted surface shows as small steps; play a point back in the 3-D view."},
      {"robot_cart_pole",
       "Robots: cart-pole knots",
       "cart_pole.json",
       {},
       "A cart-pole driven by eight control knots (control.actuators.0.knots); the loss is how far the pole "
       "is from upright (its joint's qpos). Every knot is a scene number: sweep another one, or drag them in "
       "the control panel and watch the swing change."},
      {"robot_finger_push",
       "Robots: finger pushes a box (CFD)",
       "finger_push.json",
       {},
       "A two-link finger turns to its shoulder target and its fingertip pushes a box towards a target. "
       "Below about 0.54 rad it stops short: the loss is flat, yet straight-through CFD already gives a "
       "small negative gradient (the derivatives feel the box from 10 cm away; the simulation is MuJoCo's). "
       "Beyond the touch AD follows FD."},
      {"robot_finger_push_nocfd",
       "Robots: finger push, no CFD",
       "finger_push.json",
       {"contact.cfd.enabled=false"},
       "The finger push without CFD: every target short of the touch has a gradient of exactly 0, so a "
       "gradient-based planner starting there never moves."},
      {"robot_finger_push_hard",
       "Robots: finger push, smoothed hard contact",
       "finger_push.json",
       {"contact.model=hard", "integrator.type=moreau", "contact.hard.kappa=300",
        "contact.cfd.enabled=false"},
       "The finger push with the analytic-smoothing paper's hard contact over the joints: Moreau steps at "
       "the "
       "file's 5 ms, Gauss-Seidel impulses smoothed by kappa = 300. The smoothed impulses act from 10 / "
       "kappa "
       "= 3.3 cm before the touch, so the gradient turns nonzero near 0.44 rad instead of 0.54, and AD "
       "follows FD at all but one point (near 0.92 rad FD straddles a kink the smoothing leaves: a contact "
       "entering the look-ahead or the friction cone switching between sticking and sliding). Set "
       "contact.hard.kappa=inf for the hard model: a gradient of 0 until the touch, and FD noise after it."},
      {"robot_mpc_push",
       "Robots: MPC push (gradient vs sampling)",
       "mpc_finger_push.json",
       {},
       "Model-predictive control through contact: open the MPC tab and press Run MPC. The finger starts 8 cm "
       "short of the box; the gradient planner (Adam on the control knots, reverse mode) pushes it onto the "
       "target with CFD, and never moves without it (tick 'also without CFD'); predictive sampling is the "
       "baseline. Press play beside a run to watch its executed motion."},
      {"robot_mpc_bat",
       "Robots: MPC bat (a stroke through contact)",
       "mpc_bat.json",
       {},
       "A ball is thrown past a two-link arm that must bat it back onto a target: open the MPC tab and press "
       "Run MPC. The gradient planner plans with CFD in the forward simulation and acts on MuJoCo's contact; "
       "without CFD it never swings at the ball. Predictive sampling is the baseline."},
      {"robot_mpc_reach",
       "Robots: MPC muscle reach (arm26)",
       "mpc_arm26_reach.json",
       {},
       "MuJoCo's arm26: six muscles on tendons wrapping the shoulder and elbow bring the hand to a target. "
       "Open "
       "the MPC tab and press Run MPC: the gradient planner (over-actuated: two muscles per joint) reaches "
       "it "
       "to a few mm; predictive sampling gets within a few cm. The sweep shows the hand's cost over one "
       "muscle's constant control."},
      {"robot_double_pendulum",
       "Robots: double pendulum chaos",
       "double_pendulum.json",
       {},
       "An undamped double pendulum over 8 s: the loss over the start angle is jagged and the gradient is "
       "in the hundreds and thousands, yet AD equals FD of the same map at every point. That is chaos, not a "
       "wrong gradient: set integrator.steps to 200 and the curve is smooth again."},
  };
  return table;
}

const Preset* find_preset(const std::string& name) {
  for (const Preset& preset : preset_table()) {
    if (name == preset.name) return &preset;
  }
  return nullptr;
}

}  // namespace sg::gui
