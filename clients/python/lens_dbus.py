"""What lens_capture.py and lens_record.py share: lensd's names on the bus, its errors as exit
codes, a session whose signals are subscribed, and a result fetched into a file."""
import contextlib
import hashlib
import os
import sys
import time
import uuid

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

# Bytes per pread from the memfd: a long video is copied, never held in memory whole.
CHUNK = 1 << 20


class Failure(Exception):
    """Ends the script with `code`; `error` is the D-Bus error name when lensd refused a call."""

    def __init__(self, code, message, error=None):
        super().__init__(message)
        self.code = code
        self.error = error


def call(conn, address, member, signature=None, body=()):
    """A method call that raises Failure for an error reply, named as lensd names it."""
    try:
        return unwrap_msg(conn.send_and_get_reply(new_method_call(address, member, signature, body)))
    except DBusErrorResponse as error:
        message = error.data[0] if error.data else ""
        raise Failure(EXIT_BY_ERROR.get(error.name, 1), f"{member}: {error.name}: {message}", error.name) from None


@contextlib.contextmanager
def session(bus):
    """Connects, opens a session and subscribes to its signals; yields (conn, session, queue)."""
    try:
        # enable_fds: FetchResult answers with a UNIX fd, which needs fd passing on the socket.
        conn = open_dbus_connection(bus=bus, enable_fds=True)
    except OSError as error:
        raise Failure(3, f"cannot connect to the bus {bus}: {error}") from None
    with conn:
        (path,) = call(conn, MANAGER, "OpenSession", "a{sv}", ({},))
        address = DBusAddress(path, bus_name=BUS_NAME, interface=SESSION_INTERFACE)
        # lensd sends a session's signals to its owner only. The bus matches the well-known
        # sender; jeepney's local filter sees the unique name, so it matches on the path.
        subscription = MatchRule(type="signal", sender=BUS_NAME, interface=SESSION_INTERFACE, path=path)
        call(conn, message_bus, "AddMatch", "s", (subscription.serialise(),))
        with conn.filter(MatchRule(type="signal", interface=SESSION_INTERFACE, path=path), bufsize=64) as queue:
            yield conn, address, queue
        # On a failure the closing connection ends the session just as well.
        call(conn, address, "Close")


def next_signal(conn, queue, deadline):
    """The session's next signal as (member, body), or None once `deadline` (monotonic) passed."""
    while (left := deadline - time.monotonic()) > 0:
        try:
            # An hour at most per wait: select() overflows on a huge timeout (--duration 1e300).
            signal = conn.recv_until_filtered(queue, timeout=min(left, 3600))
        except TimeoutError:
            continue
        return signal.header.fields[HeaderFields.member], signal.body
    return None


def plain(info):
    """An a{sv}, which arrives as {key: (signature, value)}, as {key: value}."""
    return {key: value for key, (_, value) in info.items()}


def refuse_existing(output):
    """Checked before capturing, so that a refusal costs no photo or video."""
    if os.path.lexists(output):
        raise Failure(1, f"{output} exists")


def fetch_result(conn, session_address, name, output):
    """FetchResult(name) into `output`, all or nothing and never over an existing file.

    Copies the sealed memfd with pread from offset 0 (its offset is shared with anyone else who
    holds it) into a temporary file beside `output`, checks the SHA-256 FetchResult announced, and
    only then links it into place. Returns the absolute path and FetchResult's info (size, sha256, mime).
    """
    fd, info = call(conn, session_address, "FetchResult", "s", (name,))
    info = plain(info)
    output = os.path.abspath(output)
    temporary = os.path.join(os.path.dirname(output), f".{os.path.basename(output)}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with fd, open(temporary, "xb") as file:
            digest = copy(fd.fileno(), info["size"], file)
            file.flush()
            os.fsync(file.fileno())
        if digest != info["sha256"]:
            raise Failure(1, f"{name} arrived damaged: sha256 {digest}, lensd announced {info['sha256']}")
        # link, not rename: it fails instead of replacing a file that appeared meanwhile.
        os.link(temporary, output)
    except FileExistsError:
        raise Failure(1, f"{output} exists") from None
    except OSError as error:
        raise Failure(1, f"cannot write {output}: {error}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    return output, info


def copy(fd, size, file):
    """Writes the first `size` bytes of `fd` to `file`; returns their SHA-256 (hex)."""
    digest, offset = hashlib.sha256(), 0
    while offset < size:
        chunk = os.pread(fd, min(CHUNK, size - offset), offset)
        if not chunk:
            raise Failure(1, f"the result ends after {offset} of {size} bytes")
        digest.update(chunk)
        file.write(chunk)
        offset += len(chunk)
    return digest.hexdigest()


def run(program, action):
    """Runs `action`, which returns an exit code; a Failure prints its message and returns its code."""
    try:
        return action()
    except Failure as failure:
        print(f"{program}: {failure}", file=sys.stderr)
        return failure.code
