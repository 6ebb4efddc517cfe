import Foundation
import SMPSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The real `smpctl simulate` process: the address it prints, its options, and a clean Ctrl-C.
final class SimulateCommandTests: XCTestCase {
    func testServesADeviceAndStopsCleanlyOnControlC() async throws {
        let (simulator, endpoint) = try await startSimulateProcess()
        let announcement = simulator.stdout
        XCTAssertTrue(
            announcement.hasPrefix("virtual SMP device listening on \(endpoint) (zephyr, buf_size 2048, buf_count 4)\n"), announcement)

        let echo = try await SMPCtl.run(["os", "echo", "through a real simulator", "-c", endpoint])
        assertSuccess(echo)
        XCTAssertEqual(echo.stdout, "through a real simulator\n")
        let info = try await SMPCtl.run(["os", "info", "-c", endpoint, "--json"])
        assertSuccess(info)
        XCTAssertEqual(try info.jsonDocument()["output"]?.string?.hasPrefix("Zephyr "), true)

        simulator.send(SIGINT)
        let status = await simulator.waitForExit(timeout: 5)
        XCTAssertEqual(status, 0, "Ctrl-C ends simulate with exit 0\nstderr: \(simulator.stderr)")
        XCTAssertFalse(simulator.wasKilledBySignal)
        XCTAssertEqual(simulator.stdout, announcement, "nothing more on standard output")
    }

    func testTheSuggestedCommandWorksAsPrinted() async throws {
        let (simulator, endpoint) = try await startSimulateProcess()
        let suggestion = try XCTUnwrap(
            simulator.stdout.split(separator: "\n").first(where: { $0.hasPrefix("try: smpctl ") }), simulator.stdout)
        let arguments = suggestion.dropFirst("try: smpctl ".count).split(separator: " ").map(String.init)
        XCTAssertTrue(arguments.contains(endpoint), suggestion.description)
        let run = try await SMPCtl.run(arguments)
        assertSuccess(run)
        XCTAssertTrue(run.stdout.hasPrefix("Zephyr "), run.description)
    }

    func testJSONAnnouncementIsOneDocument() async throws {
        let (simulator, endpoint) = try await startSimulateProcess(["--json"])
        let line = simulator.stdout
        let document = try SMPCtlRun(arguments: [], status: 0, stdout: line, stderr: "", seconds: 0, timedOut: false).jsonDocument()
        XCTAssertEqual(document.keys, ["listening", "port", "schemaVersion"])
        XCTAssertEqual(document["listening"]?.string, endpoint)
        let port = try XCTUnwrap(document["port"]?.int)
        XCTAssertEqual("udp:127.0.0.1:\(port)", endpoint)

        let params = try await SMPCtl.run(["os", "params", "-c", endpoint])
        assertSuccess(params)

        simulator.send(SIGINT)
        let status = await simulator.waitForExit(timeout: 5)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(simulator.stdout, line, "still exactly one document after it stopped")
    }

    func testSIGTERMStopsItCleanlyToo() async throws {
        let (simulator, _) = try await startSimulateProcess()
        simulator.send(SIGTERM)
        let status = await simulator.waitForExit(timeout: 5)
        XCTAssertEqual(status, 0)
    }

