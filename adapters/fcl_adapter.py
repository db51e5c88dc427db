"""FCL (python-fcl) behind touchstone's engine protocol: `touchstone check-engine fcl FILE`.

On `distance` lines: `collide` (does FCL say they intersect), `distance` (FCL's unsigned
distance with its nearest points; FCL returns −1 for shapes that collide, said here as distance
0 without points, the distance op's answer for intersecting shapes), `signed_distance` (with
enable_signed_distance). On `toi` lines: `continuousCollide` with linear motions, by the naive
solver (`ccd_naive`) and by conservative advancement (`ccd_conservative_advancement`).

Conventions: FCL's boxes take full side lengths; `fcl.Transform` takes a quaternion [w, x, y, z]
and does not normalise it (normalised here); hulls and polyhedra are `fcl.Convex`; balls are
`fcl.Sphere`, capsules `fcl.Capsule(radius, length)` and cylinders `fcl.Cylinder(radius,
length)` along the z axis of a frame placed at their middle (rounded polytopes are refused:
FCL has none).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import Refused, missing, number, placed, posed, serve, vec3  # noqa: E402

common.keep_stdout_for_the_protocol()
try:
    import fcl
    import numpy as np
except ImportError as e:
    missing("python-fcl", e)


def geometry(p):
    rnd = p["round"]
    if rnd is not None:
        if rnd["kind"] == "sphere":
            return fcl.Sphere(rnd["radius"])
        if rnd["kind"] == "cylinder":
            return fcl.Cylinder(rnd["radius"], rnd["length"])
        return fcl.Capsule(rnd["radius"], rnd["length"])
    if p["half"] is not None:
        return fcl.Box(*(2 * h for h in p["half"]))
    flat = []
    for f in p["faces"]:
        flat += [len(f)] + list(f)
    return fcl.Convex(np.array(p["vertices"], dtype=float), len(p["faces"]), np.array(flat, dtype=np.int64))


def transform(p, shift=(0.0, 0.0, 0.0)):
    if p["round"] is not None:
        # A ball's or capsule's own frame (a capsule lies along its z axis), as a rotation matrix.
        r, t = placed(p)
        return fcl.Transform(np.array(r, dtype=float), np.array([t[i] + shift[i] for i in range(3)]))
    t = np.array([p["translation"][i] + shift[i] for i in range(3)])
    return fcl.Transform(np.array(p["quaternion"]), t)


def obj(p, shift=(0.0, 0.0, 0.0)):
    return fcl.CollisionObject(geometry(p), transform(p, shift))


def distance_line(q):
    a, b = posed(q, "a", "pose_a"), posed(q, "b", "pose_b")
    oa, ob = obj(a), obj(b)
    hit = fcl.collide(oa, ob, fcl.CollisionRequest(), fcl.CollisionResult()) > 0
    res = fcl.DistanceResult()
    d = fcl.distance(oa, ob, fcl.DistanceRequest(enable_nearest_points=True), res)
    if d < 0:
        unsigned = {"distance": 0.0, "said": f"distance {d!r} (FCL: colliding)"}
    elif any(p is None for p in res.nearest_points):
        unsigned = {"distance": float(d), "said": f"distance {d!r}, no nearest points"}
    else:
        pts = [[float(c) for c in p] for p in res.nearest_points]
        unsigned = {"distance": float(d), "points": pts}
    sres = fcl.DistanceResult()
    sd = fcl.distance(oa, ob, fcl.DistanceRequest(enable_nearest_points=True, enable_signed_distance=True), sres)
    return {
        "collide": {"intersecting": hit},
        "distance": unsigned,
        "signed_distance": {"signed_distance": float(sd)},
    }


def velocity(q, key):
    v = q.get(key, [0, 0, 0])
    if not isinstance(v, list):
        raise Refused("a velocity given as an object (linear and angular)")
    return vec3(v, key)


def toi_line(q):
    a, b = posed(q, "a", "pose_a"), posed(q, "b", "pose_b")
    va, vb = velocity(q, "velocity_a"), velocity(q, "velocity_b")
    t0, t1 = (number(t) for t in q.get("interval", [0, 1]))
    # FCL moves each object from its transform to tf_end over [0, 1]: here from t0 to t1.
    oa, ob = obj(a, [v * t0 for v in va]), obj(b, [v * t0 for v in vb])
    ea = transform(a, [v * t1 for v in va])
    eb = transform(b, [v * t1 for v in vb])
    out = {}
    for name, solver in (("ccd_naive", fcl.CCDSolverType.CCDC_NAIVE),
                         ("ccd_conservative_advancement", fcl.CCDSolverType.CCDC_CONSERVATIVE_ADVANCEMENT)):
        req = fcl.ContinuousCollisionRequest(ccd_motion_type=fcl.CCDMotionType.CCDM_LINEAR, ccd_solver_type=solver)
        res = fcl.ContinuousCollisionResult()
        fcl.continuousCollide(oa, ea, ob, eb, req, res)
        if res.is_collide:
            out[name] = {"collides": True, "toi": t0 + float(res.time_of_contact) * (t1 - t0)}
        else:
            out[name] = {"collides": False}
    return out


def answer(q):
    op = q.get("op")
    if op == "distance":
        return distance_line(q)
    if op == "toi":
        return toi_line(q)
    raise Refused(f"FCL is asked on distance and toi lines, not {op}")


if __name__ == "__main__":
    serve({"engine": "fcl", "version": f"python-fcl {fcl.__version__}",
           "settings": {"distance": "unsigned, nearest points", "ccd": "linear motion, naive and conservative advancement"}}, answer)
