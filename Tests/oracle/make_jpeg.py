#!/usr/bin/env python3
"""make_jpeg.py - deterministic test JPEGs (gradient + noise) for the C2PA tests.

Usage:
  make_jpeg.py OUT --width W --height H [--no-app0] [--exif-first]
               [--foreign-app11] [--seed N] [--quality Q] [--noise 0..1]
               [--subsampling 4:2:0|4:2:2|4:4:4] [--grey] [--color R,G,B]

Segment layout of the result:
  default          SOI, APP0 (JFIF), DQT, SOF0, DHT, SOS ...
  --no-app0        SOI, DQT, ...                       (APP0 removed)
  --exif-first     SOI, APP1 (Exif: Make, Model), DQT ... (no APP0)
  --foreign-app11  adds a non-C2PA APP11 right after APP0 (or after SOI / the Exif
                   APP1 when there is no APP0): JPEG XT "JP", En=0x0001, Z=1, holding a
                   JUMBF superbox whose description type is 'json' (label
                   "org.example.foreign") with a small JSON content box.

The pixels are deterministic for a given --seed, size, quality and noise.
12 MP (4000x3000) takes well under 3 s.
"""
import argparse
import random
import struct
import sys

from PIL import Image

JFIF_APP0 = 0xE0
APP1 = 0xE1
APP11 = 0xEB
# ISO 19566-5 box type UUID = 4cc + 0011-0010-8000-00AA00389B71
UUID_SUFFIX = bytes.fromhex("00110010800000AA00389B71")


def jumbf_box(tbox: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + tbox + payload


def foreign_jumbf() -> bytes:
    uuid = b"json" + UUID_SUFFIX
    jumd = jumbf_box(b"jumd", uuid + b"\x03" + b"org.example.foreign\x00")
    content = jumbf_box(b"json", b'{"hello":"not a c2pa manifest"}')
    return jumbf_box(b"jumb", jumd + content)


def app_segment(marker: int, payload: bytes) -> bytes:
    if len(payload) + 2 > 0xFFFF:
        raise ValueError("segment too long")
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def split_header(jpeg: bytes):
    """Return (list of (marker, whole_segment_bytes) before SOS, rest from SOS on)."""
    assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
    pos, segs = 2, []
    while True:
        if jpeg[pos] != 0xFF:
            raise ValueError(f"bad marker at {pos}")
        marker = jpeg[pos + 1]
        if marker == 0xDA:  # SOS: entropy-coded data follows
            return segs, jpeg[pos:]
        (length,) = struct.unpack(">H", jpeg[pos + 2:pos + 4])
        segs.append((marker, jpeg[pos:pos + 2 + length]))
        pos += 2 + length


def make_pixels(width: int, height: int, seed: int, noise: float) -> Image.Image:
    rng = random.Random(seed)
    # smooth part: horizontal / vertical / diagonal gradients, one per channel
    gx = Image.linear_gradient("L").rotate(90).resize((width, height))
    gy = Image.linear_gradient("L").resize((width, height))
    gd = Image.radial_gradient("L").resize((width, height))
    base = Image.merge("RGB", (gx, gy, gd))
    if noise <= 0:
        return base
    # noisy part: seeded random bytes (fast: no per-pixel Python loop)
    rnd = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
    return Image.blend(base, rnd, noise)


def build(args) -> bytes:
    import io

    if args.color:
        img = Image.new("RGB", (args.width, args.height), tuple(args.color))
    else:
        img = make_pixels(args.width, args.height, args.seed, args.noise)
    if args.grey:
        img = img.convert("L")
    buf = io.BytesIO()
    options = {"subsampling": args.subsampling} if args.subsampling else {}
    img.save(buf, format="JPEG", quality=args.quality, **options)
    segs, rest = split_header(buf.getvalue())

    if args.no_app0 or args.exif_first:
        segs = [s for s in segs if s[0] != JFIF_APP0]
    head = []
    if args.exif_first:
        exif = Image.Exif()
        exif[0x010F] = "Lensd Test"        # Make
        exif[0x0110] = "make_jpeg.py"      # Model
        head.append((APP1, app_segment(APP1, exif.tobytes())))
    # insertion point for the foreign APP11: after the leading APP0/APP1 block
    insert_at = 0
    for i, (m, _) in enumerate(segs):
        if m == JFIF_APP0:
            insert_at = i + 1
    segs = head + segs
    insert_at += len(head)
    if args.foreign_app11:
        payload = b"JP" + struct.pack(">HI", 0x0001, 1) + foreign_jumbf()
        segs.insert(insert_at, (APP11, app_segment(APP11, payload)))
    return b"\xff\xd8" + b"".join(s for _, s in segs) + rest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="make a test JPEG")
    ap.add_argument("out")
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--no-app0", action="store_true", help="remove the JFIF APP0 segment")
    ap.add_argument("--exif-first", action="store_true",
                    help="Exif APP1 (Make/Model) directly after SOI, no APP0")
    ap.add_argument("--foreign-app11", action="store_true",
                    help="insert a non-C2PA JPEG XT/JUMBF APP11 segment")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quality", type=int, default=90)
    ap.add_argument("--noise", type=float, default=0.35,
                    help="noise blend factor 0..1 (1 = pure noise)")
    ap.add_argument("--subsampling", choices=["4:2:0", "4:2:2", "4:4:4"],
                    help="chroma subsampling (default: Pillow's, 4:2:0)")
    ap.add_argument("--grey", action="store_true", help="a one-component greyscale JPEG")
    ap.add_argument("--color", type=lambda v: [int(c) for c in v.split(",")],
                    help="a flat R,G,B image instead of gradient and noise")
    args = ap.parse_args(argv)
    if args.width <= 0 or args.height <= 0:
        ap.error("width and height must be positive")
    data = build(args)
    with open(args.out, "wb") as f:
        f.write(data)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
