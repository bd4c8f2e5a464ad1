#!/usr/bin/env python3
"""est_server.py - a small EST (RFC 7030) server on 127.0.0.1 for lensd's tests.

  est_server.py CA_DIR TLS_DIR --credential USER:PASSWORD [--port N] [--minutes M]
                [--mode-file FILE] [--log FILE] [--ek-ca PEM] [--exit-with-stdin]

A STAND-IN for a production EST CA (EJBCA, OpenXPKI, ...), written for the tests because none
can run here: it serves only what lensd's client uses, keeps no state but `openssl ca`'s index,
and has no policy beyond the credential and the client certificate. Do not deploy it.

CA_DIR is an organization CA made by the tests (OrganizationCA: root.pem, root.key, ca.cnf with
an `est` extensions section); TLS_DIR is a TLS server PKI (make_server_cert.sh: server.pem,
server.key, signed by TLS_DIR/ca.pem, which lensd's est-ca names). Under /.well-known/est it
answers, over TLS:

  GET  /cacerts         the CA's root as PKCS#7 certs-only, base64
  POST /simpleenroll    base64 PKCS#10 with HTTP Basic USER:PASSWORD -> the issued certificate
  POST /simplereenroll  base64 PKCS#10, the client authenticated in TLS by a certificate this CA
                        issued (RFC 7030 §3.3.2) -> the issued certificate

Certificates are issued by `openssl ca` valid from a minute ago for M minutes (default 5), so a
renewal comes due within the tests' time. The first line on stdout is "listening URL" (the EST
base), printed once the socket accepts connections. Each answered request appends a line
"METHOD OPERATION STATUS [SERIAL]" to --log (the issued serial in decimal, as c2pa-rs shows
it), which the tests read.

--mode-file: read before every answer, so a test can turn the server hostile while it runs:
"ok" (or no file); "foreign-cacerts" (/cacerts sends a root that is not the organization's);
"other-key" (the certificate is issued for a key the server makes, not the request's);
"foreign-issuer" (the certificate is issued by a root that is not the organization's);
"error" (HTTP 500 with a two-line body); with --ek-ca, "require-al2" (a request whose TPM
evidence does not verify is refused, HTTP 403 with the reason) and "ignore-evidence" (issued at
level 1 whatever the evidence).
--ek-ca: PEM certificates of the TPM maker's CA (swtpm_localca's root and issuer). The server
then checks each request's TPM key evidence (tpm_evidence.py: a TPM2_Certify by the TPM's attestation key, in
the draft-ietf-lamps-csr-attestation attribute) and issues the C2PA Conformance Program's
claim-signing leaf at assurance level 2 when it verifies, at level 1 when not; the log line
ends with "al2" or "al1", and --evidence-log gets one line per request: "verified" or why not.
--exit-with-stdin: exit when stdin reaches its end (the test holding the pipe is gone).
"""
import argparse
import base64
import datetime
import http.server
import os
import shutil
import signal
import ssl
import subprocess
import tempfile
import threading

import lifeline
import tpm_evidence
from cryptography import x509
from cryptography.x509.oid import NameOID

PREFIX = "/.well-known/est/"

# The C2PA Conformance Program's claim-signing leaf (program 0.2) at assurance level 1 and 2,
# with clientAuth so that it authenticates its renewal in TLS; the subject is set at issue.
LEVEL_EXTENSIONS = """
[{level}]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = emailProtection, 1.3.6.1.5.5.7.3.36, 1.3.6.1.4.1.62558.2.1, clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
certificatePolicies = 1.3.6.1.4.1.62558.1.1
authorityInfoAccess = OCSP;URI:http://127.0.0.1:9/ocsp
1.3.6.1.4.1.62558.3 = ASN1:OID:1.3.6.1.4.1.62558.3.{code}
1.3.6.1.4.1.62558.4 = ASN1:UTF8String:0f8fad5b-d9cb-469f-a165-70867728950e
"""


