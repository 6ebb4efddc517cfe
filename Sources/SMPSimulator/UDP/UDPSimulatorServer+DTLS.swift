import NIOCore
import SMPUDP

/// One DTLS peer of a ``UDPSimulatorServer``: its session and when it was last heard.
struct DTLSPeer {
    var session: DTLSSession
    var lastHeard: ContinuousClock.Instant
}

extension UDPSimulatorServer {
    /// How often the DTLS sessions' retransmission timers and silences are checked.
    static let dtlsTimerTick: Duration = .milliseconds(50)

    /// Feeds a datagram to its peer's DTLS session (a new one for a ClientHello from a new peer,
    /// or from a peer starting over); answers the SMP frames it carries.
    func serveDTLS(_ datagram: ReceivedDatagram, channel: any Channel) async {
        guard let dtls else { return }
        let peer = datagram.sender
        let startsHandshake = Self.isClientHello(datagram.bytes)
        if dtlsPeers[peer] == nil || (startsHandshake && dtlsPeers[peer]?.session.isHandshakeComplete == true) {
            guard startsHandshake else {
                ignoredPlainDatagrams += 1
                logger.debug("ignored a datagram from \(Self.describe(peer)) that starts no DTLS handshake (DTLS is on)")
                return
            }
            do {
                dtlsPeers[peer] = DTLSPeer(
                    session: try DTLSSession(context: dtls, peer: Array(Self.describe(peer).utf8)), lastHeard: .now)
            } catch {
                logger.warning("cannot start a DTLS session for \(Self.describe(peer)): \(error)")
                return
            }
        }
        guard let session = dtlsPeers[peer]?.session else { return }
        dtlsPeers[peer]?.lastHeard = .now
        session.receive(datagram.bytes)
        let frames: [[UInt8]]
        do {
            if !session.isHandshakeComplete, try session.handshake() == .complete {
                dtlsHandshakesCompleted += 1
                logger.debug("DTLS session with \(Self.describe(peer)): \(session.cipherSuite ?? "")")
            }
            frames = session.isHandshakeComplete ? try session.open() : []
        } catch {
            logger.notice("DTLS session with \(Self.describe(peer)) ended: \(error)")
            endDTLSSession(of: peer, channel: channel)
            return
        }
        send(session.takeOutgoing(), to: peer, channel: channel)
        if session.isClosedByPeer {
            logger.debug("DTLS session with \(Self.describe(peer)) closed by the peer")
            dtlsPeers[peer] = nil
        }
        for frame in frames { await answer(frame, to: peer, channel: channel) }
    }

    /// Seals an answer for `peer`; nil when its session is gone or failed.
    func sealDTLS(_ message: [UInt8], to peer: SocketAddress) -> [[UInt8]]? {
        guard let session = dtlsPeers[peer]?.session else { return nil }
        do {
            try session.seal(message)
        } catch {
            logger.notice("DTLS session with \(Self.describe(peer)) ended: \(error)")
            dtlsPeers[peer] = nil
            return nil
        }
        return session.takeOutgoing()
    }

    /// Retransmits handshake flights when their timers run out and drops silent peers, until
    /// cancelled.
    func runDTLSTimers(channel: any Channel) async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: Self.dtlsTimerTick)
            } catch {
                return
            }
            let now = ContinuousClock.now
            for (peer, state) in dtlsPeers {
                if now - state.lastHeard > dtlsIdleTimeout {
                    logger.debug("DTLS session with \(Self.describe(peer)) dropped after \(dtlsIdleTimeout) of silence")
                    dtlsPeers[peer] = nil
                    continue
                }
                guard state.session.nextTimeout == .zero else { continue }
                do {
                    try state.session.handleTimeout()
                    send(state.session.takeOutgoing(), to: peer, channel: channel)
                } catch {
                    logger.notice("DTLS session with \(Self.describe(peer)) ended: \(error)")
                    endDTLSSession(of: peer, channel: channel)
                }
            }
        }
    }

    /// Sends what a failed session still has (its alert) and forgets it.
    private func endDTLSSession(of peer: SocketAddress, channel: any Channel) {
        if let session = dtlsPeers[peer]?.session { send(session.takeOutgoing(), to: peer, channel: channel) }
        dtlsPeers[peer] = nil
    }

    /// `127.0.0.1:40000`, `[::1]:40000`.
    static func describe(_ peer: SocketAddress) -> String {
        guard let ip = peer.ipAddress, let port = peer.port else { return "\(peer)" }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// Whether a datagram starts with a DTLS handshake record of epoch 0 carrying a ClientHello.
    static func isClientHello(_ bytes: [UInt8]) -> Bool {
        bytes.count > 13 && bytes[0] == 22 && bytes[1] == 0xFE && bytes[3] == 0 && bytes[4] == 0 && bytes[13] == 1
    }
}
