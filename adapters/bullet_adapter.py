"""Bullet (pybullet, DIRECT) behind touchstone's engine protocol:
`touchstone check-engine bullet FILE`.

On `distance` lines: `closest_points` (getClosestPoints with Bullet's default collision margin:
the signed distance with its normal, judged as a contact, and the closest points when apart),
the same with margin 0 (`closest_points_margin0`), and `contact_points` (does the collision
pass find a contact point at or below distance 0; b is given a mass, because the pass skips
pairs of static bodies).

Conventions: pybullet's quaternions are [x, y, z, w]; boxes take half extents; hulls and
polyhedra are convex meshes (GEOM_MESH from their vertices), balls GEOM_SPHERE, capsules
GEOM_CAPSULE and cylinders GEOM_CYLINDER (along z, placed by the collision frame at their
middle); the contact normal Bullet reports
is on b, pointing to a (said here out of a toward b).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import Refused, missing, posed, quaternion_of_rotation, serve  # noqa: E402

common.keep_stdout_for_the_protocol()
try:
    import pybullet as p
except ImportError as e:
    missing("pybullet", e)

FAR = 1e9


def body(shape, margin=None, mass=0):
    rnd = shape["round"]
    if rnd is not None and rnd["kind"] == "sphere":
        s = p.createCollisionShape(p.GEOM_SPHERE, radius=rnd["radius"])
    elif rnd is not None:
        # Bullet's capsule and cylinder lie along z: placed at the middle, turned onto the axis.
        w, x, y, z = quaternion_of_rotation(rnd["rotation"])
        kind = p.GEOM_CAPSULE if rnd["kind"] == "capsule" else p.GEOM_CYLINDER
        s = p.createCollisionShape(kind, radius=rnd["radius"], height=rnd["length"],
                                   collisionFramePosition=rnd["centre"], collisionFrameOrientation=[x, y, z, w])
    elif shape["half"] is not None:
        s = p.createCollisionShape(p.GEOM_BOX, halfExtents=shape["half"])
    else:
        s = p.createCollisionShape(p.GEOM_MESH, vertices=shape["vertices"])
    if s < 0:
        raise Refused("Bullet did not make the shape")
    w, x, y, z = shape["quaternion"]
    b = p.createMultiBody(baseMass=mass, baseCollisionShapeIndex=s, basePosition=shape["translation"],
                          baseOrientation=[x, y, z, w])
    if margin is not None:
        p.changeDynamics(b, -1, collisionMargin=margin)
    return b


def closest(a, b, margin):
    p.resetSimulation()
    ia, ib = body(a, margin), body(b, margin)
    points = p.getClosestPoints(ia, ib, distance=FAR)
    if not points:
        raise Refused("Bullet found no closest points")
    c = min(points, key=lambda c: c[8])
    d = float(c[8])
    answer = {"signed_distance": d, "normal": [-float(n) for n in c[7]]}
    if d > 0:
        answer["points"] = [list(map(float, c[5])), list(map(float, c[6]))]
    return answer


def contact(a, b):
    # Bullet's collision pass skips pairs of static bodies: b is given a mass (nothing steps).
    p.resetSimulation()
    ia, ib = body(a), body(b, mass=1)
    p.performCollisionDetection()
    points = p.getContactPoints(ia, ib)
    return {"intersecting": any(c[8] <= 0 for c in points)}


def answer(q):
    if q.get("op") != "distance":
        raise Refused(f"Bullet is asked on distance lines, not {q.get('op')}")
    a, b = posed(q, "a", "pose_a"), posed(q, "b", "pose_b")
    return {
        "closest_points": closest(a, b, None),
        "closest_points_margin0": closest(a, b, 0.0),
        "contact_points": contact(a, b),
    }


if __name__ == "__main__":
    p.connect(p.DIRECT)
    serve({"engine": "bullet", "version": f"pybullet API {p.getAPIVersion()}",
           "settings": {"closest_points": "default collision margin", "closest_points_margin0": "margin 0"}}, answer)
