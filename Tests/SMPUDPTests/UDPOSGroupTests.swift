import SMP
import SMPSimulator
import SMPUDP
import XCTest

/// Every OS command through `SMPClient` over `UDPTransport` against the virtual device.
final class UDPOSGroupTests: XCTestCase {
    func testEveryOSCommandOverIPv4() async throws {
        try await exerciseOSGroup(host: "127.0.0.1")
    }

    func testEveryOSCommandOverIPv6() async throws {
        try await requireIPv6Loopback()
        try await exerciseOSGroup(host: "::1")
    }

    private func exerciseOSGroup(host: String) async throws {
        let link = try await SimulatorLink.start(host: host)
        do {
            try await checkOSGroup(link)
        } catch {
            XCTFail("\(host): \(error)")
        }
        await link.stop()
    }

    private func checkOSGroup(_ link: SimulatorLink) async throws {
        let client = link.client
        let echo = try await client.send(OSEcho("hello over udp"))
        XCTAssertEqual(echo, "hello over udp")

        let consoleEcho = await deviceError(client, OSConsoleEcho(enabled: false))
        XCTAssertEqual(consoleEcho, .returnCode(.notSupported, group: 0, reason: nil))
        let pools = await deviceError(client, OSMemoryPoolStatistics())
        XCTAssertEqual(pools, .returnCode(.notSupported, group: 0, reason: nil))

        let tasks = try await client.send(OSTaskStatistics())
        XCTAssertEqual(tasks.map(\.name), SimulatedTask.zephyrDefaults.map(\.name))
        XCTAssertEqual(tasks.first?.stackSize, 256)

        let unset = await deviceError(client, OSDateTimeRead())
        XCTAssertEqual(unset, .groupError(SMPGroupError(group: 0, code: 4, requestGroup: 0)))
        let time = SMPDateTime(year: 2025, month: 7, day: 14, hour: 8, minute: 30, second: 5, millisecond: 250)
        try await client.send(OSDateTimeWrite(time))
        let read = try await client.send(OSDateTimeRead())
        XCTAssertEqual(read.year, 2025)
        XCTAssertEqual(read.month, 7)
        XCTAssertEqual(read.day, 14)
        XCTAssertEqual(read.hour, 8)

        let parameters = await client.parameters()
        XCTAssertEqual(parameters, MCUmgrParameters(bufferSize: 2048, bufferCount: 4))

        let info = try await client.send(OSApplicationInfo(format: "a"))
        XCTAssertEqual(info, "Zephyr zephyr v4.1.0 4.1.0 2025-03-07T09:30:00 arm cortex-m33 virtual_smp_device Zephyr")
        let badFormat = await deviceError(client, OSApplicationInfo(format: "z"))
        XCTAssertEqual(badFormat, .groupError(SMPGroupError(group: 0, code: 2, requestGroup: 0)))

        let bootloader = try await client.send(OSBootloaderName())
        XCTAssertEqual(bootloader, "MCUboot")
        let mode = try await client.send(OSBootloaderMode())
        XCTAssertEqual(mode.mode, .swapUsingMove)
        XCTAssertFalse(mode.noDowngrade)
        let query = await deviceError(client, OSBootloaderInfo(query: "nope"))
        XCTAssertEqual(query, .groupError(SMPGroupError(group: 0, code: 3, requestGroup: 0)))

        try await client.send(OSReset(force: true, bootMode: 1))
        var resets = link.device.resets.makeAsyncIterator()
        let reset = await resets.next()
        XCTAssertEqual(reset?.bootMode, 1)
        XCTAssertEqual(reset?.force, true)

        let version = await client.protocolVersion
        XCTAssertEqual(version, .v2)
        let statistics = await client.statistics
        XCTAssertEqual(statistics.totalDiscarded, 0)
        XCTAssertEqual(statistics.retransmissions, 0)
    }

    func testLegacyDeviceMakesTheClientFallBackToVersionOne() async throws {
        let link = try await SimulatorLink.start(configuration: VirtualDeviceConfiguration(flavour: .legacy))
        let before = await link.client.protocolVersion
        XCTAssertEqual(before, .v2)
        let echo = try await link.client.send(OSEcho("legacy"))
        XCTAssertEqual(echo, "legacy")
        let after = await link.client.protocolVersion
        XCTAssertEqual(after, .v1)
        let unset = await deviceError(link.client, OSDateTimeRead())
        XCTAssertEqual(unset, .returnCode(.noEntry, group: 0, reason: nil))
        let info = try await link.client.send(OSApplicationInfo())
        XCTAssertEqual(info, "Zephyr")
        await link.stop()
    }

    func testManyConcurrentEchoesAreAllMatched() async throws {
        let link = try await SimulatorLink.start(client: SMPClientConfiguration(timeout: .seconds(5)))
        let client = link.client
        let results = await withTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<500 {
                group.addTask { (index, try? await client.send(OSEcho("echo number \(index)"))) }
            }
            var results = [String?](repeating: nil, count: 500)
            for await (index, text) in group { results[index] = text }
            return results
        }
        for (index, text) in results.enumerated() {
            XCTAssertEqual(text, "echo number \(index)")
        }
        let statistics = await client.statistics
        XCTAssertEqual(statistics.responses, 500)
        XCTAssertEqual(statistics.totalDiscarded, 0)
        await link.stop()
    }
}

/// The device error a command is answered with, or nil (recording a failure) for anything else.
func deviceError<Command: SMPCommand>(
    _ client: SMPClient, _ command: Command, file: StaticString = #filePath, line: UInt = #line
) async -> SMPDeviceError? {
    do throws(SMPError) {
        _ = try await client.send(command)
        XCTFail("expected a device error", file: file, line: line)
    } catch {
        if case .device(let deviceError, _) = error { return deviceError }
        XCTFail("expected a device error, got \(error)", file: file, line: line)
    }
    return nil
}
