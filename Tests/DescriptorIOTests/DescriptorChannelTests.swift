#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import SMPTestSupport
import Synchronization
import XCTest

/// The one I/O primitive: real socket pairs and pseudo-terminals, no mocks.
final class DescriptorChannelTests: XCTestCase {
    func testReadsArriveInOrderAndCloseFinishesTheSequence() async throws {
        let (ours, peer) = try socketPair(SOCK_STREAM)
        defer { Glibc.close(peer) }
        let channel = try DescriptorChannel(owning: ours)
        for text in ["one", "two", "three"] { send(peer, Array(text.utf8)) }
        var received: [UInt8] = []
        var iterator = channel.reads.makeAsyncIterator()
        while received.count < 11, let chunk = try await iterator.next() { received += chunk.bytes }
        XCTAssertEqual(String(decoding: received, as: UTF8.self), "onetwothree")
        channel.close()
        let next = try await iterator.next()
        XCTAssertNil(next, "close() finishes the sequence without an error")
        await channel.closed()
        XCTAssertEqual(fcntl(ours, F_GETFD), -1, "the channel closed its descriptor")
    }

    func testThePeersEndIsThrownAndLaterWritesFail() async throws {
        let (ours, peer) = try socketPair(SOCK_STREAM)
        let channel = try DescriptorChannel(owning: ours)
        Glibc.close(peer)
        do {
            for try await _ in channel.reads { XCTFail("nothing was sent") }
            XCTFail("the end must be thrown")
        } catch let end as DescriptorChannel.End {
            XCTAssertEqual(end, .endOfFile)
        }
        do {
            try await channel.write([[1, 2, 3]])
            XCTFail("a write after the end must fail")
        } catch {
            XCTAssertEqual(error, .ended(.endOfFile))
        }
        channel.close()
        await channel.closed()
    }

    /// What SwiftNIO's pipe channel asserts on: a pseudo-terminal master whose slave hung up,
    /// with and without bytes left to read, read continuously and on request.
    func testAPseudoTerminalWhoseSlaveHangsUpEndsTheChannel() async throws {
        for mode in [DescriptorChannel.ReadMode.continuous, .onRequest] {
            for leftBytes in [false, true] {
                let (master, slave) = try pseudoTerminal()
                let channel = try DescriptorChannel(owning: master, readMode: mode)
                if mode == .onRequest { channel.requestRead() }
                if leftBytes { _ = Glibc.write(slave, "unread", 6) }
                Glibc.close(slave)
                do {
                    for try await _ in channel.reads {}
                    XCTFail("\(mode), bytes left \(leftBytes): the hang-up must end the sequence")
                } catch let end as DescriptorChannel.End {
                    XCTAssertTrue([.hungUp, .readFailed(EIO)].contains(end), "\(mode): \(end)")
                }
                channel.close()
                await channel.closed()
            }
        }
    }

    func testReadsOnRequestTakeOneChunkEach() async throws {
        let (ours, peer) = try socketPair(SOCK_SEQPACKET)
        defer { Glibc.close(peer) }
        let channel = try DescriptorChannel(owning: ours, readMode: .onRequest)
        for index in 0..<3 { send(peer, [UInt8(index)]) }
        let received = Mutex<[[UInt8]]>([])
        let reader = Task { for try await chunk in channel.reads { received.withLock { $0.append(chunk.bytes) } } }
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(received.withLock { $0 }, [], "nothing is read before it is asked for")
        channel.requestRead()
        channel.requestRead()
        try await waitFor { received.withLock { $0.count } == 2 }
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(received.withLock { $0 }, [[0], [1]], "one datagram per request")
        channel.close()
        try await reader.value
    }

    func testWritesKeepTheirOrderAndEachSegmentIsOneDatagram() async throws {
        let (ours, peer) = try socketPair(SOCK_SEQPACKET)
        defer { Glibc.close(peer) }
        let channel = try DescriptorChannel(owning: ours, readMode: .never)
        try await channel.write([[1], [2, 2], [3, 3, 3]])
        try await channel.write([[4]])
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        for _ in 0..<4 {
            let count = recv(peer, &buffer, buffer.count, 0)
            datagrams.append(Array(buffer[0..<max(0, count)]))
        }
        XCTAssertEqual(datagrams, [[1], [2, 2], [3, 3, 3], [4]])
        channel.close()
        await channel.closed()
    }

