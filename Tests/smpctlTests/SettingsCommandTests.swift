import SMP
import SMPSimulator
import XCTest

/// `smpctl settings …` against the virtual device over UDP (and once over the serial link).
final class SettingsCommandTests: XCTestCase {
    private func storage(_ device: VirtualDevice) async -> [String: [UInt8]] {
        (await device.group(.settings) as? SettingsGroup)?.storage.settings ?? [:]
    }

    func testReadShowsTextOrHexByDefault() async throws {
        let served = try await startDevice()
        let name = try await SMPCtl.run(["settings", "read", "bt/name", "-c", served.endpoint])
        assertSuccess(name)
        XCTAssertEqual(name.stdout, "Zephyr\n")
        let count = try await SMPCtl.run(["settings", "read", "app/boot_count", "-c", served.endpoint])
        assertSuccess(count)
        XCTAssertEqual(count.stdout, "01000000\n")
        let typed = try await SMPCtl.run(["settings", "read", "app/boot_count", "--as", "u32", "-c", served.endpoint])
        assertSuccess(typed)
        XCTAssertEqual(typed.stdout, "1\n")
        let wrongWidth = try await SMPCtl.run(["settings", "read", "app/boot_count", "--as", "u16", "-c", served.endpoint])
        assertExit(wrongWidth, 65)
        assertStderr(wrongWidth, contains: "cannot be read as u16: it needs 2 bytes")
    }

    func testReadJSONGivesHexAndInterpretations() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["settings", "read", "app/boot_count", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document.keys, ["deviceMaxSize", "hex", "integers", "name", "schemaVersion", "size", "string"])
        XCTAssertEqual(document["hex"]?.string, "01000000")
        XCTAssertEqual(document["size"]?.int, 4)
        XCTAssertEqual(document["integers"]?.keys, ["i32", "u32"])
        XCTAssertEqual(document["integers"]?["u32"]?.string, "1")
        XCTAssertEqual(document["string"]?.isNull, true)
        XCTAssertEqual(document["deviceMaxSize"]?.isNull, true)
    }

    func testReadWithMaxSize() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.settings = SimulatedSettingsConfiguration(valueLimit: 4)
        let served = try await startDevice(configuration)
        let short = try await SMPCtl.run(["settings", "read", "bt/name", "--max-size", "3", "-c", served.endpoint])
        assertSuccess(short)
        XCTAssertEqual(short.stdout, "Zep\n")
        let capped = try await SMPCtl.run(["settings", "read", "bt/name", "--max-size", "50", "-c", served.endpoint])
        assertExit(capped, 0)
        XCTAssertEqual(capped.stdout, "Zeph\n")
        assertStderr(capped, contains: "at most 4 bytes")
        let json = try await SMPCtl.run(["settings", "read", "bt/name", "--max-size", "50", "-c", served.endpoint, "--json"])
        XCTAssertEqual(try json.jsonDocument()["deviceMaxSize"]?.int, 4)
    }

    func testWriteEveryEncodingThenSaveSurvivesAReset() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.resetDelay = .zero
        let served = try await startDevice(configuration)
        for (value, type, hex) in [("Kit", "string", "4b6974"), ("01:ab", "hex", "01ab"), ("-2", "i16", "feff"), ("70000", "u32", "70110100")] {
            let run = try await SMPCtl.run(["settings", "write", "app/v_\(type)", "--as", type, "-c", served.endpoint, "--json", "--", value])
            assertSuccess(run)
            XCTAssertEqual(try run.jsonDocument()["hex"]?.string, hex)
        }
        let back = try await SMPCtl.run(["settings", "read", "app/v_i16", "--as", "i16", "-c", served.endpoint])
        XCTAssertEqual(back.stdout, "-2\n")
        assertSuccess(try await SMPCtl.run(["settings", "commit", "-c", served.endpoint]))
        let save = try await SMPCtl.run(["settings", "save", "app", "-c", served.endpoint, "--json"])
        assertSuccess(save)
        XCTAssertEqual(try save.jsonDocument()["subtree"]?.string, "app")
        let saved = await storage(served.device)
        XCTAssertEqual(saved["app/v_u32"], [0x70, 0x11, 0x01, 0x00])
        assertExit(try await SMPCtl.run(["os", "reset", "-c", served.endpoint]), 0)
        let afterReset = try await SMPCtl.run(["settings", "read", "app/v_string", "-c", served.endpoint])
        XCTAssertEqual(afterReset.stdout, "Kit\n")
    }

    func testWriteRejectsValuesThatDoNotFitBeforeSending() async throws {
        let served = try await startDevice()
        let run = try await SMPCtl.run(["settings", "write", "app/x", "256", "--as", "u8", "-c", served.endpoint])
        assertExit(run, 65)
        assertStderr(run, contains: "256 does not fit in u8 (0…255)")
        let hex = try await SMPCtl.run(["settings", "write", "app/x", "0g", "--as", "hex", "-c", served.endpoint, "--json"])
        try assertErrorDocument(hex, name: "data-error", code: 65, messageContains: ["not hex bytes"])
        let requests = await served.requests
        XCTAssertEqual(requests, 0)
    }

    func testDeleteLoadAndErrors() async throws {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.resetDelay = .zero
        let served = try await startDevice(configuration)
        assertSuccess(try await SMPCtl.run(["settings", "write", "app/greeting", "hi", "--as", "string", "-c", served.endpoint]))
        assertSuccess(try await SMPCtl.run(["settings", "load", "-c", served.endpoint]))
        let reloaded = try await SMPCtl.run(["settings", "read", "app/greeting", "-c", served.endpoint])
        XCTAssertEqual(reloaded.stdout, "hello\n")
        assertSuccess(try await SMPCtl.run(["settings", "delete", "app/greeting", "-c", served.endpoint]))
        assertExit(try await SMPCtl.run(["os", "reset", "-c", served.endpoint]), 0)
        let missing = try await SMPCtl.run(["settings", "read", "app/greeting", "-c", served.endpoint, "--json"])
        try assertErrorDocument(missing, name: "device-error", code: 2, messageContains: ["SETTINGS_MGMT_ERR_KEY_NOT_FOUND"])
        let root = try await SMPCtl.run(["settings", "read", "nope/x", "-c", served.endpoint])
        assertExit(root, 2)
        assertStderr(root, contains: "ROOT_KEY_NOT_FOUND", "first component")
        let readOnly = try await SMPCtl.run(["settings", "write", "app/serial", "x", "--as", "string", "-c", served.endpoint])
        assertExit(readOnly, 2)
        assertStderr(readOnly, contains: "WRITE_NOT_SUPPORTED")
        let long = try await SMPCtl.run(["settings", "delete", "app/" + String(repeating: "k", count: 40), "-c", served.endpoint])
        assertStderr(long, contains: "KEY_TOO_LONG")
    }

    func testReadOverTheSerialLink() async throws {
        let served = try await startSerialDevice()
        let run = try await SMPCtl.run(["settings", "read", "bt/name", "-c", served.connection])
        assertSuccess(run)
        XCTAssertEqual(run.stdout, "Zephyr\n")
    }
}
