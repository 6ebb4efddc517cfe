#if canImport(Glibc)
import Glibc
#endif
import CBOR
import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import SMPUDP
import XCTest

/// The UDP simulator serving DTLS, answered by DTLSSession clients over real loopback UDP.
final class UDPSimulatorDTLSTests: XCTestCase {
    private var files: DTLSTestCredentials!

    override func setUpWithError() throws {
        files = try DTLSTestCredentials.make()
    }

    func testPreSharedKeyClientGetsAnswersAndPlainDatagramsAreIgnored() async throws {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0, dtls: try serverContext(.preSharedKey(psk())))
        let port = try await server.start()
        let context = try DTLSContext(client: .preSharedKey(psk()))
        let answers = try await onThread { () throws -> (echo: [UInt8]?, plain: [UInt8]?) in
            let client = try LoopbackDTLSClient(port: port, context: context)
            try client.handshake()
            let echo = try client.request(Self.echo("over dtls"))
            let plain = LoopbackDTLSClient.plainExchange(Self.echo("plain"), port: port)
            client.close()
            return (echo, plain)
        }
        XCTAssertEqual(try answers.echo.map { try SMPMessage(decoding: $0).header.operation }, .writeResponse)
        XCTAssertTrue(answers.echo.map { Self.contains($0, "over dtls") } ?? false)
        XCTAssertNil(answers.plain, "a plain datagram gets no answer while DTLS is on")
        let completed = await server.dtlsHandshakesCompleted
        XCTAssertEqual(completed, 1)
        let ignored = await server.ignoredPlainDatagrams
        XCTAssertEqual(ignored, 1)
        await server.stop()
    }

    func testCertificateServerAsksForAClientCertificate() async throws {
        let credentials = DTLSServerCredentials.certificate(
            DTLSCertificateFiles(certificate: files.path("device.pem"), privateKey: files.path("device.key")),
            clientCertificateAuthorities: files.path("ca.pem"))
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0, dtls: try serverContext(credentials))
        let port = try await server.start()
        let verification = DTLSPeerVerification(certificateAuthorities: files.path("ca.pem"), peerName: "127.0.0.1")
        let withCertificate = try DTLSContext(
            client: .certificate(
                verification: verification,
                clientCertificate: DTLSCertificateFiles(certificate: files.path("client.pem"), privateKey: files.path("client.key"))))
        let without = try DTLSContext(client: .certificate(verification: verification, clientCertificate: nil))
        let outcome = try await onThread { () throws -> (echo: [UInt8]?, refusal: DTLSFailure?) in
            let accepted = try LoopbackDTLSClient(port: port, context: withCertificate)
            try accepted.handshake()
            let echo = try accepted.request(Self.echo("certified"))
            accepted.close()
            let refused = try LoopbackDTLSClient(port: port, context: without)
            do {
                try refused.handshake()
                return (echo, nil)
            } catch {
                return (echo, error as? DTLSFailure)
            }
        }
        XCTAssertTrue(outcome.echo.map { Self.contains($0, "certified") } ?? false)
        XCTAssertEqual(outcome.refusal, .alertReceived(DTLSAlert(code: 40, description: "handshake failure")))
        await server.stop()
    }

    func testCloseNotifyAndSilenceEndTheSession() async throws {
        let server = UDPSimulatorServer(
            device: VirtualDevice(), host: "127.0.0.1", port: 0, dtls: try serverContext(.preSharedKey(psk())),
            dtlsIdleTimeout: .seconds(1))
        let port = try await server.start()
        let context = try DTLSContext(client: .preSharedKey(psk()))
        let answers = try await onThread { () throws -> [[UInt8]?] in
            // close_notify: the session is gone, so the next record from that address is ignored.
            let closing = try LoopbackDTLSClient(port: port, context: context)
            try closing.handshake()
            let first = try closing.request(Self.echo("one"))
            let held = try closing.sealed(Self.echo("two"))
            closing.close()
            Thread.sleep(forTimeInterval: 0.2)
            held.forEach(closing.send)
            let afterClose = closing.receive(timeout: 0.5)
            // Silence longer than the idle timeout.
            let silent = try LoopbackDTLSClient(port: port, context: context)
            try silent.handshake()
            Thread.sleep(forTimeInterval: 2)
            let afterSilence = try silent.request(Self.echo("three"), wait: 0.5)
            return [first, afterClose, afterSilence]
        }
        XCTAssertNotNil(answers[0])
        XCTAssertNil(answers[1], "answered after close_notify")
        XCTAssertNil(answers[2], "answered after the idle timeout")
        let ignored = await server.ignoredPlainDatagrams
        XCTAssertEqual(ignored, 2)
        await server.stop()
    }

    func testAResetForgetsTheSessionsLikeARebootedDevice() async throws {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0, dtls: try serverContext(.preSharedKey(psk())))
        let port = try await server.start()
        let context = try DTLSContext(client: .preSharedKey(psk()))
        let answers = try await onThread { () throws -> [[UInt8]?] in
            let client = try LoopbackDTLSClient(port: port, context: context)
            try client.handshake()
            let reset = try client.request(TestFrames.request(.write, group: .os, command: 5, payload: [:]))
            let afterReset = try client.request(Self.echo("still there?"), wait: 0.5)
            // A new handshake from the same address reaches the restarted device.
            let again = try LoopbackDTLSClient(port: port, context: context)
            try again.handshake()
            let echo = try again.request(Self.echo("new session"))
            again.close()
            return [reset, afterReset, echo]
        }
        XCTAssertNotNil(answers[0], "the reset was not answered")
        XCTAssertNil(answers[1], "the old session outlived the reset")
        XCTAssertTrue(answers[2].map { Self.contains($0, "new session") } ?? false)
        let completed = await server.dtlsHandshakesCompleted
        XCTAssertEqual(completed, 2)
        await server.stop()
    }

    func testServerSendsItsFlightAgainWhenItsTimerRunsOut() async throws {
        let server = UDPSimulatorServer(device: VirtualDevice(), host: "127.0.0.1", port: 0, dtls: try serverContext(.preSharedKey(psk())))
        let port = try await server.start()
        let context = try DTLSContext(client: .preSharedKey(psk()))
        let again = try await onThread { () throws -> Int in
            let client = try LoopbackDTLSClient(port: port, context: context)
            // ClientHello, HelloVerifyRequest, ClientHello with the cookie.
            try client.session.handshake()
            client.flush()
            guard let verify = client.receive(timeout: 2) else { return -1 }
            client.session.receive(verify)
            try client.session.handshake()
            client.flush()
            // The server's flight: lost. Without a word from the client, it comes again.
            let lost = client.receiveAll(for: 0.5)
            guard !lost.isEmpty else { return -2 }
            let repeated = client.receiveAll(for: 2.5)
            repeated.forEach(client.session.receive)
            try client.handshake()
            return repeated.count
        }
        XCTAssertGreaterThan(again, 0, "the server's flight was not sent again (\(again))")
        let completed = await server.dtlsHandshakesCompleted
        XCTAssertEqual(completed, 1)
        await server.stop()
    }

    // MARK: Helpers

    private func psk() throws -> DTLSPreSharedKey {
        try DTLSPreSharedKey(identity: files.pskIdentity, hexKey: files.pskHex)
    }

    private func serverContext(_ credentials: DTLSServerCredentials) throws -> DTLSContext {
        try DTLSContext(server: credentials)
    }

    /// An os echo request.
    static func echo(_ text: String) -> [UInt8] {
        TestFrames.request(.write, group: .os, command: 0, payload: ["d": .text(text)])
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        return bytes.count >= needle.count && (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<$0 + needle.count]) == needle }
    }

    /// Runs blocking socket code on its own thread, off Swift's cooperative pool.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}