    func testAPeerThatTakesNothingStallsTheWrite() async throws {
        let (ours, peer) = try socketPair(SOCK_STREAM)
        defer { Glibc.close(peer) }
        let channel = try DescriptorChannel(owning: ours)
        let writing = Task { () -> DescriptorChannel.WriteFailure? in
            do throws(DescriptorChannel.WriteFailure) {
                try await channel.write([[UInt8](repeating: 0x55, count: 8 << 20)], stallTimeout: .milliseconds(200))
                return nil
            } catch {
                return error
            }
        }
        // Nobody reads: only the stall limit can end the write.
        let failure = await outcomeWhileTheClockStands(of: writing)
        XCTAssertEqual(try XCTUnwrap(failure).get(), .stalled(.milliseconds(200)))
        channel.close()
        await channel.closed()
    }

    func testCloseEndsABlockedWriteAtOnce() async throws {
        let (ours, peer) = try socketPair(SOCK_STREAM)
        defer { Glibc.close(peer) }
        let channel = try DescriptorChannel(owning: ours)
        let writing = Task { () -> DescriptorChannel.WriteFailure? in
            do throws(DescriptorChannel.WriteFailure) {
                try await channel.write([[UInt8](repeating: 0x55, count: 8 << 20)])
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        // The write has no stall limit: only the close can end it.
        channel.close()
        let failure = await outcomeWhileTheClockStands(of: writing)
        XCTAssertEqual(try XCTUnwrap(failure).get(), .closed)
        await channel.closed()
    }

    func testASegmentWaitsUntilThePacerLetsItGo() async throws {
        let (ours, peer) = try socketPair(SOCK_SEQPACKET)
        defer { Glibc.close(peer) }
        let channel = try DescriptorChannel(owning: ours, readMode: .never)
        let pacer = GatePacer(holdsForAsks: 3)
        try await channel.write([[1], [2], [3]], pacer: pacer)
        // Each segment after the first waited through three answers of "not yet" (1 ms each) and
        // went out only once the pacer said it may: none was written while it was held.
        XCTAssertEqual(pacer.events.withLock { $0 }, ["written", "held", "held", "held", "written", "held", "held", "held", "written"])
        channel.close()
        await channel.closed()
    }

    func testAThreadJobIsCancelledWithItsTask() async throws {
        let job = Task {
            try await PollingThread.run { thread -> Bool in
                var nothing: [pollfd] = []
                _ = thread.wait(&nothing, timeout: .seconds(30))
                return thread.isStopping
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        job.cancel()
        let stopped = try await job.value
        XCTAssertTrue(stopped, "cancelling the task stopped the thread's wait")
    }

    // MARK: Helpers

    private func socketPair(_ type: __socket_type) throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw SystemCallFailure(call: "socketpair", code: errno)
        }
        return (ends[0], ends[1])
    }

    private func pseudoTerminal() throws -> (master: Int32, slave: Int32) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw SystemCallFailure(call: "openpty", code: errno) }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        return (master, slave)
    }

    private func send(_ descriptor: Int32, _ bytes: [UInt8]) {
        XCTAssertEqual(Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)), bytes.count)
    }

    private func waitFor(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("timed out") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// A system call a test needs failed.
private struct SystemCallFailure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// Holds each segment after the first for `holdsForAsks` questions (saying 1 ms each time), then
/// lets it go; remembers what it said and what was written, in order.
private final class GatePacer: WritePacer {
    let holdsForAsks: Int
    let events = Mutex<[String]>([])

    init(holdsForAsks: Int) { self.holdsForAsks = holdsForAsks }

    func delay(before now: ContinuousClock.Instant) -> Duration {
        events.withLock { events in
            guard events.contains("written") else { return .zero }
            let held = events.reversed().prefix { $0 == "held" }.count
            guard held < holdsForAsks else { return .zero }
            events.append("held")
            return .milliseconds(1)
        }
    }

    func segmentWritten(at now: ContinuousClock.Instant) {
        events.withLock { $0.append("written") }
    }
}
