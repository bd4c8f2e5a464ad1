#!/usr/bin/env python3
"""Writes fuzz-cascade's named seeds into CORPUS/fuzz-cascade: a cascade with the layout of
Debian's lbpcascade_frontalface.xml (CRLF, comments, 20 stages of 3...10 stumps, 136 features in
a 24x24 window) but made-up numbers (the model itself stays out of the repository), a one-stump
cascade, and malformed variants of it, one defect each.

    make-cascade-seeds.py CORPUS
"""
import os
import random
import sys

STAGE_SIZES = [3, 4, 4, 5, 5, 5, 5, 6, 7, 7, 7, 7, 8, 9, 10, 9, 9, 9, 10, 10]


def cascade(stages, features, feature_type="LBP", width=24, comment=True):
    lines = ['<?xml version="1.0"?>']
    if comment:
        lines += ["<!--", "number of positive samples 3000", "number of negative samples 1500", "-->"]
    lines += ["<opencv_storage>", '<cascade type_id="opencv-cascade-classifier">',
              "  <stageType>BOOST</stageType>", f"  <featureType>{feature_type}</featureType>",
              "  <height>24</height>", f"  <width>{width}</width>",
              "  <stageParams>", "    <boostType>GAB</boostType>", "    <maxDepth>1</maxDepth>",
              "    <maxWeakCount>100</maxWeakCount></stageParams>",
              "  <featureParams>", "    <maxCatCount>256</maxCatCount></featureParams>",
              f"  <stageNum>{len(stages)}</stageNum>", "  <stages>"]
    for index, (threshold, trees) in enumerate(stages):
        lines += [f"    <!-- stage {index} -->", "    <_>", f"      <maxWeakCount>{len(trees)}</maxWeakCount>",
                  f"      <stageThreshold>{threshold}</stageThreshold>", "      <weakClassifiers>"]
        for tree_index, (nodes, leaves) in enumerate(trees):
            lines += [f"        <!-- tree {tree_index} -->", "        <_>", "          <internalNodes>",
                      f"            {nodes}</internalNodes>", "          <leafValues>",
                      f"            {leaves}</leafValues></_>"]
        lines[-1] += ""
        lines += ["      </weakClassifiers></_>"]
    lines += ["  </stages>", "  <features>"]
    for rect in features:
        lines += ["    <_>", "      <rect>", f"        {rect}</rect></_>"]
    lines += ["  </features></cascade>", "</opencv_storage>", ""]
    return "\r\n".join(lines).encode()


def shaped():
    rng = random.Random(13)
    features = []
    for _ in range(136):
        w, h = rng.randint(1, 8), rng.randint(1, 8)
        features.append(f"{rng.randint(0, 24 - 3 * w)} {rng.randint(0, 24 - 3 * h)} {w} {h}")
    stages = []
    for size in STAGE_SIZES:
        trees = []
        for _ in range(size):
            subset = " ".join(str(rng.randint(-2**31, 2**31 - 1)) for _ in range(8))
            trees.append((f"0 -1 {rng.randrange(136)} {subset}", f"{rng.uniform(-1, 0):.16f} {rng.uniform(0, 1):.16f}"))
        stages.append((f"{rng.uniform(-1, 0):.16f}", trees))
    return cascade(stages, features)


def small(nodes="0 -1 0 -1 -1 -1 -1 -1 -1 -1 -1", leaves="-1 1", rect="0 0 8 8", **kwargs):
    return cascade([("-0.5", [(nodes, leaves)])], [rect], **kwargs)


def main():
    out = os.path.join(sys.argv[1], "fuzz-cascade")
    os.makedirs(out, exist_ok=True)
    one = small()
    seeds = {
        "frontalface-shape.xml": shaped(),
        "one-stump.xml": one,
        "haar.xml": small(feature_type="HAAR"),
        "wide-window.xml": small(width=1000),
        "rect-outside-window.xml": small(rect="20 0 3 3"),
        "missing-feature.xml": small(nodes="0 -1 7 0 0 0 0 0 0 0 0"),
        "two-node-tree.xml": small(nodes="1 -1 0 0 0 0 0 0 0 0 0 1 2 3"),
        "nan-leaf.xml": small(leaves="nan 1"),
        "entity.xml": one.replace(b"-0.5", b"&amp;"),
        "doctype.xml": b"<!DOCTYPE x [<!ENTITY a 'b'>]>" + one,
        "truncated.xml": one[: len(one) // 2],
        "deep.xml": b"<a>" * 40,
    }
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