def run(argv, data=None):
    return subprocess.run(argv, input=data, check=True, capture_output=True).stdout


def certs_only(pem_files):
    """PKCS#7 certs-only (DER) of the certificates in `pem_files`, base64 with line breaks."""
    argv = ["openssl", "crl2pkcs7", "-nocrl", "-outform", "DER"]
    for path in pem_files:
        argv += ["-certfile", path]
    return base64.encodebytes(run(argv))


class Server:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.work = tempfile.mkdtemp(prefix="est-server-")
        self.foreign_root = os.path.join(self.work, "foreign-root.pem")
        run(["openssl", "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", os.path.join(self.work, "foreign-root.key"), "-out", self.foreign_root, "-days", "30",
             "-subj", "/O=Elsewhere/CN=Elsewhere Root CA"])
        self.ek_roots = []
        if args.ek_ca:
            with open(args.ek_ca, "rb") as f:
                self.ek_roots = x509.load_pem_x509_certificates(f.read())
            self.levels = os.path.join(self.work, "levels.cnf")
            with open(self.levels, "w") as f:
                f.write(LEVEL_EXTENSIONS.format(level="al1", code=10) + LEVEL_EXTENSIONS.format(level="al2", code=20))
            with open(os.path.join(args.ca_dir, "root.pem"), "rb") as f:
                root = x509.load_pem_x509_certificate(f.read())
            self.organization = root.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)[0].value

    def mode(self):
        try:
            with open(self.args.mode_file) as f:
                return f.read().strip() or "ok"
        except (OSError, TypeError):
            return "ok"

    def record(self, line):
        if self.args.log:
            with self.lock, open(self.args.log, "a") as f:
                f.write(line + "\n")

    def assurance_level(self, request_der):
        """With --ek-ca: "al2" when the request's TPM evidence verifies, else "al1"; None without."""
        if not self.ek_roots:
            return None
        why = tpm_evidence.verify(request_der, self.ek_roots)
        if self.mode() == "ignore-evidence":
            return "al1"
        if self.args.evidence_log:
            with self.lock, open(self.args.evidence_log, "a") as f:
                f.write((why or "verified") + "\n")
        if why and self.mode() == "require-al2":
            raise Refused(why)
        return "al1" if why else "al2"

    def issue(self, request_der, level=None):
        """`openssl ca` signs the request (or, in mode other-key, one for a key of its own); at
        an assurance level, with that level's profile and the subject C, O and CN it asks for."""
        with self.lock:
            name = os.path.join(self.work, f"{os.getpid()}-{threading.get_ident()}")
            if self.mode() == "other-key":
                run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", name + ".other.key", "-subj", "/CN=someone else", "-out", name + ".csr"])
            else:
                run(["openssl", "req", "-inform", "DER", "-out", name + ".csr"], data=request_der)
            now = datetime.datetime.now(datetime.timezone.utc)
            start = (now - datetime.timedelta(minutes=1)).strftime("%Y%m%d%H%M%SZ")
            end = (now + datetime.timedelta(minutes=self.args.minutes)).strftime("%Y%m%d%H%M%SZ")
            config = os.path.join(self.args.ca_dir, "ca.cnf")
            if self.mode() == "foreign-issuer":
                run(["openssl", "x509", "-req", "-in", name + ".csr", "-CA", self.foreign_root,
                     "-CAkey", os.path.join(self.work, "foreign-root.key"), "-set_serial", str(int.from_bytes(os.urandom(8), "big")),
                     "-days", "1", "-extfile", config, "-extensions", "est", "-out", name + ".pem"])
            else:
                profile = ["-extensions", "est"]
                if level:
                    common_name = x509.load_der_x509_csr(request_der).subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value
                    profile = ["-extfile", self.levels, "-extensions", level,
                               "-subj", f"/C=US/O={self.organization}/CN={common_name}"]
                run(["openssl", "ca", "-batch", "-notext", "-config", config] + profile + ["-in", name + ".csr",
                     "-out", name + ".pem", "-startdate", start, "-enddate", end])
            serial_hex = run(["openssl", "x509", "-in", name + ".pem", "-noout", "-serial"]).decode().strip().split("=")[1]
            serial = str(int(serial_hex, 16))
            return certs_only([name + ".pem"]), serial


