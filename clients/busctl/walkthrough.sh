#!/usr/bin/env bash
# The busctl walk-through: lensd from a shell, with nothing but busctl and coreutils/awk.
# Each step prints the command it runs. busctl opens a new connection per command, so the
# session is persistent: it belongs to the user, not to one connection.
#
#   walkthrough.sh [--address ADDRESS] [-o FILE]
#
#   --address ADDRESS  a D-Bus address (unix:path=…); default: the system bus
#   -o FILE            where to write the photo (default: photo.jpg; never overwritten)
#   LENSCTL=PATH       the lensctl that verifies the photo (default: lensctl on PATH)
set -euo pipefail

BUS=(--system)
OUTPUT=photo.jpg
while [ $# -gt 0 ]; do
  case $1 in
    --address) BUS=("--address=$2"); shift 2 ;;
    -o) OUTPUT=$2; shift 2 ;;
    *) echo "usage: $0 [--address ADDRESS] [-o FILE]" >&2; exit 2 ;;
  esac
done
LENSCTL=${LENSCTL:-lensctl}
LENSCTL_BUS=(--bus "${BUS[0]#--address=}")
[ "${BUS[0]}" = --system ] && LENSCTL_BUS=(--bus system)
[ -e "$OUTPUT" ] && { echo "$OUTPUT exists; not overwriting it" >&2; exit 1; }

DEST=org.lensd.Lens1
MANAGER=(/org/lensd/Lens1 org.lensd.Lens1.Manager)
SESSION_IFACE=org.lensd.Lens1.Session

step() { echo "\$ busctl $*" >&2; busctl "${BUS[@]}" "$@"; }
# busctl prints a reply as TYPE VALUE…; a string or object path comes quoted.
unquote() { sed -e 's/^[a-z] "//' -e 's/"$//'; }

echo "# 1. Status: the daemon's properties (no session needed)" >&2
step get-property "$DEST" "${MANAGER[@]}" Version CameraPresent EnrollmentState

echo "# 2. Open a persistent session, claim the camera" >&2
SESSION=$(step call "$DEST" "${MANAGER[@]}" OpenSession 'a{sv}' 1 persistent b true | unquote)
echo "session: $SESSION" >&2
REPLY=$(mktemp)
# Whatever happens, release the camera and drop the session (Close twice is harmless).
cleanup() { rm -f "$REPLY"; busctl "${BUS[@]}" call "$DEST" "$SESSION" "$SESSION_IFACE" Close >/dev/null 2>&1 || true; }
trap cleanup EXIT
step call "$DEST" "$SESSION" "$SESSION_IFACE" StartCaptureSession
step get-property "$DEST" "$SESSION" "$SESSION_IFACE" CaptureEnabled DisabledReasons

echo "# 3. Take a photo" >&2
NAME=$(step call "$DEST" "$SESSION" "$SESSION_IFACE" BeginCapture | unquote)
echo "name: $NAME" >&2

echo "# 4. Wait until it is signed and stored: ReadResult answers NotFound until then" >&2
for attempt in $(seq 1 150); do
  if busctl "${BUS[@]}" call "$DEST" "$SESSION" "$SESSION_IFACE" ReadResult s "$NAME" >"$REPLY" 2>/dev/null; then
    break
  fi
  [ "$attempt" = 150 ] && { echo "photo $NAME was not signed within 30 s" >&2; exit 5; }
  sleep 0.2
done
echo "\$ busctl call $DEST $SESSION $SESSION_IFACE ReadResult s $NAME" >&2

echo "# 5. busctl prints 'ay N b1 b2 …' in decimal: turn that into the file's bytes" >&2
LC_ALL=C awk '{ for (i = 3; i <= NF; i++) printf "%c", $i }' "$REPLY" >"$OUTPUT"
echo "wrote $(wc -c <"$OUTPUT") bytes to $OUTPUT (busctl said $(cut -d' ' -f2 "$REPLY"))" >&2

echo "# 6. Close the session, then verify the photo against the device's trust anchor" >&2
step call "$DEST" "$SESSION" "$SESSION_IFACE" Close
"$LENSCTL" verify --require-trusted --trust-anchor <("$LENSCTL" trust-anchor "${LENSCTL_BUS[@]}") "$OUTPUT"
