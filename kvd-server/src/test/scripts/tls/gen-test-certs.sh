#!/usr/bin/env bash
# Writes a throwaway CA and the server and client certificates it signs into DIR (default
# ./tls), as Redis's utils/gen-test-certs.sh does: ca.crt, server.crt/.key (localhost and
# 127.0.0.1), client.crt/.key, and server-pass.key (server.key encrypted with the password
# "kvd-test", for tls-key-file-pass). Keys are PKCS#8 PEM. For tests and trials only.
#
#   gen-test-certs.sh DIR
set -euo pipefail
dir=${1:-tls}
mkdir -p "$dir"
cd "$dir"

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out ca.key 2>/dev/null
openssl req -x509 -new -key ca.key -sha256 -days 3650 -subj '/O=kvd test/CN=kvd test CA' -out ca.crt

# sign NAME CN [extensions]: NAME.key and NAME.crt signed by the CA.
sign() {
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1.key" 2>/dev/null
    openssl req -new -key "$1.key" -subj "/O=kvd test/CN=$2" -out "$1.csr"
    printf '%s\n' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 \
        -extfile "$1.ext" -out "$1.crt" 2>/dev/null
    rm "$1.csr" "$1.ext"
}
sign server localhost 'subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth'
sign client 'kvd test client' 'extendedKeyUsage=clientAuth'

openssl pkcs8 -topk8 -in server.key -passout pass:kvd-test -out server-pass.key
