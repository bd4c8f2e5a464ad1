#!/usr/bin/env python3
"""Times c2pa-python's Builder signing a JPEG or MP4 (by OUT's extension; thumbnail off) inside this process.

  c2pa_python_sign.py IN OUT --key PEM --chain PEM [--runs N]   -> prints the median in ms
"""
import argparse
import json
import os
import statistics
import time
import warnings

import c2pa

warnings.simplefilter("ignore", DeprecationWarning)

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("output")
ap.add_argument("--key", required=True)
ap.add_argument("--chain", required=True)
ap.add_argument("--runs", type=int, default=11)
args = ap.parse_args()

with open(args.key, "rb") as f:
    key = f.read()
with open(args.chain, "rb") as f:
    chain = f.read()

manifest = json.dumps({
    "claim_generator_info": [{"name": "lens-bench-reference", "version": "0"}],
    "assertions": [
        {"label": "c2pa.actions.v2", "data": {"actions": [{
            "action": "c2pa.created",
            "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}},
    ],
})
context = c2pa.Context.from_dict({"builder": {"thumbnail": {"enabled": False}}})
signer = c2pa.Signer.from_info(c2pa.C2paSignerInfo(b"es256", chain, key, None))

times = []
for _ in range(args.runs):
    if os.path.exists(args.output):
        os.remove(args.output)
    start = time.perf_counter()
    with c2pa.Builder(manifest, context=context) as builder:
        builder.sign_file(args.input, args.output, signer)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.3f}")
