#!/usr/bin/env bash
# Makes the DTLS credentials the tests use, with the openssl CLI, into OUTDIR (nothing is committed):
#   ca.pem ca.key              a test CA
#   device.pem device.key      the device's certificate, signed by ca: CN smp-device,
#                              SAN DNS:localhost, IP:127.0.0.1, valid for 10 days
#   expired.pem expired.key    signed by ca, same names, expired yesterday
#   other-ca.pem other-ca.key  a second CA that signed nothing the device has
#   stranger.pem stranger.key  the device's names, signed by other-ca
#   client.pem client.key      a client certificate signed by ca (CN smpctl-client)
#   psk.hex                    a 16-byte PSK as hex, for the identity in psk.id ("smpctl-test")
# Keys are P-256 EC keys (Zephyr's sample uses ECDHE-ECDSA-AES128-GCM-SHA256).
#
#   Tests/Scripts/dtls/make-certs.sh OUTDIR
set -euo pipefail
out=${1:?usage: make-certs.sh OUTDIR}
mkdir -p "$out"
cd "$out"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

ca() { # NAME CN
    key "$1.key"
    openssl req -x509 -new -key "$1.key" -sha256 -days 30 -subj "/CN=$2" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign -out "$1.pem"
}

leaf() { # NAME CN ISSUER SAN VALIDITY(openssl x509 -days N | "expired")
    key "$1.key"
    openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr"
    local ext
    ext=$(mktemp)
    printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n%s\n' "$4" > "$ext"
    if [ "$5" = expired ]; then
        # x509 -days cannot go back in time; `openssl ca` takes explicit start and end dates.
        printf '[ca]\ndefault_ca=test\n[test]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\npolicy=any\n[any]\ncommonName=supplied\n' > ca.cnf
        : > index.txt
        echo 01 > serial
        openssl ca -batch -notext -config ca.cnf -cert "$3.pem" -keyfile "$3.key" -in "$1.csr" -extfile "$ext" \
            -startdate "$(date -u -d '-3 days' +%Y%m%d%H%M%SZ)" -enddate "$(date -u -d '-1 day' +%Y%m%d%H%M%SZ)" \
            -out "$1.pem" 2>/dev/null
        rm -f ca.cnf index.txt* serial* ./*01.pem
    else
        openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -sha256 -days "$5" \
            -extfile "$ext" -out "$1.pem" 2>/dev/null
    fi
    rm -f "$1.csr" "$ext"
}

ca ca "smpctl test CA"
ca other-ca "another CA"
names='subjectAltName=DNS:localhost,IP:127.0.0.1'
leaf device smp-device ca "$names" 10
leaf stranger smp-device other-ca "$names" 10
leaf client smpctl-client ca 'extendedKeyUsage=clientAuth' 10
leaf expired smp-device ca "$names" expired
openssl rand -hex 16 > psk.hex
printf 'smpctl-test\n' > psk.id
rm -f ./*.srl
