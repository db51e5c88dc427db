"""coal (FCL's successor, as Pinocchio uses it) behind touchstone's engine protocol:
`touchstone check-engine coal FILE`.

On `distance` lines, each with coal's default GJK/EPA tolerances (10⁻⁶) and again with tight
ones (10⁻¹², as a second function): `collide` (does coal say they collide) and `distance`
(coal's signed distance, negative for a penetration, with its normal out of a toward b, judged
as a contact: the distance or the depth, and the direction).

Conventions: coal's boxes take full side lengths; poses are given as rotation matrices (coal's
`Quaternion` constructor takes w first, but prints x, y, z, w); hulls and polyhedra are
`coal.Convex` of the faces' fan triangles; balls `coal.Sphere`, capsules
`coal.Capsule(radius, length)` and cylinders `coal.Cylinder(radius, length)` along the z axis
of a frame at their middle. coal's signed distance has the opposite sign from a
depth: negative inside.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import Refused, missing, placed, posed, serve  # noqa: E402

common.keep_stdout_for_the_protocol()
try:
    import coal
    import numpy as np
except ImportError as e:
    missing("coal", e)

TIGHT = 1e-12


def geometry(p):
    rnd = p["round"]
    if rnd is not None:
        if rnd["kind"] == "sphere":
            return coal.Sphere(rnd["radius"])
        if rnd["kind"] == "cylinder":
            return coal.Cylinder(rnd["radius"], rnd["length"])
        return coal.Capsule(rnd["radius"], rnd["length"])
    if p["half"] is not None:
        return coal.Box(*(2 * h for h in p["half"]))
    pts = coal.StdVec_Vec3s()
    for v in p["vertices"]:
        pts.append(np.array(v, dtype=float))
    tris = coal.StdVec_Triangle()
    for f in p["faces"]:
        for k in range(1, len(f) - 1):
            tris.append(coal.Triangle(f[0], f[k], f[k + 1]))
    return coal.Convex(pts, tris)


def transform(p):
    r, t = placed(p) if p["round"] is not None else (p["rotation"], p["translation"])
    return coal.Transform3s(np.array(r, dtype=float), np.array(t, dtype=float))


def tighten(request):
    request.gjk_tolerance = TIGHT
    request.epa_tolerance = TIGHT
    request.gjk_max_iterations = 10000
    request.epa_max_iterations = 10000
    return request


def distance_line(q):
    a, b = posed(q, "a", "pose_a"), posed(q, "b", "pose_b")
    ga, gb, ta, tb = geometry(a), geometry(b), transform(a), transform(b)
    out = {}
    for suffix, tight in (("", False), ("_tight", True)):
        creq = coal.CollisionRequest()
        dreq = coal.DistanceRequest()
        if tight:
            tighten(creq)
            tighten(dreq)
        hit = coal.collide(ga, ta, gb, tb, creq, coal.CollisionResult()) > 0
        res = coal.DistanceResult()
        d = coal.distance(ga, ta, gb, tb, dreq, res)
        out["collide" + suffix] = {"intersecting": bool(hit)}
        out["distance" + suffix] = {"signed_distance": float(d), "normal": [float(c) for c in res.normal]}
    return out


def answer(q):
    if q.get("op") == "distance":
        return distance_line(q)
    raise Refused(f"coal is asked on distance lines, not {q.get('op')}")


if __name__ == "__main__":
    serve({"engine": "coal", "version": coal.__version__,
           "settings": {"default": "GJK/EPA tolerance 1e-6", "_tight": f"GJK/EPA tolerance {TIGHT}"}}, answer)
