"""lifeline.py - for the tests' servers: exit when stdin reaches its end, i.e. when the test that
holds the other end of the pipe is gone, however it ended (a crashed test run leaves no server
behind). Used by local_tsa.py and est_server.py (--exit-with-stdin)."""
import os
import sys
import threading


def exit_with_stdin(cleanup=lambda: None):
    def watch():
        while sys.stdin.buffer.read(4096):
            pass
        cleanup()
        os._exit(0)
    threading.Thread(target=watch, daemon=True).start()
