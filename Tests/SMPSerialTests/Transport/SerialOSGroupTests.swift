import SMP
import SMPSerial
import SMPSimulator
import XCTest

/// Every OS command through SMPClient → SerialTransport → pseudo-terminal → virtual device.
final class SerialOSGroupTests: XCTestCase {
    func testEcho() async throws {
        let link = try await PTYLink.start()
        let answer = try await link.client.send(OSEcho("hello over a serial line"))
        XCTAssertEqual(answer, "hello over a serial line")
        await link.stop()
    }

    func testTaskStatisticsSpanSeveralLines() async throws {
        // Zephyr's default threads do not fit a 384-byte buffer (rc 7, as on a real device), so
        // this device has a larger one; the answer then spans several lines.
        let link = try await PTYLink.start(configuration: VirtualDeviceConfiguration(bufferSize: 1024))
        let tasks = try await link.client.send(OSTaskStatistics())
        XCTAssertEqual(tasks.count, SimulatedTask.zephyrDefaults.count)
        let received = link.transport.statistics.framing
        XCTAssertEqual(received.packets, 1)
        XCTAssertGreaterThan(received.lineBytes, 2 * SerialFrameEncoder.defaultLineLength, "more than two lines")
        await link.stop()
    }

    func testTaskStatisticsTooLargeForTheDefaultBuffer() async throws {
        let link = try await PTYLink.start()
        do {
            _ = try await link.client.send(OSTaskStatistics())
            XCTFail("expected MGMT_ERR_EMSGSIZE")
        } catch {
            XCTAssertTrue("\(error)".contains("MGMT_ERR_EMSGSIZE"), "\(error)")
        }
        await link.stop()
    }

    func testParametersAreTheDevicesAndSizeTheRequests() async throws {
        let link = try await PTYLink.start()
        let parameters = try await link.client.send(OSParameters())
        XCTAssertEqual(parameters.bufferSize, 384)
        XCTAssertEqual(parameters.bufferCount, 4)
        let size = await link.client.maximumMessageSize()
        XCTAssertEqual(size, 380, "buf_size 384 less length and CRC")
        XCTAssertEqual(link.transport.defaultParameters, MCUmgrParameters(bufferSize: 384, bufferCount: 4))
        await link.stop()
    }

    func testApplicationInfo() async throws {
        let link = try await PTYLink.start()
        let info = try await link.client.send(OSApplicationInfo(format: "a"))
        XCTAssertTrue(info.hasPrefix("Zephyr "), info)
        await link.stop()
    }

    func testBootloaderInfo() async throws {
        let link = try await PTYLink.start()
        let name = try await link.client.send(OSBootloaderName())
        XCTAssertEqual(name, "MCUboot")
        let mode = try await link.client.send(OSBootloaderMode())
        XCTAssertEqual(mode.mode, .swapUsingMove)
        await link.stop()
    }

    func testDateTimeWriteThenRead() async throws {
        let link = try await PTYLink.start()
        let time = try XCTUnwrap(SMPDateTime(iso8601: "2031-05-06T07:08:09"))
        try await link.client.send(OSDateTimeWrite(time))
        let read = try await link.client.send(OSDateTimeRead())
        XCTAssertEqual(read.description.prefix(16), "2031-05-06T07:08")
        await link.stop()
    }

    func testReset() async throws {
        let link = try await PTYLink.start()
        try await link.client.send(OSReset())
        let count = await link.device.resetCount
        XCTAssertEqual(count, 1)
        await link.stop()
    }
}
