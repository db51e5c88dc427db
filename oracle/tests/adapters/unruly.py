#!/usr/bin/env python3
"""An adapter that misbehaves on purpose, for the engine protocol's tests.

It answers as adapters/minimal_boxes.py does, except where a query's id says otherwise (the
part before the colon): crash (a message on standard error, then exit 3), abort (killed by a
signal), hang, refuse, garbage (a line that is not JSON), wrong-id, no-answers, off (the
distance 1/4 too large), unknown-field (a claim field the op does not have), signed (the
distance as an extra signed distance), huge (a line of 17 MiB).
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters"))
import minimal_boxes  # noqa: E402


def main():
    print(json.dumps({"engine": "unruly", "version": "0", "settings": {"purpose": "tests"}}), flush=True)
    for raw in sys.stdin:
        query = json.loads(raw)
        qid = query.get("id")
        mode = qid.split(":")[0] if isinstance(qid, str) else ""
        reply = {"id": qid}
        if mode == "crash":
            sys.stderr.write("unruly: dying on purpose\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "abort":
            os.abort()
        if mode == "hang":
            time.sleep(60)
        if mode == "garbage":
            print("this is not JSON", flush=True)
            continue
        if mode == "huge":
            sys.stdout.write("x" * (17 << 20) + "\n")
            sys.stdout.flush()
            continue
        if mode == "wrong-id":
            reply["id"] = "nobody"
        if mode == "refuse":
            reply["error"] = "I do not do that"
        elif mode == "no-answers":
            pass
        else:
            try:
                answers = minimal_boxes.answer(query)
            except ValueError as e:
                reply["error"] = str(e)
            else:
                d = answers["aabb_distance"]["distance"]
                if mode == "off":
                    answers["aabb_distance"]["distance"] = d + 0.25
                if mode == "unknown-field":
                    answers["aabb_distance"]["colour"] = "red"
                if mode == "signed":
                    answers = {"signed": {"signed_distance": d}}
                if mode == "nan":
                    # An engine's NaN, in the protocol's string: an answer, judged wrong.
                    answers = {"contact": {"signed_distance": d, "normal": ["NaN", 0, 0]},
                               "depth": {"signed_distance": "NaN"}}
                reply["answers"] = answers
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
