"""What every shipped adapter shares, standard library only: the engine protocol's loop, and a
query line's shapes and poses read into binary64 as an engine holds them.

The protocol (oracle/FORMAT.md, "The engine protocol"): a hello line, then for each query line
read on standard input one answer line, in order: {"id", "answers": {FUNCTION: {claim fields}}}
or {"id", "error": "why"}.

Shapes come out as (vertices, faces) in the shape's own frame, with the format's vertex ids
(a box's vertex i is (x>0) + 2(y>0) + 4(z>0)), plus the box's half extents when it is one;
balls, capsules and cylinders as their radius and axis (`round_shape`, placed in the world by
`placed`);
poses as a rotation matrix (rows) and a translation. A quaternion pose is normalised here (an
engine takes unit quaternions; touchstone's pose is the rotation q v q̄ / |q|², the same
map); a matrix pose, which may shear, is applied to the vertices, and the shape is then a
polyhedron at the identity.
"""

import json
import math
import os
import sys
from fractions import Fraction

_protocol = None


def keep_stdout_for_the_protocol():
    """Engines' C libraries print to standard output (pybullet its build time, FCL warnings):
    the protocol gets its own copy of the descriptor, and descriptor 1 goes to standard error.
    Call it before importing an engine."""
    global _protocol
    sys.stdout.flush()
    _protocol = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)


class Refused(Exception):
    """A query this adapter's engine cannot be asked (said back as the line's "error")."""


def number(x):
    """A number of the line as the binary64 value an engine holds: a JSON number is one, a
    string an exact rational (rounded to the nearest)."""
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise Refused(f"{x!r} is not a number")
    try:
        return float(Fraction(x)) if isinstance(x, str) else float(x)
    except (ValueError, ZeroDivisionError, OverflowError) as e:
        raise Refused(f"{x!r}: {e}")


def vec3(v, what="a point"):
    if not isinstance(v, list) or len(v) != 3:
        raise Refused(f"{what} is not [x, y, z]")
    return [number(c) for c in v]


BOX_FACES = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]]


def box_vertices(half):
    return [[half[0] if i & 1 else -half[0], half[1] if i & 2 else -half[1], half[2] if i & 4 else -half[2]] for i in range(8)]


def hull_faces(points):
    """The faces of the convex hull of a few points (brute force: every triple whose plane has
    all points on one side), as triangles counterclockwise from outside; coplanar triangles
    of one face are all kept (a triangulated face)."""
    n = len(points)
    if n > 64:
        raise Refused("a hull of more than 64 points")
    faces = []
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                a, b, c = points[i], points[j], points[k]
                u = [b[m] - a[m] for m in range(3)]
                w = [c[m] - a[m] for m in range(3)]
                nrm = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
                if nrm == [0.0, 0.0, 0.0]:
                    continue
                side = [sum(nrm[m] * (p[m] - a[m]) for m in range(3)) for p in points]
                if all(s <= 0 for s in side):
                    faces.append([i, j, k])
                elif all(s >= 0 for s in side):
                    faces.append([i, k, j])
    if not faces:
        raise Refused("a flat hull")
    return faces


def shape(spec, what):
    """(vertices, faces, half extents or None) of a shape of the line."""
    if not isinstance(spec, dict) or len(spec) != 1:
        raise Refused(f"{what} is not a shape")
    (kind, body), = spec.items()
    if kind == "box":
        half = vec3(body, f"{what}'s half extents")
        return box_vertices(half), BOX_FACES, half
    if kind == "polyhedron":
        vertices = [vec3(v, f"a vertex of {what}") for v in body.get("vertices", [])]
        faces = body.get("faces", [])
        if not all(isinstance(f, list) and all(isinstance(i, int) and 0 <= i < len(vertices) for i in f) for f in faces):
            raise Refused(f"{what}'s faces are not vertex lists")
        return vertices, faces, None
    if kind == "convex_hull":
        points = [vec3(v, f"a point of {what}") for v in body]
        return points, hull_faces(points), None
    raise Refused(f"{what} is a {kind} shape, which this adapter does not read")


