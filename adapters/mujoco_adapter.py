"""MuJoCo behind touchstone's engine protocol: `touchstone check-engine mujoco FILE`.

On `distance` lines: `geom_distance` (mj_geomDistance: the signed distance, and its from-to
points when apart) and `collision` (does mj_collision report a contact at or below distance
0). Boxes are box geoms, hulls and polyhedra meshes (MuJoCo holds a mesh's convex hull), balls
sphere geoms, capsules and cylinders capsule and cylinder geoms given by their ends (`fromto`,
exact).

Conventions: MJCF quaternions are "w x y z"; box sizes are half extents; mj_collision skips a
pair of static bodies unless the model names it in a <pair> (named here, with margin 0);
mj_geomDistance caps distances at its `distmax` (10⁹ here). MuJoCo stores mesh vertices as
float32 and re-expresses them in the mesh's inertial frame: a mesh is not the numbers it was
given, which is what it is judged on.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import Refused, missing, posed, serve  # noqa: E402

common.keep_stdout_for_the_protocol()
try:
    import mujoco
    import numpy as np
except ImportError as e:
    missing("mujoco", e)

DISTMAX = 1e9


def numbers(xs):
    return " ".join(repr(float(x)) for x in xs)


def body(name, p, assets):
    w, x, y, z = p["quaternion"]
    where = f'pos="{numbers(p["translation"])}" quat="{numbers([w, x, y, z])}"'
    rnd = p["round"]
    if rnd is not None and rnd["kind"] == "sphere":
        geom = f'<geom name="{name}" type="sphere" size="{numbers([rnd["radius"]])}"/>'
    elif rnd is not None:
        # A capsule or a cylinder by its ends (`fromto`): MuJoCo lays it between them.
        ends = rnd["ends"][0] + rnd["ends"][1]
        geom = f'<geom name="{name}" type="{rnd["kind"]}" size="{numbers([rnd["radius"]])}" fromto="{numbers(ends)}"/>'
    elif p["half"] is not None:
        geom = f'<geom name="{name}" type="box" size="{numbers(p["half"])}"/>'
    else:
        flat = [c for v in p["vertices"] for c in v]
        assets.append(f'<mesh name="mesh_{name}" vertex="{numbers(flat)}"/>')
        geom = f'<geom name="{name}" type="mesh" mesh="mesh_{name}"/>'
    return f'<body name="body_{name}" {where}>{geom}</body>'


def model(a, b):
    assets = []
    bodies = body("a", a, assets) + body("b", b, assets)
    xml = (f"<mujoco><asset>{''.join(assets)}</asset><worldbody>{bodies}</worldbody>"
           '<contact><pair geom1="a" geom2="b" margin="0"/></contact></mujoco>')
    try:
        m = mujoco.MjModel.from_xml_string(xml)
    except ValueError as e:
        raise Refused(f"MuJoCo does not take the model: {e}")
    return m, mujoco.MjData(m)


def answer(q):
    if q.get("op") != "distance":
        raise Refused(f"MuJoCo is asked on distance lines, not {q.get('op')}")
    a, b = posed(q, "a", "pose_a"), posed(q, "b", "pose_b")
    m, d = model(a, b)
    mujoco.mj_forward(m, d)
    fromto = np.zeros(6)
    dist = float(mujoco.mj_geomDistance(m, d, 0, 1, DISTMAX, fromto))
    geom = {"signed_distance": dist}
    if dist > 0:
        geom["points"] = [[float(c) for c in fromto[:3]], [float(c) for c in fromto[3:]]]
    mujoco.mj_collision(m, d)
    hit = any(c.dist <= 0 for c in d.contact[: d.ncon])
    return {"geom_distance": geom, "collision": {"intersecting": bool(hit)}}


if __name__ == "__main__":
    serve({"engine": "mujoco", "version": mujoco.__version__,
           "settings": {"pair": "explicit, margin 0", "distmax": DISTMAX}}, answer)
