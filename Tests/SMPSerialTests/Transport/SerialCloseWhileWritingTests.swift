import SMP
import SMPSerial
import XCTest

/// Closing a transport whose writes wait for a device that takes no more bytes (a slow or stuck
/// UART, a full pseudo-terminal): the close, and with it Ctrl-C in `smpctl image upload`, ends at
/// once; frames still queued are dropped, and so is what the port holds unsent, so that the next
/// session does not wait behind requests nobody awaits.
final class SerialCloseWhileWritingTests: XCTestCase {
    func testCloseDoesNotWaitForWritesTheDeviceDoesNotTake() async throws {
        let terminal = try TestTerminal()  // its master is never read: the line is stuck
        // Unpaced, so that the writes fill the pseudo-terminal at once.
        let transport = try await SerialTransport.open(path: terminal.slavePath, options: SerialPortOptions(pacing: .unpaced))
        // 40 messages of about 2.7 KB framed: far more than a pseudo-terminal buffers (some 20 KB).
        let message = [UInt8](repeating: 0x5A, count: 2000)
        let sends = Flags(count: 40)
        for index in 0..<40 {
            Task {
                try? await transport.send(message)
                await sends.set(index)
            }
        }
        // Three messages (8 KB) are more than the pseudo-terminal's 4 KB line buffer keeps: some
        // of what was written is still in the port when it closes. (A message counts as sent when
        // its write starts; waiting for the first alone let a busy machine close after one whole
        // message, which the line buffer held entirely.)
        await waitUntil { transport.statistics.messagesSent >= 3 }
        let closed = Flags(count: 1)
        Task {
            await transport.close()
            await closed.set(0)
        }
        // Each stuck write would otherwise hold the close for the 10 s stall timeout.
        await waitUntil(timeout: .seconds(5)) { await closed.all }
        await waitUntil(timeout: .seconds(5)) { await sends.all }
        XCTAssertLessThan(transport.statistics.messagesSent, 40, "the line could not have taken them all")
        // The device keeps what its side already received (a pseudo-terminal's 4 KB line buffer);
        // what was still queued towards it is gone.
        var delivered = 0
        while case let bytes = terminal.read(timeout: .milliseconds(200)), !bytes.isEmpty { delivered += bytes.count }
        let written = transport.statistics.bytesSent
        XCTAssertLessThan(delivered, written, "abandoned requests still reach the device (\(written) bytes written)")
    }
}

/// Which of several background tasks have finished.
private actor Flags {
    private var done: [Bool]

    init(count: Int) { done = Array(repeating: false, count: count) }

    func set(_ index: Int) { done[index] = true }

    var all: Bool { done.allSatisfy { $0 } }
}