def rotation_of_quaternion(q):
    w, x, y, z = (number(c) for c in q)
    s = math.sqrt(w * w + x * x + y * y + z * z)
    if s == 0:
        raise Refused("a zero quaternion")
    w, x, y, z = w / s, x / s, y / s, z / s
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ], [w, x, y, z]


def quaternion_of_rotation(r):
    """A unit quaternion [w, x, y, z] of a rotation matrix (rows)."""
    trace = r[0][0] + r[1][1] + r[2][2]
    if trace > 0:
        s = 2 * math.sqrt(1 + trace)
        return [s / 4, (r[2][1] - r[1][2]) / s, (r[0][2] - r[2][0]) / s, (r[1][0] - r[0][1]) / s]
    i = max(range(3), key=lambda k: r[k][k])
    j, k = (i + 1) % 3, (i + 2) % 3
    s = 2 * math.sqrt(1 + r[i][i] - r[j][j] - r[k][k])
    q = [0.0, 0.0, 0.0, 0.0]
    q[0] = (r[k][j] - r[j][k]) / s
    q[1 + i] = s / 4
    q[1 + j] = (r[j][i] + r[i][j]) / s
    q[1 + k] = (r[k][i] + r[i][k]) / s
    return q


def matmul(a, b):
    return [[sum(a[i][m] * b[m][j] for m in range(3)) for j in range(3)] for i in range(3)]


def round_shape(spec, what):
    """A ball, a capsule or a cylinder of the line in its own frame: {"kind": "sphere",
    "radius"} or {"kind": "capsule" or "cylinder", "radius", "ends", "length", "centre",
    "rotation"} (rotation: columns e1, e2, d, taking the z axis, along which engines lay
    capsules and cylinders, onto the axis d from end a to end b); None for any other shape. A `round` shape (a rounded polytope) is refused: no
    shipped engine has one."""
    if not isinstance(spec, dict) or len(spec) != 1:
        return None
    (kind, body), = spec.items()
    if kind == "ball":
        radius = number(body)
        return {"kind": "sphere", "radius": radius}
    if kind in ("capsule", "cylinder"):
        if not isinstance(body, dict):
            raise Refused(f"{what} is not a {kind}")
        a, b, radius = vec3(body.get("a"), f"{what}'s end a"), vec3(body.get("b"), f"{what}'s end b"), number(body.get("radius"))
        u = [b[i] - a[i] for i in range(3)]
        length = math.sqrt(sum(c * c for c in u))
        if length == 0:
            raise Refused(f"{what}'s ends coincide")
        d = [c / length for c in u]
        # e1: perpendicular to d (crossed with the coordinate axis least along it), e2 = d × e1.
        axis = min(range(3), key=lambda k: abs(d[k]))
        x = [1.0 if k == axis else 0.0 for k in range(3)]
        e1 = [d[1] * x[2] - d[2] * x[1], d[2] * x[0] - d[0] * x[2], d[0] * x[1] - d[1] * x[0]]
        n = math.sqrt(sum(c * c for c in e1))
        e1 = [c / n for c in e1]
        e2 = [d[1] * e1[2] - d[2] * e1[1], d[2] * e1[0] - d[0] * e1[2], d[0] * e1[1] - d[1] * e1[0]]
        rotation = [[e1[i], e2[i], d[i]] for i in range(3)]
        centre = [(a[i] + b[i]) / 2 for i in range(3)]
        return {"kind": kind, "radius": radius, "ends": [a, b], "length": length, "centre": centre, "rotation": rotation}
    if kind == "round":
        raise Refused(f"{what} is a rounded polytope, which this adapter's engine does not have")
    return None


def placed(p):
    """A round shape's own frame in the world: (rotation rows, translation) — for a capsule,
    the frame whose z axis is its axis, centred at its middle."""
    rnd = p["round"]
    if rnd["kind"] == "sphere":
        return p["rotation"], p["translation"]
    return matmul(p["rotation"], rnd["rotation"]), world(p, rnd["centre"])


