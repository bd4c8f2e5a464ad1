#!/usr/bin/env python3
"""Take a signed photo with lensd and fetch it — over plain D-Bus, with jeepney.

A small example of lensd's API from a language other than Swift:
OpenSession → StartCaptureSession → BeginCapture → wait for PhotoSigned →
FetchResult, whose reply carries a UNIX fd (a sealed memfd) holding the exact signed bytes.

    python3 lens_capture.py [--bus ADDRESS] [--timeout S] -o photo.jpg

Exit codes follow lensctl's: 0 ok, 1 failed, 3 lensd unreachable, 4 not authorized, 5 timeout.
"""
import argparse
import hashlib
import os
import sys
import time

from jeepney import DBusAddress, MatchRule, message_bus, new_method_call
from jeepney.io.blocking import open_dbus_connection
from jeepney.low_level import HeaderFields
from jeepney.wrappers import DBusErrorResponse, unwrap_msg

BUS_NAME = "org.lensd.Lens1"
MANAGER = DBusAddress("/org/lensd/Lens1", bus_name=BUS_NAME, interface="org.lensd.Lens1.Manager")
SESSION_INTERFACE = "org.lensd.Lens1.Session"

# lensd's errors arrive by name (org.lensd.Lens1.Error.*); these decide the exit code.
EXIT_BY_ERROR = {
    "org.lensd.Lens1.Error.NotAuthorized": 4,
    "org.freedesktop.DBus.Error.AccessDenied": 4,
    "org.freedesktop.DBus.Error.ServiceUnknown": 3,
    "org.freedesktop.DBus.Error.NameHasNoOwner": 3,
    "org.freedesktop.DBus.Error.NoReply": 5,
}


class Failure(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def call(conn, address, member, signature=None, body=()):
    """A method call that raises Failure for an error reply, named as lensd names it."""
    try:
        return unwrap_msg(conn.send_and_get_reply(new_method_call(address, member, signature, body)))
    except DBusErrorResponse as error:
        message = error.data[0] if error.data else ""
        raise Failure(EXIT_BY_ERROR.get(error.name, 1), f"{member}: {error.name}: {message}") from None


def wait_for_signed_photo(conn, queue, name, deadline):
    """Reads the session's signals until PhotoSigned(name); returns its info (size, sha256, mime)."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failure(5, f"photo {name} was not signed in time")
        try:
            signal = conn.recv_until_filtered(queue, timeout=left)
        except TimeoutError:
            continue
        member = signal.header.fields[HeaderFields.member]
        if member == "InitialCaptureFinished" and signal.body[0] == name:
            print(f"captured {name}: thumbnail of {len(signal.body[1])} bytes, signing…", file=sys.stderr)
        elif member == "PhotoSigned" and signal.body[0] == name:
            # a{sv} arrives as {key: (signature, value)}.
            return {key: value for key, (_, value) in signal.body[1].items()}
        elif member == "Failed":
            raise Failure(1, f"capture failed: {signal.body[0]}: {signal.body[1]}")


def read_memfd(fd, size):
    """All bytes from offset 0 with pread: the fd's offset is shared with anyone else holding it."""
    chunks, offset = [], 0
    while offset < size:
        chunk = os.pread(fd, size - offset, offset)
        if not chunk:
            raise Failure(1, f"the result ends after {offset} of {size} bytes")
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def capture(bus, output, timeout):
    deadline = time.monotonic() + timeout
    try:
        # enable_fds: FetchResult answers with a UNIX fd, which needs fd passing on the socket.
        conn = open_dbus_connection(bus=bus, enable_fds=True)
    except OSError as error:
        raise Failure(3, f"cannot connect to the bus {bus}: {error}") from None
    with conn:
        (session_path,) = call(conn, MANAGER, "OpenSession", "a{sv}", ({},))
        session = DBusAddress(session_path, bus_name=BUS_NAME, interface=SESSION_INTERFACE)
        # lensd sends a session's signals to its owner only. The bus matches the well-known
        # sender; jeepney's local filter sees the unique name, so it matches on the path.
        subscription = MatchRule(type="signal", sender=BUS_NAME, interface=SESSION_INTERFACE, path=session_path)
        call(conn, message_bus, "AddMatch", "s", (subscription.serialise(),))
        with conn.filter(MatchRule(type="signal", interface=SESSION_INTERFACE, path=session_path),
                         bufsize=64) as queue:
            call(conn, session, "StartCaptureSession")
            (name,) = call(conn, session, "BeginCapture")
            info = wait_for_signed_photo(conn, queue, name, deadline)
        fd, _ = call(conn, session, "FetchResult", "s", (name,))
        raw = fd.to_raw_fd()
        try:
            photo = read_memfd(raw, info["size"])
        finally:
            os.close(raw)
        call(conn, session, "Close")
    digest = hashlib.sha256(photo).hexdigest()
    if digest != info["sha256"]:
        raise Failure(1, f"photo {name} arrived damaged: sha256 {digest}, lensd announced {info['sha256']}")
    with open(output, "xb") as file:  # never overwrite
        file.write(photo)
    print(f"name:   {name}\npath:   {os.path.abspath(output)}\nsize:   {len(photo)} bytes\nsha256: {digest}")


def main():
    parser = argparse.ArgumentParser(description="Take a signed photo with lensd over D-Bus (jeepney).")
    parser.add_argument("--bus", default="SYSTEM", help="a D-Bus address such as unix:path=…; default: the system bus")
    parser.add_argument("-o", "--output", required=True, help="where to write the photo (must not exist)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for the signed photo")
    args = parser.parse_args()
    try:
        capture(args.bus, args.output, args.timeout)
    except Failure as failure:
        print(f"lens_capture: {failure}", file=sys.stderr)
        return failure.code
    except FileExistsError:
        print(f"lens_capture: {args.output} exists", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