/// A DTLS client on a connected loopback UDP socket, blocking, for the tests.
private final class LoopbackDTLSClient {
    let socket: Int32
    let session: DTLSSession

    init(port: Int, context: DTLSContext) throws {
        guard let connected = Self.connect(port) else { throw DTLSFailure.protocolFailure("no socket") }
        socket = connected
        session = try DTLSSession(context: context)
    }

    /// Sends a plain datagram from a socket of its own; the answer within 0.5 s, or nil.
    static func plainExchange(_ datagram: [UInt8], port: Int) -> [UInt8]? {
        guard let socket = connect(port) else { return nil }
        defer { Glibc.close(socket) }
        _ = datagram.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
        return receive(on: socket, timeout: 0.5)
    }

    deinit { Glibc.close(socket) }

    /// Runs the handshake, retransmitting on the session's timer, for at most 10 s.
    func handshake() throws {
        let deadline = Date().addingTimeInterval(10)
        while try session.handshake() == .inProgress {
            flush()
            guard Date() < deadline else { throw session.unansweredHandshake }
            let wait = session.nextTimeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 1
            if let datagram = receive(timeout: max(0.01, wait)) {
                session.receive(datagram)
            } else {
                try session.handleTimeout()
            }
        }
        flush()
    }

    /// Sends one message and returns the first answer within `wait` seconds, or nil.
    func request(_ message: [UInt8], wait: Double = 5) throws -> [UInt8]? {
        try session.seal(message)
        flush()
        let deadline = Date().addingTimeInterval(wait)
        while Date() < deadline, let datagram = receive(timeout: deadline.timeIntervalSinceNow) {
            session.receive(datagram)
            if let answer = try session.open().first { return answer }
        }
        return nil
    }

    /// The datagrams of one sealed message, not sent.
    func sealed(_ message: [UInt8]) throws -> [[UInt8]] {
        try session.seal(message)
        return session.takeOutgoing()
    }

    func close() {
        session.close()
        flush()
    }

    func flush() { session.takeOutgoing().forEach(send) }

    func send(_ datagram: [UInt8]) {
        _ = datagram.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
    }

    func receive(timeout: Double) -> [UInt8]? { Self.receive(on: socket, timeout: timeout) }

    private static func receive(on socket: Int32, timeout: Double) -> [UInt8]? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(max(0, timeout) * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count > 0 ? Array(buffer[..<count]) : nil
    }

    func receiveAll(for seconds: Double) -> [[UInt8]] {
        let deadline = Date().addingTimeInterval(seconds)
        var datagrams: [[UInt8]] = []
        while let datagram = receive(timeout: deadline.timeIntervalSinceNow) { datagrams.append(datagram) }
        return datagrams
    }

    private static func connect(_ port: Int) -> Int32? {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        return descriptor
    }
}
