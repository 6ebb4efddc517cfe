import Foundation
import XCTest

/// `simulate --count N` and `--device-fault`: many devices in one process, each its own.
extension SimulateCommandTests {
    func testCountServesEachDeviceOnItsOwnUDPPortWithItsOwnNameAndJSONListsThem() async throws {
        let simulator = try BackgroundProcess(smpctl: [
            "simulate", "--udp", "127.0.0.1:0", "--count", "3", "--device-fault", "3:reject-image", "--device-fault", "2:slow=1", "--json",
        ])
        addTeardownBlock { simulator.stop() }
        let announced = await simulator.waitForLine { $0.hasPrefix("{") }
        let line = try XCTUnwrap(announced, simulator.stderr)
        let document = try SMPCtlRun(arguments: [], status: 0, stdout: line + "\n", stderr: "", seconds: 0, timedOut: false).jsonDocument()
        XCTAssertEqual(document.keys, ["devices", "listening", "port", "schemaVersion"])
        let devices = try XCTUnwrap(document["devices"]?.array)
        XCTAssertEqual(devices.compactMap { $0["index"]?.int }, [1, 2, 3])
        XCTAssertEqual(devices.compactMap { $0["name"]?.string }, ["sim-1", "sim-2", "sim-3"])
        let connections = devices.compactMap { $0["connection"]?.string }
        XCTAssertEqual(Set(connections).count, 3, "\(connections)")
        XCTAssertEqual(document["listening"]?.string, connections.first, "the first device keeps the old keys")
        XCTAssertEqual(document["port"]?.int, devices.first?["port"]?.int)
        XCTAssertEqual(devices.map { $0["faults"]?.array?.compactMap(\.string) }, [nil, ["slow=1"], ["reject-image"]])
        for (index, connection) in connections.enumerated() {
            let info = try await SMPCtl.run(["os", "info", "-c", connection])
            assertSuccess(info)
            XCTAssertTrue(info.stdout.contains(" sim-\(index + 1) "), info.stdout)
        }
    }

    func testCountMakesASerialLinkPerDeviceNextToTheUDPPorts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-simcount-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("tty").path
        let simulator = try BackgroundProcess(smpctl: [
            "simulate", "--udp", "127.0.0.1:0", "--serial-link", link, "--count", "2", "--device-fault", "1:no-return",
        ])
        addTeardownBlock { simulator.stop() }
        let suggestion = await simulator.waitForLine { $0.hasPrefix("try: smpctl -c udp:127.0.0.1:") }
        XCTAssertNotNil(suggestion, simulator.stderr)
        let lines = simulator.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("2 virtual SMP devices listening (zephyr, buf_size 2048, buf_count 4, faults on):") == true, simulator.stdout)
        for index in 1...2 {
            let line = try XCTUnwrap(lines.first { $0.hasPrefix("  sim-\(index)  udp:127.0.0.1:") }, simulator.stdout)
            XCTAssertTrue(line.contains(" and serial:\(link)-\(index) (\(link)-\(index) → /dev/pts/"), line)
            XCTAssertEqual(line.hasSuffix("  faults: no-return"), index == 1, line)
            let info = try await SMPCtl.run(["os", "info", "-c", "serial:\(link)-\(index)"])
            assertSuccess(info)
            XCTAssertTrue(info.stdout.contains(" sim-\(index) "), info.stdout)
        }
        XCTAssertTrue(lines.contains("serial links: unpaced"), simulator.stdout)
    }

    func testBadCountsAndDeviceFaultsAreUsageErrors() async throws {
        let cases: [([String], String)] = [
            (["--count", "0"], "--count takes a whole number of devices from 1 to 1000, not 0"),
            (["--count", "1001"], "--count takes a whole number of devices from 1 to 1000, not 1001"),
            (["--count", "3", "--device-fault", "4:slow"], "--device-fault 4:slow: there is no device 4; the devices are numbered 1 to 3"),
            (["--device-fault", "2:slow"], "there is no device 2; the devices are numbered 1 to 1 (give --count N for more)"),
            (["--count", "2", "--device-fault", "slow"], "--device-fault slow: write INDEX:KIND[=VALUE]"),
            (["--count", "2", "--device-fault", "1:slow=fast"], "slow=fast: the delay must be whole milliseconds from 0 to 60000"),
            (["--count", "2", "--device-fault", "1:die-mid-upload=2"], "die-mid-upload=2: the fraction must be a number from 0 to 1"),
            (["--count", "2", "--device-fault", "1:no-return=1"], "no-return takes no value"),
            (["--count", "2", "--device-fault", "1:melt"], "unknown fault kind 'melt'; use one of die-mid-upload, slow, reject-image, no-return"),
            (["--udp", "127.0.0.1:65535", "--count", "2"], "the ports would end above 65535"),
        ]
        for (options, message) in cases {
            let run = try await SMPCtl.run(["simulate"] + options, timeout: 10)
            assertExit(run, 64)
            assertStderr(run, contains: message)
            XCTAssertEqual(run.stdout, "", "\(options)")
        }
    }
}
