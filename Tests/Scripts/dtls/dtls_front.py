#!/usr/bin/env python3
"""A DTLS 1.2 front for a plain SMP UDP server, made with python-mbedtls (Mbed TLS, the stack Zephyr's
CONFIG_MCUMGR_TRANSPORT_UDP_DTLS uses): a DTLS server we did not write, in front of the native_sim `udp`
fixture or any SMP UDP server.

Each DTLS peer gets its own session (HelloVerifyRequest cookies, as Zephyr's server sends them) and its own
upstream UDP socket, so the upstream server's answers find their way back. Plaintext datagrams to the front
are ignored, as a DTLS-only device ignores them.

    dtls_front.py --upstream 127.0.0.1:1337 --psk-id smpctl-test --psk-file psk.hex
    dtls_front.py --upstream 127.0.0.1:1337 --cert device.pem --key device.key [--ca ca.pem]

Prints "READY <port>" once listening (--port 0 picks a free port). --drop-first N drops the first N
handshake datagrams from each peer (a lost flight the client must send again). --one-peer serves one peer
at a time and ignores the others until that session ends, as Zephyr's DTLS socket does. Exits on SIGTERM
or when stdin closes (with --stdin-lifetime); logs one line per event on stderr, never a key.
"""
import argparse
import os
import select
import signal
import socket
import sys
import time

from mbedtls import pk, tls, x509
from mbedtls._tls import HandshakeStep, RaggedEOF
from mbedtls.exceptions import TLSError

# The suites Zephyr's smp_svr sample enables (udp-dtls.conf) and the usual Mbed TLS PSK suite.
CERTIFICATE_CIPHERS = ("TLS-ECDHE-ECDSA-WITH-AES-128-GCM-SHA256",)
PSK_CIPHERS = ("TLS-PSK-WITH-AES-128-CCM-8",)
IDLE_SECONDS = 30.0
ALERT, HANDSHAKE = 21, 22  # DTLS record content types  # Zephyr's sample: CONFIG_NET_SOCKETS_DTLS_TIMEOUT=30000


def log(message):
    print(f"dtls_front: {message}", file=sys.stderr, flush=True)


def read_psk(path):
    text = "".join(open(path, encoding="ascii").read().split())
    try:
        key = bytes.fromhex(text)
    except ValueError:
        sys.exit(f"dtls_front: {path}: expected the key as hex digits")
    if not key:
        sys.exit(f"dtls_front: {path}: the key is empty")
    return key


def configuration(args):
    if args.psk_id:
        return tls.DTLSConfiguration(
            pre_shared_key_store={args.psk_id: read_psk(args.psk_file)},
            ciphers=args.ciphers or PSK_CIPHERS,
            lowest_supported_version=tls.DTLSVersion.DTLSv1_2,
            validate_certificates=False,
        )
    chain = ((x509.CRT.from_file(args.cert),), pk.ECC.from_file(args.key))
    trust = tls.TrustStore.from_pem_file(args.ca) if args.ca else None
    return tls.DTLSConfiguration(
        certificate_chain=chain,
        trust_store=trust,
        validate_certificates=args.ca is not None,
        ciphers=args.ciphers or CERTIFICATE_CIPHERS,
        lowest_supported_version=tls.DTLSVersion.DTLSv1_2,
    )


