import Foundation
import NordicDFU
import SMP
import XCTest

final class SecureDFUSerialTransportTests: XCTestCase {
    func testOpeningPingsAndReadsTheMTU() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: 100)
        let transport = try await SecureDFUSerialTransport.open(path: bench.path, logger: quiet)
        XCTAssertEqual(transport.mtu, 131)
        XCTAssertEqual(transport.maximumWriteSize, 64)
        let version = try await transport.request(.protocolVersion)
        XCTAssertEqual(version.payload, [1])
        await transport.close()
        let requests = await bench.server.target.statistics.requests
        await bench.stop()
        XCTAssertEqual(requests[.ping], 1)
        XCTAssertEqual(requests[.mtu], 1)
    }

    func testPingCanBeSkipped() async throws {
        let bench = try await SecureDFUPTYBench.start(firmwareSize: 100)
        let transport = try await SecureDFUSerialTransport.open(
            path: bench.path, options: SecureDFUSerialTransport.Options(ping: false), logger: quiet)
        await transport.close()
        let requests = await bench.server.target.statistics.requests
        await bench.stop()
        XCTAssertNil(requests[.ping])
        XCTAssertEqual(requests[.mtu], 1)
    }

    func testASilentDeviceFailsThePingWithAHint() async throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        XCTAssertEqual(openpty(&master, &slave, &name, nil, nil), 0)
        defer {
            close(master)
            close(slave)
        }
        let path = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            _ = try await SecureDFUSerialTransport.open(
                path: path, options: SecureDFUSerialTransport.Options(pingTimeout: .milliseconds(600)), logger: quiet)
            XCTFail("nothing answers")
        } catch let error as SecureDFUError {
            XCTAssertEqual(error.kind, .noResponse)
            XCTAssertTrue(error.message.contains("no answer to ping"), error.message)
            XCTAssertTrue(error.hint?.contains("bootloader") == true)
        }
    }

    func testAMissingPortSaysSo() async throws {
        do {
            _ = try await SecureDFUSerialTransport.open(path: "/dev/smpctl-no-such-port", logger: quiet)
            XCTFail("no such port")
        } catch let error as SMPTransportError {
            XCTAssertEqual(error.kind, .notFound)
        }
    }
}
