#!/usr/bin/env python3
"""Record a signed video with lensd and fetch it — over plain D-Bus, with jeepney.

OpenSession → CameraMode "video" (Properties.Set) → StartCaptureSession → StartVideoCapture →
S seconds → StopVideoCapture → wait for VideoSigned or VideoUnsigned → FetchResult, whose reply
carries a UNIX fd (a sealed memfd) holding the exact MP4.

    python3 lens_record.py [--bus ADDRESS] [--duration S] [--timeout S] -o clip.mp4

Exit codes follow lensctl's: 0 signed, 1 unsigned (the file is still written) or failed,
2 usage, 3 lensd unreachable, 4 not authorized, 5 timeout.
"""
import argparse
import math
import sys
import time

from jeepney import DBusAddress

from lens_dbus import BUS_NAME, SESSION_INTERFACE, Failure, call, fetch_result, next_signal, plain, refuse_existing, run, session

# After VideoRecordingFailed, lensd sends VideoThumbnailGenerated within this time when frames were
# written (a result follows); when there were none it sends nothing more.
FAULT_GRACE = 10


def record_until(conn, queue, end):
    """Lets the recording run until `end` or until lensd ends it (video-max-duration, a fault);
    returns the fault as "error: message", or None."""
    while signal := next_signal(conn, queue, end):
        member, body = signal
        if member == "VideoRecordingStarted":
            print("recording…", file=sys.stderr)
        elif member == "VideoRecordingStopped":
            return None
        elif member == "VideoRecordingFailed":
            return f"{body[0]}: {body[1]}"
    return None


def wait_for_stored_video(conn, queue, fault, timeout):
    """Reads signals until VideoSigned or VideoUnsigned; returns (name, info, signed)."""
    deadline = time.monotonic() + timeout
    grace = time.monotonic() + FAULT_GRACE if fault else None
    while signal := next_signal(conn, queue, min(deadline, grace or deadline)):
        member, body = signal
        if member == "VideoRecordingFailed":
            fault, grace = f"{body[0]}: {body[1]}", time.monotonic() + FAULT_GRACE
        elif member == "VideoThumbnailGenerated":
            grace = None
            print(f"stopped {body[0]}: {body[2]:.1f} s, thumbnail of {len(body[1])} bytes, signing…", file=sys.stderr)
        elif member in ("VideoSigned", "VideoUnsigned"):
            return body[0], plain(body[1]), member == "VideoSigned"
        elif member == "Failed":
            raise Failure(1, f"lensd could not store the video: {body[0]}: {body[1]}")
    if grace:
        raise Failure(1, f"the recording failed before its first frame: {fault}")
    raise Failure(5, f"lensd did not store the video within {timeout:g} s of the stop")


def record(bus, output, duration, timeout):
    refuse_existing(output)
    with session(bus) as (conn, lens, queue):
        properties = DBusAddress(lens.object_path, bus_name=BUS_NAME, interface="org.freedesktop.DBus.Properties")
        call(conn, properties, "Set", "ssv", (SESSION_INTERFACE, "CameraMode", ("s", "video")))
        call(conn, lens, "StartCaptureSession")
        call(conn, lens, "StartVideoCapture")
        fault = record_until(conn, queue, time.monotonic() + duration)
        if fault is None:
            try:
                call(conn, lens, "StopVideoCapture")
            except Failure as failure:
                # lensd ended the recording already (a limit, or a fault whose signal is on the way).
                if failure.error != "org.lensd.Lens1.Error.NotStarted":
                    raise
        name, video, signed = wait_for_stored_video(conn, queue, fault, timeout)
        path, fetched = fetch_result(conn, lens, name, output)
    verdict = "signed" if signed else f"UNSIGNED: {video.get('reason', '')}"
    print(f"{name}  {video['duration']:.1f} s  {video['frames']} frames  {fetched['size']} bytes  {path}  {verdict}")
    if fault:
        print(f"lens_record: the recording failed: {fault}; {path} holds what was recorded", file=sys.stderr)
    return 0 if signed and not fault else 1


def seconds(text):
    """argparse type: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
    return value


def main():
    parser = argparse.ArgumentParser(description="Record a signed video with lensd over D-Bus (jeepney).")
    parser.add_argument("--bus", default="SYSTEM", help="a D-Bus address such as unix:path=…; default: the system bus")
    parser.add_argument("-o", "--output", required=True, help="where to write the video (must not exist)")
    parser.add_argument("--duration", type=seconds, default=3, help="seconds to record (default 3)")
    parser.add_argument("--timeout", type=seconds, default=60,
                        help="seconds to wait after the stop for lensd to store the video (default 60)")
    args = parser.parse_args()
    return run("lens_record", lambda: record(args.bus, args.output, args.duration, args.timeout))


if __name__ == "__main__":
    sys.exit(main())
