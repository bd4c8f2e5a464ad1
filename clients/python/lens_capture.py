#!/usr/bin/env python3
"""Take a signed photo with lensd and fetch it — over plain D-Bus, with jeepney.

A small example of lensd's API from a language other than Swift:
OpenSession → StartCaptureSession → BeginCapture → wait for PhotoSigned →
FetchResult, whose reply carries a UNIX fd (a sealed memfd) holding the exact signed bytes.

    python3 lens_capture.py [--bus ADDRESS] [--timeout S] -o photo.jpg

Exit codes follow lensctl's: 0 ok, 1 failed, 2 usage, 3 lensd unreachable, 4 not authorized, 5 timeout.
"""
import argparse
import sys
import time

from lens_dbus import Failure, call, fetch_result, next_signal, refuse_existing, run, session


def wait_for_signed_photo(conn, queue, name, deadline):
    """Reads the session's signals until PhotoSigned(name)."""
    while signal := next_signal(conn, queue, deadline):
        member, body = signal
        if member == "InitialCaptureFinished" and body[0] == name:
            print(f"captured {name}: thumbnail of {len(body[1])} bytes, signing…", file=sys.stderr)
        elif member == "PhotoSigned" and body[0] == name:
            return
        elif member == "Failed":
            raise Failure(1, f"capture failed: {body[0]}: {body[1]}")
    raise Failure(5, f"photo {name} was not signed in time")


def capture(bus, output, timeout):
    deadline = time.monotonic() + timeout
    refuse_existing(output)
    with session(bus) as (conn, lens, queue):
        call(conn, lens, "StartCaptureSession")
        (name,) = call(conn, lens, "BeginCapture")
        wait_for_signed_photo(conn, queue, name, deadline)
        path, info = fetch_result(conn, lens, name, output)
    print(f"name:   {name}\npath:   {path}\nsize:   {info['size']} bytes\nsha256: {info['sha256']}")
    return 0


def main():
    parser = argparse.ArgumentParser(description="Take a signed photo with lensd over D-Bus (jeepney).")
    parser.add_argument("--bus", default="SYSTEM", help="a D-Bus address such as unix:path=…; default: the system bus")
    parser.add_argument("-o", "--output", required=True, help="where to write the photo (must not exist)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for the signed photo")
    args = parser.parse_args()
    return run("lens_capture", lambda: capture(args.bus, args.output, args.timeout))


if __name__ == "__main__":
    sys.exit(main())