def posed(line, shape_key, pose_key):
    """A posed shape of the line: a dict with vertices, faces and half (in the shape's frame),
    rotation (rows), quaternion ([w, x, y, z], unit) and translation; for a ball or a capsule,
    `round` (see `round_shape`) and no vertices."""
    pose = line.get(pose_key) or {}
    if not isinstance(pose, dict):
        raise Refused(f"{pose_key} is not a pose")
    rnd = round_shape(line.get(shape_key), shape_key)
    if rnd is not None:
        t = vec3(pose.get("translation", [0, 0, 0]), f"{pose_key}'s translation")
        if "matrix" in pose:
            m = pose["matrix"]
            if not isinstance(m, list) or len(m) != 3 or not all(isinstance(r, list) and len(r) == 4 for r in m):
                raise Refused(f"{pose_key}'s matrix is not 3×4")
            r = [[number(c) for c in row[:3]] for row in m]
            t = [number(row[3]) for row in m]
            q = quaternion_of_rotation(r)
        else:
            r, q = rotation_of_quaternion(pose.get("quaternion", [1, 0, 0, 0]))
        return {"vertices": None, "faces": None, "half": None, "round": rnd, "rotation": r, "quaternion": q, "translation": t}
    vertices, faces, half = shape(line.get(shape_key), shape_key)
    t = vec3(pose.get("translation", [0, 0, 0]), f"{pose_key}'s translation")
    if "matrix" in pose:
        m = pose["matrix"]
        if not isinstance(m, list) or len(m) != 3 or not all(isinstance(r, list) and len(r) == 4 for r in m):
            raise Refused(f"{pose_key}'s matrix is not 3×4")
        m = [[number(c) for c in r] for r in m]
        vertices = [[sum(m[i][j] * v[j] for j in range(3)) + m[i][3] for i in range(3)] for v in vertices]
        return {"vertices": vertices, "faces": faces, "half": None, "round": None, "rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                "quaternion": [1.0, 0.0, 0.0, 0.0], "translation": [0.0, 0.0, 0.0]}
    r, q = rotation_of_quaternion(pose.get("quaternion", [1, 0, 0, 0]))
    return {"vertices": vertices, "faces": faces, "half": half, "round": None, "rotation": r, "quaternion": q, "translation": t}


def world(p, v):
    """Vertex v of posed shape p in world coordinates."""
    r, t = p["rotation"], p["translation"]
    return [sum(r[i][j] * v[j] for j in range(3)) + t[i] for i in range(3)]


def finite_json(x):
    """x with every non-finite float as the protocol's string ("NaN", "Infinity", "-Infinity"):
    JSON has no such numbers, and an engine's NaN is an answer to judge, not a broken line."""
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    if isinstance(x, dict):
        return {k: finite_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_json(v) for v in x]
    return x


def serve(hello, answer):
    """The protocol's loop: `answer(query)` gives a line's answers or raises Refused. An
    exception the engine's binding raises is its refusal of the line, with the exception's
    words (a process that dies is a crash: touchstone sees it)."""
    out = _protocol or sys.stdout
    print(json.dumps(hello), file=out, flush=True)
    for raw in sys.stdin:
        query = json.loads(raw)
        reply = {"id": query.get("id")}
        try:
            reply["answers"] = finite_json(answer(query))
        except Refused as e:
            reply["error"] = str(e)
        except Exception as e:  # noqa: BLE001 (the engine's own error, reported as its refusal)
            reply["error"] = f"the engine raised {type(e).__name__}: {e}"
        print(json.dumps(reply, allow_nan=False), file=out, flush=True)


def missing(package, error):
    """Say that an engine's package is missing, how to install it, and exit (before the hello:
    touchstone reports it and stops)."""
    sys.stderr.write(
        f"the {package} package is not installed ({error}); install the engines with\n"
        "  python3 -m venv .venv-engines && .venv-engines/bin/pip install -r adapters/requirements.txt\n"
        "and run touchstone with --python .venv-engines/bin/python (or TOUCHSTONE_PYTHON)\n"
    )
    sys.exit(2)
