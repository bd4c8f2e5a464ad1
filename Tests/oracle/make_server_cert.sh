#!/usr/bin/env bash
# make_server_cert.sh OUTDIR
#
# A TLS server PKI for the outbox tests: ca.pem (root), server.pem + server.key (serverAuth,
# SAN IP:127.0.0.1 and DNS:localhost, signed by ca.pem), and other-ca.pem, an unrelated root
# (a client trusting only it must refuse the server).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
cd "$1"
cat > server.cnf <<'CNF'
[ req ]
distinguished_name = dn
prompt             = no
[ dn ]
CN = placeholder
[ v3_ca ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
[ v3_server ]
basicConstraints       = critical, CA:FALSE
keyUsage               = critical, digitalSignature
extendedKeyUsage       = serverAuth
subjectAltName         = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid
CNF
for ca in ca other-ca; do
  openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$ca.key" \
    -subj "/O=lensd tests/CN=$ca" -days 30 -config server.cnf -extensions v3_ca -out "$ca.pem" 2>/dev/null
done
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key \
  -subj "/O=lensd tests/CN=127.0.0.1" -config server.cnf -out server.csr 2>/dev/null
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
  -extfile server.cnf -extensions v3_server -out server.pem 2>/dev/null
