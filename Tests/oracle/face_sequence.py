#!/usr/bin/env python3
"""Scripts what lensd's synthetic camera sees (synthetic-frames DIR) from face_scenes.py's frames.

    face_sequence.py write SCENEDIR OUTDIR SCENARIO:COUNT...   e.g. far:12 centred:60
    face_sequence.py read FILE

write: OUTDIR/00000.jpg, 00001.jpg, ... — each scenario's frame COUNT times in the order given,
every file with its own index drawn as a strip of black/white 8x8 blocks in the top-left corner
(16 bits, most significant first), so that any frame lensd signs tells which file it was.
Prints a JSON list: the scenario of each file, by index.
read: prints the index drawn in FILE (a JPEG of that size, recompressed or not).
"""
import json
import os
import sys

import numpy as np
from PIL import Image

BITS, BLOCK = 16, 8


def draw(image, index):
    pixels = np.asarray(image).copy()
    for bit in range(BITS):
        on = (index >> (BITS - 1 - bit)) & 1
        pixels[0:BLOCK, bit * BLOCK:(bit + 1) * BLOCK] = 255 if on else 0
    return Image.fromarray(pixels)


def read(path):
    luma = np.asarray(Image.open(path).convert("L")).astype(np.float64)
    index = 0
    for bit in range(BITS):
        block = luma[1:BLOCK - 1, bit * BLOCK + 1:(bit + 1) * BLOCK - 1]
        index = index << 1 | (1 if block.mean() > 127 else 0)
    return index


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "read":
        print(read(sys.argv[2]))
        return
    if len(sys.argv) < 5 or sys.argv[1] != "write":
        sys.exit(__doc__)
    scenes, outdir = sys.argv[2], sys.argv[3]
    os.makedirs(outdir, exist_ok=True)
    script = []
    for entry in sys.argv[4:]:
        name, count = entry.split(":")
        script += [name] * int(count)
    for index, name in enumerate(script):
        image = Image.open(os.path.join(scenes, name + ".jpg")).convert("RGB")
        draw(image, index).save(os.path.join(outdir, "%05d.jpg" % index), quality=92)
    print(json.dumps(script))


if __name__ == "__main__":
    main()
