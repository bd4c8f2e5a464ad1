#!/usr/bin/env python3
"""Composes the face auto-capture scenario frames from scikit-image's public-domain data images.

    face_scenes.py OUTDIR [--width W] [--height H]

Writes OUTDIR/<scenario>.jpg for each scenario below and prints a JSON object on stdout:
{scenario: {"file": path, "face": [x, y, w, h] or null}} (where the face was placed).
The face is the astronaut's (NASA, public domain), cut around the box OpenCV's LBP cascade
finds in skimage.data.astronaut() and scaled so the face box takes the scenario's share of the
frame width; the background is the rocket launch (public domain), which holds no face. Deterministic: the
same arguments give the same bytes, so the frames are generated, not picked to pass.
"""
import argparse
import json
import os

import numpy as np
from PIL import Image, ImageFilter
from skimage import data

# The astronaut's face box in the 512x512 original (x, y, side), measured once with OpenCV's LBP cascade.
ASTRONAUT_FACE = (171, 64, 104)
# name: (face width / frame width or None, face centre as a fraction of (width, height), pixel transform)
SCENARIOS = {
    "no_face": (None, None, None),
    "far": (0.12, (0.5, 0.45), None),
    "close": (0.66, (0.5, 0.5), None),
    "off_centre": (0.30, (0.22, 0.40), None),
    "dark": (0.30, (0.5, 0.45), "dark"),
    "overexposed": (0.30, (0.5, 0.45), "overexposed"),
    "blurred": (0.30, (0.5, 0.45), "blurred"),
    "centred": (0.30, (0.5, 0.45), None),
}


def background(width, height):
    return Image.fromarray(data.rocket()).resize((width, height), Image.LANCZOS)


def place_face(canvas, share, centre):
    """Pastes the astronaut scaled so the face box is share*width wide, its centre at centre."""
    width, height = canvas.size
    fx, fy, side = ASTRONAUT_FACE
    scale = share * width / side
    astronaut = Image.fromarray(data.astronaut())
    # Head and shoulders: 1.5 face widths around the face centre, clipped to the original.
    cx, cy = fx + side / 2, fy + side / 2
    left, top = max(0, int(cx - 1.5 * side)), max(0, int(cy - 1.5 * side))
    right, bottom = min(512, int(cx + 1.5 * side)), min(512, int(cy + 1.5 * side))
    crop = astronaut.crop((left, top, right, bottom))
    crop = crop.resize((round(crop.width * scale), round(crop.height * scale)), Image.LANCZOS)
    x = round(centre[0] * width - (cx - left) * scale)
    y = round(centre[1] * height - (cy - top) * scale)
    canvas.paste(crop, (x, y))
    face = round(side * scale)
    return [round(centre[0] * width - face / 2), round(centre[1] * height - face / 2), face, face]


def transform(image, kind):
    pixels = np.asarray(image).astype(np.float64)
    if kind == "dark":
        pixels = pixels * 0.22
    elif kind == "overexposed":
        pixels = pixels * 1.4 + 60
    elif kind == "blurred":
        return image.filter(ImageFilter.GaussianBlur(5))
    return Image.fromarray(np.clip(pixels, 0, 255).round().astype(np.uint8))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    manifest = {}
    for name, (share, centre, kind) in SCENARIOS.items():
        canvas = background(args.width, args.height)
        face = place_face(canvas, share, centre) if share else None
        if kind:
            canvas = transform(canvas, kind)
        path = os.path.join(args.outdir, name + ".jpg")
        canvas.save(path, quality=92)
        manifest[name] = {"file": path, "face": face}
    print(json.dumps(manifest, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
