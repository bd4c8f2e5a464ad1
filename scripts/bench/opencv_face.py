#!/usr/bin/env python3
"""Times OpenCV's CascadeClassifier.detectMultiScale (single thread) on each JPEG, decoded and
turned grey outside the timing, as lens-bench times LensFace.

  opencv_face.py --min-size PX [--runs N] [--cascade XML] FILE...
  -> JSON {file: {"median_ms": M, "faces": [[x, y, w, h], ...]}}
"""
import argparse
import json
import statistics
import time

import cv2

ap = argparse.ArgumentParser()
ap.add_argument("files", nargs="+")
ap.add_argument("--min-size", type=int, required=True)
ap.add_argument("--runs", type=int, default=21)
ap.add_argument("--cascade", default="/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml")
args = ap.parse_args()

cv2.setNumThreads(1)
classifier = cv2.CascadeClassifier(args.cascade)
if classifier.empty():
    raise SystemExit(f"opencv_face: cannot load {args.cascade}")
result = {}
for path in args.files:
    grey = cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
    size = (args.min_size, args.min_size)
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        faces = classifier.detectMultiScale(grey, 1.1, 3, 0, size)
        times.append((time.perf_counter() - start) * 1000)
    result[path] = {"median_ms": statistics.median(times), "faces": [[int(v) for v in f] for f in faces]}
print(json.dumps(result))