class Refused(Exception):
    pass


def handler(server):
    credential = "Basic " + base64.b64encode(server.args.credential.encode()).decode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def answer(self, status, body=b"", content_type="text/plain", serial=None, headers=(), level=None):
            # Logged before it is sent: once lensd has the answer, the log has its line.
            server.record(f"{self.command} {self.path.removeprefix(PREFIX)} {status}" + (f" {serial}" if serial else "")
                          + (f" {level}" if level and serial else ""))
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            if content_type == "application/pkcs7-mime":
                self.send_header("Content-Transfer-Encoding", "base64")
            for key, value in headers:
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path != PREFIX + "cacerts":
                return self.answer(404, b"no such EST operation\n")
            mode = server.mode()
            if mode == "error":
                return self.answer(500, b"CA offline for maintenance\nback soon\n")
            root = server.foreign_root if mode == "foreign-cacerts" else os.path.join(server.args.ca_dir, "root.pem")
            self.answer(200, certs_only([root]), "application/pkcs7-mime")

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            operation = self.path.removeprefix(PREFIX)
            if operation not in ("simpleenroll", "simplereenroll"):
                return self.answer(404, b"no such EST operation\n")
            if server.mode() == "error":
                return self.answer(500, b"CA offline for maintenance\nback soon\n")
            if operation == "simpleenroll" and self.headers.get("Authorization") != credential:
                return self.answer(401, b"credential refused\n", headers=[("WWW-Authenticate", 'Basic realm="est"')])
            # TLS verified the certificate against the organization's root; re-enrolling needs one.
            if operation == "simplereenroll" and not self.connection.getpeercert():
                return self.answer(401, b"re-enrollment needs the current certificate in TLS\n")
            if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/pkcs10":
                return self.answer(415, b"expected application/pkcs10\n")
            try:
                request = base64.b64decode(body, validate=False)
                level = server.assurance_level(request)
                issued, serial = server.issue(request, level)
            except Refused as why:
                return self.answer(403, f"assurance level 2 refused: {why}\n".encode())
            except (subprocess.CalledProcessError, ValueError) as error:
                detail = getattr(error, "stderr", b"") or str(error).encode()
                return self.answer(400, b"request refused: " + detail.splitlines()[0] + b"\n")
            self.answer(200, issued, "application/pkcs7-mime", serial=serial, level=level)

    return Handler


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ca_dir")
    ap.add_argument("tls_dir")
    ap.add_argument("--credential", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=5)
    ap.add_argument("--mode-file")
    ap.add_argument("--log")
    ap.add_argument("--ek-ca")
    ap.add_argument("--evidence-log")
    ap.add_argument("--exit-with-stdin", action="store_true")
    args = ap.parse_args()
    server = Server(args)

    # Its scratch directory goes with it, whether its test stops it (SIGTERM) or is gone.
    def leave(*_):
        shutil.rmtree(server.work, ignore_errors=True)
        os._exit(0)
    signal.signal(signal.SIGTERM, leave)
    if args.exit_with_stdin:
        lifeline.exit_with_stdin(leave)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(args.tls_dir, "server.pem"), os.path.join(args.tls_dir, "server.key"))
    # Client certificates are asked for and, when sent, verified against the organization's root.
    context.verify_mode = ssl.CERT_OPTIONAL
    context.load_verify_locations(os.path.join(args.ca_dir, "root.pem"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler(server))
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    print(f"listening https://127.0.0.1:{httpd.server_address[1]}/.well-known/est", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
