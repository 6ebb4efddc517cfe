import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// Messages over many lines, and the size limits of the link and of the device.
final class SerialLargeMessageTests: XCTestCase {
    func testEchoOfTwoKilobytesOverManyLines() async throws {
        let link = try await PTYLink.start(
            configuration: VirtualDeviceConfiguration(bufferSize: 4096), port: SerialPortOptions(maximumMessageSize: 4092))
        let maximum = await link.client.maximumMessageSize()
        XCTAssertEqual(maximum, 4092)
        let text = String((0..<2048).map { Character(UnicodeScalar(UInt8(0x21 + $0 % 94))) })
        let answer = try await link.client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        let sent = link.transport.statistics
        XCTAssertGreaterThan(sent.bytesSent, 2048 * 4 / 3, "base64 makes it larger")
        let lines = await link.server.statistics.framing.lineBytes / SerialFrameEncoder.defaultLineLength
        XCTAssertGreaterThanOrEqual(lines, 20, "about 22 lines of 127 bytes")
        await link.stop()
    }

    func testShorterLinesCarryTheSameMessage() async throws {
        let link = try await PTYLink.start(
            configuration: VirtualDeviceConfiguration(bufferSize: 1024),
            simulator: PTYSimulatorOptions(lineLength: 40), port: SerialPortOptions(lineLength: 32, maximumMessageSize: 1020))
        let text = String(repeating: "short lines ", count: 60)
        let answer = try await link.client.send(OSEcho(text))
        XCTAssertEqual(answer, text)
        await link.stop()
    }

    func testARequestAboveTheLinkLimitIsRefusedBeforeSending() async throws {
        let link = try await PTYLink.start()
        do {
            _ = try await link.client.send(OSEcho(String(repeating: "x", count: 400)))
            XCTFail("expected requestTooLarge")
        } catch {
            guard case .requestTooLarge(_, _, let limit, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(limit, 380)
        }
        XCTAssertEqual(link.transport.statistics.messagesSent, 1, "only the parameters request, which told the device's buf_size")
        await link.stop()
    }

    func testTheDeviceDropsAPacketAboveItsBufferAsZephyrDoes() async throws {
        let link = try await PTYLink.start(
            port: SerialPortOptions(maximumMessageSize: 1000),
            client: SMPClientConfiguration(timeout: .milliseconds(300), retries: 0))
        // The client would refuse it (it learns buf_size), so the packet goes straight to the link.
        let header = SMPHeader(operation: .write, version: .v2, length: 0, group: .os, sequence: 1, command: OSCommandID.echo)
        try await link.transport.send(SMPMessage(header: header, payload: ["d": .text(String(repeating: "x", count: 500))]).encoded())
        for _ in 0..<200 where await link.server.statistics.framing.lengthErrors == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let framing = await link.server.statistics.framing
        XCTAssertEqual(framing.lengthErrors, 1, "buf_size 384 − 4 is the most the device reassembles")
        XCTAssertEqual(framing.packets, 0)
        let answer = try await link.client.send(OSEcho(String(repeating: "y", count: 300)))
        XCTAssertEqual(answer.count, 300, "the next packet that fits is served")
        await link.stop()
    }

    func testAMessageBeyondASerialPacketIsRefused() async throws {
        let link = try await PTYLink.start()
        do {
            try await link.transport.send([UInt8](repeating: 0, count: 65_534))
            XCTFail("expected an error")
        } catch let error as SMPTransportError {
            XCTAssertTrue(error.message.contains("does not fit a serial packet"), error.message)
        }
        await link.stop()
    }
}