    func testDeviceOptionsReachTheDevice() async throws {
        let (_, endpoint) = try await startSimulateProcess([
            "--buf-size", "512", "--buf-count", "2", "--bootloader-mode", "direct-xip", "--no-downgrade",
            "--rtc", "2030-01-02T03:04:05Z", "--refuse-reset", "--flavour", "legacy",
        ])
        let params = try await SMPCtl.run(["os", "params", "-c", endpoint, "--json"])
        assertSuccess(params)
        let parameters = try params.jsonDocument()
        XCTAssertEqual(parameters["bufferSize"]?.int, 512)
        XCTAssertEqual(parameters["bufferCount"]?.int, 2)

        let bootloader = try await SMPCtl.run(["os", "bootloader", "-c", endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(bootloader["mode"]?.string, "direct-xip")
        XCTAssertEqual(bootloader["noDowngrade"]?.bool, true)

        let datetime = try await SMPCtl.run(["os", "datetime", "-c", endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(datetime["datetime"]?.string?.hasPrefix("2030-01-02T03:04:0"), true, "\(datetime)")

        let reset = try await SMPCtl.run(["os", "reset", "-c", endpoint])
        assertExit(reset, 2)
        assertStderr(reset, contains: "MGMT_ERR_EBUSY")
        let forced = try await SMPCtl.run(["os", "reset", "--force", "-c", endpoint])
        assertSuccess(forced)

        let raw = try await SMPCtl.run(["raw", "--group", "os", "--command", "0", "--op", "read", "--json", "-c", endpoint])
        assertSuccess(raw)
        XCTAssertEqual(try raw.jsonDocument()["version"]?.int, 0, "the legacy flavour answers SMP v1")
    }

    func testAnUnsetClock() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--rtc", "unset"])
        let run = try await SMPCtl.run(["os", "datetime", "-c", endpoint])
        assertExit(run, 2)
        assertStderr(run, contains: "OS_MGMT_ERR_RTC_NOT_SET")
    }

    func testMynewtPresetAnswersMemoryPoolsAndLegacySMP() async throws {
        let (simulator, endpoint) = try await startSimulateProcess(["--mynewt"])
        XCTAssertTrue(simulator.stdout.contains("(mynewt-like,"), simulator.stdout)
        let pools = try await SMPCtl.run(["os", "mpstat", "-c", endpoint, "--json"])
        assertSuccess(pools)
        XCTAssertFalse(try XCTUnwrap(try pools.jsonDocument()["pools"]?.array).isEmpty)
        let raw = try await SMPCtl.run(["raw", "--group", "os", "--command", "0", "--op", "write", "--payload-json", "{\"d\":\"v1\"}", "--json", "-c", endpoint])
        assertSuccess(raw)
        XCTAssertEqual(try raw.jsonDocument()["version"]?.int, 0, "a Mynewt device answers with SMP v1 headers")
    }

    func testImagesAreServedByDefaultAndCanBeTurnedOff() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--images", "2"])
        let list = try await SMPCtl.run(["image", "list", "-c", endpoint, "--json"])
        assertSuccess(list)
        let images = try XCTUnwrap(try list.jsonDocument()["images"]?.array)
        XCTAssertEqual(images.count, 2, "one confirmed primary image per image number")
        let (_, without) = try await startSimulateProcess(["--images", "0"])
        let none = try await SMPCtl.run(["image", "list", "-c", without])
        assertExit(none, 2)
        assertStderr(none, contains: "MGMT_ERR_ENOTSUP")
        let invalid = try await SMPCtl.run(["simulate", "--images", "4"])
        assertExit(invalid, 64)
    }

    func testFaultInjectionIsAnnounced() async throws {
        let (simulator, endpoint) = try await startSimulateProcess(["--drop", "0.5", "--seed", "7"])
        XCTAssertTrue(simulator.stdout.contains(", faults on)"), simulator.stdout)
        // Every lost answer is retried, so a harmless request still succeeds.
        let run = try await SMPCtl.run(["os", "params", "-c", endpoint, "--timeout", "0.2", "--retries", "10"])
        assertSuccess(run)
    }

    func testVerboseLogsRequestsOnStandardError() async throws {
        let (simulator, endpoint) = try await startSimulateProcess(["-v"])
        let run = try await SMPCtl.run(["os", "echo", "logged", "-c", endpoint])
        assertSuccess(run)
        simulator.send(SIGINT)
        let status = await simulator.waitForExit(timeout: 5)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(simulator.stderr.contains("request 0/0"), simulator.stderr)
        XCTAssertTrue(simulator.stderr.contains("stopped after"), simulator.stderr)
        XCTAssertFalse(simulator.stdout.contains("request 0/0"), "logs stay off standard output")
    }

    func testAPortInUseIsATransportError() async throws {
        let served = try await startDevice()
        let port = try XCTUnwrap(Self.endpoint(in: served.endpoint)?.split(separator: ":").last.map(String.init))
        let human = try await SMPCtl.run(["simulate", "--udp", "127.0.0.1:\(port)"], timeout: 10)
        assertExit(human, 69)
        assertStderr(human, contains: "already in use", "hint: ")
        let json = try await SMPCtl.run(["simulate", "--udp", "127.0.0.1:\(port)", "--json"], timeout: 10)
        try assertErrorDocument(json, name: "transport-error", code: 69, messageContains: ["already in use"])
    }

    func testInvalidOptionsAreUsageErrors() async throws {
        let cases: [[String]] = [
            ["--udp", "127.0.0.1:70000"], ["--udp", ":1337"], ["--udp", "[::1"], ["--buf-size", "10"], ["--buf-count", "0"],
            ["--bootloader-mode", "sideways"], ["--rtc", "yesterday"], ["--flavour", "mynewt"], ["--drop", "1.5"],
            ["--delay-ms", "-5"], ["--reset-delay", "-1"], ["--boot-time", "600001"], ["--erase-speed", "0"],
            ["--write-speed", "-2"], ["--write-speed", "nan"], ["--flash-base", "0xZZ"], ["--flash-base", "0x100000000"],
        ]
        for options in cases {
            let run = try await SMPCtl.run(["simulate"] + options, timeout: 10)
            assertExit(run, 64)
            XCTAssertEqual(run.stdout, "", "\(options)")
        }
        let speed = try await SMPCtl.run(["simulate", "--erase-speed", "0"], timeout: 10)
        assertStderr(speed, contains: "--erase-speed takes a speed in KiB per second greater than 0, not 0")
        let base = try await SMPCtl.run(["simulate", "--flash-base", "ten"], timeout: 10)
        assertStderr(base, contains: "--flash-base ten is not an address", "0x10000")
    }

    func testTheDeviceIsSilentForTheBootTimeAfterAReset() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--reset-delay", "0", "--boot-time", "3000"])
        assertSuccess(try await SMPCtl.run(["os", "reset", "-c", endpoint]))
        let silent = try await SMPCtl.run(["os", "echo", "booting?", "-c", endpoint, "--timeout", "0.3", "--retries", "0"])
        assertExit(silent, 75)
        let back = try await SMPCtl.run(["os", "echo", "back", "-c", endpoint, "--timeout", "1", "--retries", "10"])
        assertSuccess(back)
        XCTAssertEqual(back.stdout, "back\n")
    }

    func testFlashSpeedsDelayTheAnswers() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--slot-size", "131072", "--erase-speed", "64"])
        let erase = try await SMPCtl.run(["image", "erase", "--yes", "-c", endpoint])
        assertSuccess(erase)
        // A lower bound the device sets (128 KiB at 64 KiB/s): a slower machine only answers later.
        XCTAssertGreaterThanOrEqual(erase.seconds, 1.9, "the answer waits for the slot erase")
    }