class Peer:
    """One DTLS client: its session, its upstream socket and what is left to drop."""

    def __init__(self, front, address):
        self.front = front
        self.address = address
        self.upstream = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.upstream.connect(front.upstream)
        self.drops_left = front.drop_first
        self.established = False
        self.last_heard = time.monotonic()
        self.new_session()

    def new_session(self):
        self.session = self.front.context.wrap_buffers()
        self.session.setcookieparam(self.address[0].encode("ascii"))
        self.established = False

    def flush(self):
        while True:
            pending = self.session.peek_outgoing(65536)
            if not pending:
                return
            self.front.socket.sendto(pending, self.address)
            self.session.consume_outgoing(len(pending))

    def from_client(self, datagram):
        self.last_heard = time.monotonic()
        if not self.established and self.drops_left > 0:
            self.drops_left -= 1
            log(f"{self.address[0]}:{self.address[1]}: dropped a handshake datagram ({len(datagram)} bytes)")
            return True
        self.session.receive_from_network(datagram)
        if not self.established:
            return self.handshake()
        return self.relay_up(closing=datagram[0] == ALERT)

    def handshake(self):
        try:
            while self.session._handshake_state is not HandshakeStep.HANDSHAKE_OVER:
                try:
                    self.session.do_handshake()
                except tls.WantWriteError:
                    self.flush()
        except tls.HelloVerifyRequest:
            self.flush()
            self.new_session()
            return True
        except tls.WantReadError:
            self.flush()
            return True
        except TLSError as error:
            self.flush()
            log(f"{self.address[0]}:{self.address[1]}: handshake failed: {error}")
            return False
        self.flush()
        self.established = True
        log(f"{self.address[0]}:{self.address[1]}: session up, {self.session.cipher()}")
        return True

    def relay_up(self, closing):
        """Relays what the datagram held; an alert record from the peer (close_notify) ends the session."""
        while True:
            try:
                plaintext = self.session.read(65536)
            except tls.WantReadError:
                return True
            except RaggedEOF:
                return False
            except TLSError as error:
                log(f"{self.address[0]}:{self.address[1]}: {error}")
                return False
            if not plaintext:
                if closing:
                    log(f"{self.address[0]}:{self.address[1]}: the peer closed the session")
                return not closing
            self.upstream.send(plaintext)

    def from_upstream(self):
        answer = self.upstream.recv(65536)
        if self.established:
            self.session.write(answer)
            self.flush()

    def close(self):
        self.upstream.close()


class Front:
    def __init__(self, args):
        host, _, port = args.upstream.rpartition(":")
        self.upstream = (host, int(port))
        self.context = tls.ServerContext(configuration(args))
        self.drop_first = args.drop_first
        self.one_peer = args.one_peer
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind((args.host, args.port))
        self.peers = {}

    def forget(self, address):
        peer = self.peers.pop(address, None)
        if peer:
            peer.close()

    def datagram(self):
        datagram, address = self.socket.recvfrom(65536)
        peer = self.peers.get(address)
        if peer is None:
            if not datagram or datagram[0] != HANDSHAKE:  # only a handshake record starts a session
                log(f"{address[0]}:{address[1]}: ignored a datagram that starts no DTLS handshake ({len(datagram)} bytes)")
                return
            if self.one_peer and self.peers:
                log(f"{address[0]}:{address[1]}: ignored: serving another peer")
                return
            peer = self.peers[address] = Peer(self, address)
        if not peer.from_client(datagram):
            self.forget(address)

    def serve(self, stdin_lifetime):
        print(f"READY {self.socket.getsockname()[1]}", flush=True)
        while True:
            watched = [self.socket] + [peer.upstream for peer in self.peers.values()]
            if stdin_lifetime:
                watched.append(sys.stdin)
            readable, _, _ = select.select(watched, [], [], 1.0)
            for source in readable:
                if source is self.socket:
                    self.datagram()
                elif source is sys.stdin:
                    if not sys.stdin.buffer.read1(4096):
                        return
                else:
                    for address, peer in list(self.peers.items()):
                        if peer.upstream is source:
                            peer.from_upstream()
            now = time.monotonic()
            for address, peer in list(self.peers.items()):
                if now - peer.last_heard > IDLE_SECONDS:
                    log(f"{address[0]}:{address[1]}: forgotten after {IDLE_SECONDS:.0f} s of silence")
                    self.forget(address)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--upstream", required=True, help="HOST:PORT of the plain SMP UDP server")
    parser.add_argument("--psk-id")
    parser.add_argument("--psk-file")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--ca", help="require a client certificate signed by this CA")
    parser.add_argument("--ciphers", nargs="+", help="Mbed TLS suite names instead of Zephyr's")
    parser.add_argument("--drop-first", type=int, default=0)
    parser.add_argument("--one-peer", action="store_true")
    parser.add_argument("--stdin-lifetime", action="store_true", help="exit when stdin closes")
    args = parser.parse_args()
    if bool(args.psk_id) == bool(args.cert):
        parser.error("give either --psk-id and --psk-file, or --cert and --key")
    if args.psk_id and not args.psk_file:
        parser.error("--psk-id needs --psk-file")
    if args.cert and not args.key:
        parser.error("--cert needs --key")
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Front(args).serve(args.stdin_lifetime)


if __name__ == "__main__":
    main()
