#!/usr/bin/env python3
"""scripted_http.py PORT DIR STATUS[,STATUS...]

An HTTP server on 127.0.0.1 for the one thing nginx cannot do: answer PUTs with a scripted
sequence of statuses (e.g. 500,201: the first PUT fails, the second succeeds; the last status
repeats). A 429 or 503 carries "Retry-After: 1". Two statuses are a slow server's: "drip" stores
the body and answers 201 with a 1000-byte body sent at 2 bytes a second; "mute" reads the body
and never answers (both until the client gives up). Each request is appended to DIR/requests.log
as "METHOD PATH STATUS LENGTH CONTENT-SHA256 DIGEST AUTHORIZATION SECONDS" (headers
as received, "-" when absent; SECONDS on a monotonic clock); the body of a 2xx PUT is stored as DIR/<basename>,
written to a temporary file and renamed, as nginx does. Prints "ready" once listening."""
import http.server
import os
import sys
import time

port, directory, statuses = int(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
answered = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_PUT(self):
        global answered
        step = statuses[min(answered, len(statuses) - 1)]
        answered += 1
        status = 201 if step == "drip" else 0 if step == "mute" else int(step)
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        with open(os.path.join(directory, "requests.log"), "a") as log:
            fields = [self.headers.get(h, "-") for h in ("Content-SHA256", "Digest", "Authorization")]
            log.write(f"PUT {self.path} {status} {len(body)} {' '.join(fields)} {time.monotonic():.3f}\n")
        if 200 <= status < 300:
            target = os.path.join(directory, os.path.basename(self.path))
            with open(target + ".part", "wb") as f:
                f.write(body)
            os.rename(target + ".part", target)
        if step == "mute":
            return self.wait_for_the_client_to_leave()
        self.send_response(status)
        if step == "drip":
            self.send_header("Content-Length", "1000")
            self.end_headers()
            return self.drip(1000)
        if status in (429, 503):
            self.send_header("Retry-After", "1")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def drip(self, length):
        try:
            for _ in range(length // 2):
                self.wfile.write(b"..")
                self.wfile.flush()
                time.sleep(1)
        except OSError:
            pass
        self.close_connection = True

    def wait_for_the_client_to_leave(self):
        try:
            while self.rfile.read(1):
                pass
        except OSError:
            pass
        self.close_connection = True

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("ready", flush=True)
server.serve_forever()
