#!/usr/bin/env python3
"""local_tsa.py - an RFC 3161 Time-Stamp Authority on 127.0.0.1 for lensd's tests.

  local_tsa.py DIR [--port N] [--mode-file FILE] [--expired] [--exit-with-stdin]

Creates DIR/tsa_root.pem (self-signed CA, P-256) and DIR/tsa.pem/.key (leaf: EKU
id-kp-timeStamping critical, KU digitalSignature critical) plus an `openssl ts` config, unless
they exist. Then answers HTTP POSTs (application/timestamp-query) on 127.0.0.1 by piping the
request through `openssl ts -reply`; the reply's token carries the TSA chain. --port 0 (the
default) takes a free port. The first line on stdout is "listening http://127.0.0.1:PORT/",
printed once the socket accepts connections, so a caller waits by reading it. Stop it by PID.

--mode-file: read before every answer, so a test can turn the TSA hostile while it runs. Its
first word: "ok" (or no file), "error" (HTTP 500), "delay SECONDS" (then answer), "truncate"
(half the reply), "wrong-imprint" / "wrong-nonce" (the query is changed before it is signed,
so the token stamps other bytes / echoes another nonce). --expired: the TSA's certificates are
made 800 days in the past (under faketime), so its signing certificate has expired.
--exit-with-stdin: exit when stdin reaches its end, i.e. when the test that holds the other end
of the pipe is gone, however it ended (a crashed test run leaves no TSA behind).
"""
import argparse
import http.server
import os
import subprocess
import sys
import tempfile
import threading

import lifeline
import time

CNF = """
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = placeholder
[ v3_root ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ v3_tsa ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always

[ tsa ]
default_tsa = tsa_config1
[ tsa_config1 ]
dir = {dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.pem
certs = $dir/tsa_root.pem
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = yes
ess_cert_id_alg = sha256
"""


def run(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def init(d, expired=False):
    os.makedirs(d, exist_ok=True)
    cnf = os.path.join(d, "tsa.cnf")
    with open(cnf, "w") as f:
        f.write(CNF.replace("{dir}", d))
    if os.path.exists(os.path.join(d, "tsa.pem")):
        return cnf
    j = lambda n: os.path.join(d, n)  # noqa: E731
    past = ["faketime", "-f", "-800d"] if expired else []
    run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", j("tsa_root.key"))
    run(*past, "openssl", "req", "-new", "-x509", "-sha256", "-key", j("tsa_root.key"), "-days", "3650",
        "-subj", "/C=US/O=Lensd Test TSA/CN=Lensd Test TSA Root", "-config", cnf,
        "-extensions", "v3_root", "-out", j("tsa_root.pem"))
    run("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", j("tsa.key"))
    run("openssl", "req", "-new", "-sha256", "-key", j("tsa.key"),
        "-subj", "/C=US/O=Lensd Test TSA/CN=Lensd Test TSA Signer", "-config", cnf, "-out", j("tsa.csr"))
    run(*past, "openssl", "x509", "-req", "-sha256", "-in", j("tsa.csr"), "-CA", j("tsa_root.pem"),
        "-CAkey", j("tsa_root.key"), "-set_serial", "0x" + os.urandom(12).hex(), "-days", "365" if expired else "1825",
        "-extfile", cnf, "-extensions", "v3_tsa", "-out", j("tsa.pem"))
    with open(j("tsaserial"), "w") as f:
        f.write("01\n")
    return cnf


def der_children(der, start, end):
    """(tag, content start, content end) of each DER element between start and end."""
    out = []
    while start < end:
        tag, length, i = der[start], der[start + 1], start + 2
        if length & 0x80:
            n = length & 0x7F
            length, i = int.from_bytes(der[i:i + n], "big"), i + n
        out.append((tag, i, i + length))
        start = i + length
    return out


def altered(query, mode):
    """The TimeStampReq with the imprint's or the nonce's last byte flipped."""
    q = bytearray(query)
    (_, start, end), = der_children(q, 0, len(q))
    fields = der_children(q, start, end)
    if mode == "wrong-imprint":
        _, s, e = fields[1]
        target = der_children(q, s, e)[-1][2] - 1
    else:
        target = next(e for tag, s, e in fields[2:] if tag == 0x02) - 1
    q[target] ^= 0x01
    return bytes(q)


def mode_of(path):
    if not path or not os.path.exists(path):
        return ["ok"]
    with open(path) as f:
        return f.read().split() or ["ok"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--mode-file")
    ap.add_argument("--expired", action="store_true")
    ap.add_argument("--exit-with-stdin", action="store_true")
    a = ap.parse_args()
    d = os.path.abspath(a.dir)
    cnf = init(d, a.expired)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            query = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            mode = mode_of(a.mode_file)
            if mode[0] == "error":
                self.send_response(500)
                self.end_headers()
                return
            if mode[0] == "delay":
                time.sleep(float(mode[1]))
            if mode[0] in ("wrong-imprint", "wrong-nonce"):
                query = altered(query, mode[0])
            with tempfile.TemporaryDirectory() as t:
                qf, rf = os.path.join(t, "q.tsq"), os.path.join(t, "r.tsr")
                with open(qf, "wb") as f:
                    f.write(query)
                p = subprocess.run(["openssl", "ts", "-reply", "-config", cnf, "-queryfile", qf,
                                    "-chain", os.path.join(d, "tsa_root.pem"), "-out", rf],
                                   capture_output=True)
                if p.returncode != 0:
                    self.send_response(500)
                    self.end_headers()
                    self.wfile.write(p.stderr)
                    return
                with open(rf, "rb") as f:
                    body = f.read()
            if mode[0] == "truncate":
                body = body[:len(body) // 2]
            self.send_response(200)
            self.send_header("Content-Type", "application/timestamp-reply")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    if a.exit_with_stdin:
        lifeline.exit_with_stdin()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    print(f"listening http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
