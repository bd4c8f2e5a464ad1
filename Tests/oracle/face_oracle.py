#!/usr/bin/env python3
"""OpenCV's answer for lensd's face detector: CascadeClassifier.detectMultiScale2 on each file.

    face_oracle.py [--cascade XML] [--scale-factor F] [--min-neighbors N] [--min-size PX] [--runs N] FILE...

Each file is read by cv2.imread in colour and turned grey with cvtColor (the weights LensFace's
LumaImage uses), outside the timing; detection runs single-threaded, --runs times (lens-bench
face uses the median). Prints JSON: {file: {"faces": [[x, y, w, h, neighbours], ...], "median_ms": M}}.
"""
import argparse
import json
import statistics
import time

import cv2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--cascade", default="/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml")
    parser.add_argument("--scale-factor", type=float, default=1.1)
    parser.add_argument("--min-neighbors", type=int, default=3)
    parser.add_argument("--min-size", type=int, default=0)
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    classifier = cv2.CascadeClassifier(args.cascade)
    if classifier.empty():
        raise SystemExit(f"face_oracle: cannot load {args.cascade}")
    result = {}
    for path in args.files:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"face_oracle: cannot read {path}")
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        size = (args.min_size, args.min_size)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            rects, neighbours = classifier.detectMultiScale2(grey, args.scale_factor, args.min_neighbors, 0, size)
            times.append((time.perf_counter() - start) * 1000)
        faces = [[int(v) for v in r] + [int(n)] for r, n in zip(rects, neighbours)]
        result[path] = {"faces": faces, "median_ms": statistics.median(times)}
    print(json.dumps(result, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
