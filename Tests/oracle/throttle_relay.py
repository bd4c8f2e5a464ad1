#!/usr/bin/env python3
"""throttle_relay.py LISTEN_PORT TARGET_PORT BYTES_PER_SECOND

A TCP relay on 127.0.0.1 that forwards client→target at BYTES_PER_SECOND (target→client
unthrottled), so that an upload over loopback lasts long enough for a test to interrupt it
half-way. Prints "ready" once listening. Every connection ends when either side closes."""
import socket
import struct
import sys
import threading
import time

listen_port, target_port, rate = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
# About twenty sends a second: smooth enough, and few sleeps at high rates.
CHUNK = max(64, min(65536, rate // 20))


def pump(source, sink, throttled):
    try:
        while True:
            data = source.recv(CHUNK)
            if not data:
                break
            sink.sendall(data)
            if throttled:
                time.sleep(len(data) / rate)
    except OSError:
        pass
    # Closed with SO_LINGER 0: the peer gets a reset at once, as when the server process dies.
    for s in (source, sink):
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()


def serve(client):
    try:
        target = socket.create_connection(("127.0.0.1", target_port))
    except OSError:
        client.close()
        return
    threading.Thread(target=pump, args=(client, target, True), daemon=True).start()
    threading.Thread(target=pump, args=(target, client, False), daemon=True).start()


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", listen_port))
server.listen(16)
print("ready", flush=True)
while True:
    connection, _ = server.accept()
    serve(connection)
