#!/usr/bin/env python3
"""Times c2pa-python's Reader validating each FILE inside this process (trust on, no network).

  c2pa_python_verify.py FILE... [--trust-anchor PEM] [--runs N]
      -> one line per file: "<median ms> <validation_state>"
"""
import argparse
import json
import statistics
import time
import warnings

import c2pa

warnings.simplefilter("ignore", DeprecationWarning)

ap = argparse.ArgumentParser()
ap.add_argument("files", nargs="+")
ap.add_argument("--trust-anchor")
ap.add_argument("--runs", type=int, default=11)
args = ap.parse_args()

settings = {"verify": {"verify_trust": True, "remote_manifest_fetch": False, "ocsp_fetch": False}}
if args.trust_anchor:
    with open(args.trust_anchor, encoding="utf-8") as f:
        settings["trust"] = {"trust_anchors": f.read()}
context = c2pa.Context.from_dict(settings)

for path in args.files:
    mime = "video/mp4" if path.endswith(".mp4") else "image/jpeg"
    times, state = [], None
    for _ in range(args.runs):
        start = time.perf_counter()
        with open(path, "rb") as stream:
            reader = c2pa.Reader(mime, stream, context=context)
            state = json.loads(reader.json()).get("validation_state")
            reader.close()
        times.append((time.perf_counter() - start) * 1000)
    print(f"{statistics.median(times):.3f} {state}")
