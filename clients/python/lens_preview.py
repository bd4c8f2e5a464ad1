#!/usr/bin/env python3
"""Save frames of lensd's live preview — over plain D-Bus, with jeepney.

OpenSession → StartCaptureSession → OpenPreview, whose reply carries the read end of a pipe:
baseline JPEG frames back to back, each with a COM segment "lensd-preview seq=N pts_us=T".
This cuts the stream into frames by the JPEG syntax and writes the first N as files.
Preview frames are never signed (lens_capture.py takes a signed photo).

    python3 lens_preview.py [--bus ADDRESS] [--frames N] [--size WxH] [--fps F] -o DIR

Exit codes follow lensctl's: 0 ok, 1 failed, 2 usage, 3 lensd unreachable, 4 not authorized, 5 timeout.
"""
import argparse
import os
import select
import sys
import time

from lens_dbus import Failure, call, plain, run, session

# A longer frame is refused: a stream that never ends a frame must not fill memory.
MAX_FRAME = 32 << 20


def frame_end(data):
    """The end of the JPEG at the start of `data` (just past its EOI), or None if it is incomplete.

    Segments are skipped by their lengths, entropy-coded data up to the next marker that is
    neither a stuffed FF00 nor a restart marker, so an FF D9 inside a segment cannot end it early.
    """
    if len(data) < 2:
        return None
    if data[0:2] != b"\xff\xd8":
        raise Failure(1, "the preview stream is malformed: a frame does not start with SOI")
    at, scan = 2, False
    while True:
        if scan:
            while at + 1 < len(data) and not (data[at] == 0xFF and data[at + 1] != 0x00 and not 0xD0 <= data[at + 1] <= 0xD7):
                at += 1
            scan = False
        if at + 1 >= len(data):
            return None
        if data[at] != 0xFF:
            raise Failure(1, f"the preview stream is malformed: no marker at offset {at}")
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
        elif marker == 0xD9:
            return at + 2
        elif marker == 0x01:
            at += 2
        elif 0xD0 <= marker <= 0xD7:
            at, scan = at + 2, True  # a restart marker reached after fill bytes: the scan goes on
        else:
            if at + 4 > len(data):
                return None
            length = int.from_bytes(data[at + 2:at + 4], "big")
            if length < 2:
                raise Failure(1, "the preview stream is malformed: a segment length below 2")
            at += 2 + length
            scan = marker == 0xDA


def comment(frame):
    """The text of the frame's first COM segment (FF FE), looked for before its first scan."""
    at = 2
    while at + 4 <= len(frame) and frame[at] == 0xFF and frame[at + 1] != 0xDA:
        length = int.from_bytes(frame[at + 2:at + 4], "big")
        if frame[at + 1] == 0xFE:
            return frame[at + 4:at + 2 + length].decode("utf-8", "replace")
        at += 2 + length
    return ""


def frames(fd, count, deadline):
    """Yields the stream's first `count` frames as bytes."""
    data = bytearray()
    while count > 0:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise Failure(5, "no preview frame in time")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            raise Failure(1, f"the preview ended with {count} frames still to come")
        data += chunk
        while count > 0 and (end := frame_end(data)) is not None:
            yield bytes(data[:end])
            del data[:end]
            count -= 1
        if len(data) > MAX_FRAME:
            raise Failure(1, "the preview stream is malformed: a frame of more than 32 MiB")


def preview(bus, directory, count, options, timeout):
    deadline = time.monotonic() + timeout
    os.makedirs(directory, exist_ok=True)
    with session(bus) as (conn, lens, queue):
        call(conn, lens, "StartCaptureSession")
        fd, fmt = call(conn, lens, "OpenPreview", "a{sv}", (options,))
        fmt = plain(fmt)
        with fd:
            for index, frame in enumerate(frames(fd.fileno(), count, deadline), start=1):
                path = os.path.join(directory, f"frame-{index:04d}.jpg")
                # x: never over an existing file.
                with open(path, "xb") as file:
                    file.write(frame)
                print(f"{path}  {len(frame)} bytes  {comment(frame)}")
        call(conn, lens, "ClosePreview")
    print(f"{count} preview frames, {fmt['width']}x{fmt['height']}, UNSIGNED (preview frames are never signed)",
          file=sys.stderr)
    return 0


def size(text):
    width, _, height = text.partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"{text} is not WxH")
    return int(width), int(height)


def main():
    parser = argparse.ArgumentParser(description="Save frames of lensd's live preview over D-Bus (jeepney).")
    parser.add_argument("--bus", default="SYSTEM", help="a D-Bus address such as unix:path=…; default: the system bus")
    parser.add_argument("-o", "--output", required=True, help="the directory for frame-0001.jpg, …")
    parser.add_argument("--frames", type=int, default=5, help="how many frames to save (default 5)")
    parser.add_argument("--size", type=size, help="a box the picture is fitted into, WxH (default 640x480)")
    parser.add_argument("--fps", type=float, help="at most this many frames a second")
    parser.add_argument("--timeout", type=float, default=30, help="seconds to wait for the frames")
    args = parser.parse_args()
    if args.frames < 1:
        parser.error("--frames must be at least 1")
    options = {}
    if args.size:
        options["width"], options["height"] = ("u", args.size[0]), ("u", args.size[1])
    if args.fps:
        options["fps"] = ("d", args.fps)
    return run("lens_preview", lambda: preview(args.bus, args.output, args.frames, options, args.timeout))


if __name__ == "__main__":
    sys.exit(main())