    func testDirectXIPUploadsToTheSlotAtTheFlashBase() async throws {
        let (_, endpoint) = try await startSimulateProcess([
            "--bootloader-mode", "direct-xip", "--slot-size", "65536", "--flash-base", "0x20000", "--reset-delay", "0",
        ])
        func image(loadAddress: UInt32) throws -> String {
            let bytes = SimulatedImageHeader.soundImageFile(
                version: (2, 0, 0, 0), body: [UInt8](repeating: 7, count: 1000), flags: SimulatedImageHeader.romFixedFlag,
                loadAddress: loadAddress)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-xip-\(UUID().uuidString).bin")
            try Data(bytes).write(to: url)
            addTeardownBlock { try? FileManager.default.removeItem(at: url) }
            return url.path
        }
        let wrongSlot = try await SMPCtl.run(["image", "upload", try image(loadAddress: 0x20000), "-c", endpoint])
        assertExit(wrongSlot, 2)
        assertStderr(wrongSlot, contains: "INVALID_FLASH_ADDRESS")
        assertExit(try await SMPCtl.run(["image", "upload", try image(loadAddress: 0x30000), "-c", endpoint]), 0)
        assertSuccess(try await SMPCtl.run(["os", "reset", "-c", endpoint]))
        let list = try await SMPCtl.run(["image", "list", "-c", endpoint, "--json"])
        assertSuccess(list)
        let active = try XCTUnwrap(try list.jsonDocument()["images"]?.array).first { $0["active"]?.bool == true }
        XCTAssertEqual(active?["slot"]?.int, 1, list.stdout)
        XCTAssertEqual(active?["version"]?.string, "2.0.0", list.stdout)
    }
}
