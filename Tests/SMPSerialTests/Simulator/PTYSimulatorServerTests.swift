import Foundation
import SMP
import SMPSerial
@testable import SMPSimulator
import XCTest

/// The pseudo-terminal server itself: its link, hosts coming and going, Zephyr's line split.
final class PTYSimulatorServerTests: XCTestCase {
    func testTheLinkPointsToTheSlaveAndGoesAwayOnStop() async throws {
        let link = temporaryLinkPath()
        let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: link)
        let path = try await server.start()
        XCTAssertEqual(path, link)
        let running = await server.devicePath
        let devicePath = try XCTUnwrap(running)
        XCTAssertTrue(devicePath.hasPrefix("/dev/pts/"), devicePath)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), devicePath)
        await server.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: link))
        let stopped = await server.path
        XCTAssertNil(stopped)
    }

    func testAStaleLinkIsReplacedButAFileIsNot() async throws {
        let link = temporaryLinkPath()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/999999")
        let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: link)
        try await server.start()
        let devicePath = await server.devicePath
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), devicePath)
        await server.stop()

        let file = temporaryLinkPath("file")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            try await PTYSimulatorServer(device: VirtualDevice(), linkPath: file).start()
            XCTFail("expected a refusal")
        } catch {
            XCTAssertEqual(error.kind, .link)
            XCTAssertEqual(error.message, "\(file) exists and is not a symbolic link; refusing to replace it")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: file), Data("keep me".utf8))
    }

    func testWithoutALinkTheSlaveIsThePath() async throws {
        let server = PTYSimulatorServer(device: VirtualDevice())
        let path = try await server.start()
        XCTAssertTrue(path.hasPrefix("/dev/pts/"), path)
        do {
            try await server.start()
            XCTFail("expected alreadyStarted")
        } catch {
            XCTAssertEqual(error.kind, .alreadyStarted)
        }
        let transport = try await SerialTransport.open(path: path)
        let client = SMPClient(transport: transport)
        let answer = try await client.send(OSEcho("direct"))
        XCTAssertEqual(answer, "direct")
        await client.close()
        await server.stop()
    }

    func testTheHostMayCloseAndReopenTheLink() async throws {
        let server = PTYSimulatorServer(device: VirtualDevice(configuration: PTYLink.zephyrSerialDevice), linkPath: temporaryLinkPath())
        let path = try await server.start()
        for round in 1...3 {
            let transport = try await SerialTransport.open(path: path)
            let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
            let answer = try await client.send(OSEcho("round \(round)"))
            XCTAssertEqual(answer, "round \(round)")
            await client.close()
            try await Task.sleep(for: .milliseconds(30))  // the server sees the host go (EIO) and waits
        }
        let statistics = await server.statistics
        XCTAssertEqual(statistics.hostConnections, 3)
        XCTAssertEqual(statistics.responses, 3)
        await server.stop()
    }

    /// Hosts that hang up at once, with requests unread and answers on their way, on a free-running
    /// and on a paced line: the server (its master channel hangs up each time) keeps serving.
    /// Over SwiftNIO's pipe channel this tripped its hang-up precondition (readEOF0) now and then.
    func testHostsThatHangUpMidStreamNeverStopTheServer() async throws {
        for options in [PTYSimulatorOptions(lineBuffers: .zephyrUART), PTYSimulatorOptions(baudRate: 115_200)] {
            let server = PTYSimulatorServer(
                device: VirtualDevice(configuration: PTYLink.zephyrSerialDevice), linkPath: temporaryLinkPath(), options: options)
            let path = try await server.start()
            for round in 0..<40 {
                let port = try SerialPort.open(path: path)
                write(port, SerialFrameEncoder().encode(Self.echoRequest("gone \(round)")))
                if round % 2 == 1 { try await Task.sleep(for: .milliseconds(2)) }
                port.close()
            }
            let transport = try await SerialTransport.open(path: path)
            let client = SMPClient(transport: transport, configuration: SMPClientConfiguration(timeout: .seconds(2)))
            // The hung-up hosts' echoes all carry sequence 7; an answer to one of them still on its
            // way matches the client's first request if that too is number 7 (its first number is
            // random). The next request has another number, and only the server can answer it.
            var answer = try await client.send(OSEcho("still there"))
            if answer.hasPrefix("gone ") { answer = try await client.send(OSEcho("still there")) }
            XCTAssertEqual(answer, "still there")
            await client.close()
            await server.stop()
        }
    }

    func testWhatAClosedHostLeftUnreadIsDropped() async throws {
        let device = VirtualDevice(configuration: PTYLink.zephyrSerialDevice)
        // At 1200 baud the five echoes take over a second to arrive; the host leaves long before.
        let server = PTYSimulatorServer(device: device, linkPath: temporaryLinkPath(), options: PTYSimulatorOptions(baudRate: 1200))
        let path = try await server.start()
        let port = try SerialPort.open(path: path)
        for index in 0..<5 { write(port, SerialFrameEncoder().encode(Self.echoRequest("stale \(index)"))) }
        try await Task.sleep(for: .milliseconds(100))
        port.close()
        try await Task.sleep(for: .milliseconds(1500))
        let requests = await device.statistics.requests
        XCTAssertLessThanOrEqual(requests, 1, "at most the request already being read when the host left")
        await server.stop()
    }

    func testAnswersUseZephyrsLineSplit() async throws {
        let configuration = VirtualDeviceConfiguration(bufferSize: 1024)
        let server = PTYSimulatorServer(device: VirtualDevice(configuration: configuration), linkPath: temporaryLinkPath())
        let port = try SerialPort.open(path: try await server.start())
        defer { port.close() }
        let request = Self.echoRequest(String(repeating: "z", count: 300))
        write(port, SerialFrameEncoder().encode(request))
        let expected = await VirtualDevice(configuration: configuration).handle(frame: request)
        let lines = SerialFrameEncoder(style: .zephyrDevice).lines(for: try XCTUnwrap(expected.first))
        XCTAssertEqual(lines.count, 4, "93 + 90 + 90 bytes and the rest, as mcumgr_serial_tx_pkt sends them")
        let received = read(port, count: lines.joined().count)
        XCTAssertEqual(received, Array(lines.joined()))
        await server.stop()
    }

    func testALogLineSitsInsideAMultiLineAnswer() async throws {
        let server = PTYSimulatorServer(
            device: VirtualDevice(configuration: VirtualDeviceConfiguration(bufferSize: 1024)), linkPath: temporaryLinkPath(),
            options: PTYSimulatorOptions(logLinesInsideFrames: true))
        let port = try SerialPort.open(path: try await server.start())
        defer { port.close() }
        write(port, SerialFrameEncoder().encode(Self.echoRequest(String(repeating: "l", count: 200))))
        var received: [UInt8] = []
        while received.split(separator: 0x0A).count < 4 {
            let more = read(port, count: 1)
            if more.isEmpty { break }
            received += more
        }
        let lines = received.split(separator: 0x0A, omittingEmptySubsequences: false)
        XCTAssertEqual(Array(lines[0].prefix(2)), [0x06, 0x09])
        let logLine = String(decoding: lines[1], as: UTF8.self)
        XCTAssertTrue(logLine.hasPrefix("[00:00:"), logLine)
        XCTAssertTrue(logLine.contains("> "), logLine)
        XCTAssertEqual(Array(lines[2].prefix(2)), [0x04, 0x14])
        await server.stop()
    }

    func testRunStopsWhenCancelled() async throws {
        let link = temporaryLinkPath()
        let server = PTYSimulatorServer(device: VirtualDevice(), linkPath: link, options: PTYSimulatorOptions(logLinesPerSecond: 20))
        let running = Task { try await server.run() }
        await waitUntil { FileManager.default.fileExists(atPath: link) }
        running.cancel()
        try await running.value
        XCTAssertFalse(FileManager.default.fileExists(atPath: link))
    }

    // MARK: Helpers

    static func echoRequest(_ text: String) -> [UInt8] {
        let request = OSEcho(text).request
        return SMPMessage(
            header: SMPHeader(operation: request.operation, length: 0, group: request.group, sequence: 7, command: request.command),
            payload: request.payload
        ).encoded()
    }

    private func write(_ port: SerialPort, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(port.descriptor, $0.baseAddress, $0.count) }
    }

    /// Reads until `count` bytes arrived or nothing came for a second.
    private func read(_ port: SerialPort, count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < count {
            var descriptor = pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { break }
            let got = Glibc.read(port.descriptor, &buffer, buffer.count)
            if got <= 0 { break }
            received += buffer.prefix(got)
        }
        return received
    }
}
