#!/usr/bin/env python3
"""A minimal engine adapter for `touchstone check-engine`, standard library only.

    touchstone check-engine --command "python3 adapters/minimal_boxes.py" cases.jsonl

It speaks the engine protocol (oracle/FORMAT.md, "The engine protocol"): it reads query lines
on standard input and writes one line back per query, in order, echoing the query's "id":
{"id": ..., "answers": {FUNCTION: {claim fields}}} or {"id": ..., "error": "why"}. Before its
first answer it says who it is (the report's header shows it).

Its "engine" is a few lines of binary64 arithmetic: the distance between two boxes that are
only translated, and whether they overlap. It refuses every other query. Numbers arrive as
JSON numbers (binary64 values) or as strings (exact rationals, such as "1/3"); an engine holds
binary64 values, so a string is rounded to the nearest one, as touchstone judges it.
"""

import json
import sys
from fractions import Fraction


def number(x):
    """A coordinate as the binary64 value an engine holds."""
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise ValueError(f"{x!r} is not a number")
    return float(Fraction(x)) if isinstance(x, str) else float(x)


def aabb(line, shape_key, pose_key):
    """The box at `shape_key` under the pose at `pose_key`, as [(lo, hi)] per axis."""
    shape = line.get(shape_key)
    if not isinstance(shape, dict) or set(shape) != {"box"}:
        raise ValueError(f"{shape_key} is not a box")
    half = [number(h) for h in shape["box"]]
    pose = line.get(pose_key) or {}
    if "matrix" in pose:
        raise ValueError("a pose given by a matrix")
    q = pose.get("quaternion")
    if q is not None and any(number(c) != 0 for c in q[1:]):
        raise ValueError("a rotated box")
    t = [number(c) for c in pose.get("translation", [0, 0, 0])]
    return [(t[i] - half[i], t[i] + half[i]) for i in range(3)]


def answer(line):
    if line.get("op") != "distance":
        raise ValueError(f"only distance lines, not {line.get('op')!r}")
    a = aabb(line, "a", "pose_a")
    b = aabb(line, "b", "pose_b")
    gaps = [max(b[i][0] - a[i][1], a[i][0] - b[i][1], 0.0) for i in range(3)]
    overlap = all(b[i][0] <= a[i][1] and a[i][0] <= b[i][1] for i in range(3))
    return {
        "aabb_distance": {"distance": sum(g * g for g in gaps) ** 0.5},
        "aabb_overlap": {"intersecting": overlap},
    }


def main():
    hello = {"engine": "minimal-boxes", "version": "1", "settings": {"rotated boxes": "refused"}}
    print(json.dumps(hello), flush=True)
    for raw in sys.stdin:
        query = json.loads(raw)
        reply = {"id": query.get("id")}
        try:
            reply["answers"] = answer(query)
        except (ValueError, KeyError, TypeError, ZeroDivisionError, OverflowError) as e:
            reply["error"] = str(e)
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
