import CBOR
import SMP
import SMPSimulator
import XCTest

/// The virtual device's settings group (docs/protocol/groups.md §6): RAM and storage layers, limits and errors, both flavours.
final class SettingsGroupTests: XCTestCase {
    private func read(_ name: String, maxSize: UInt64? = nil, on device: VirtualDevice) async throws -> CBORMap {
        var payload: CBORMap = ["name": .text(name)]
        if let maxSize { payload["max_size"] = .unsigned(maxSize) }
        return try await device.respond(to: TestFrames.request(.read, group: .settings, command: 0, payload: payload)).payload
    }

    private func send(
        _ operation: SMPOperation, command: UInt8, _ payload: CBORMap = [:], on device: VirtualDevice, versionBits: UInt8 = 1
    ) async throws -> CBORMap {
        let frame = TestFrames.request(operation, group: .settings, command: command, versionBits: versionBits, payload: payload)
        return try await device.respond(to: frame).payload
    }

    private func settings(_ device: VirtualDevice) async throws -> SettingsGroup {
        let group = await device.group(.settings)
        return try XCTUnwrap(group as? SettingsGroup)
    }

    func testReadsTheSavedDefaults() async throws {
        let device = VirtualDevice()
        let name = try await read("bt/name", on: device)
        XCTAssertEqual(name, ["val": .bytes(Array("Zephyr".utf8))])
        let count = try await read("app/boot_count", on: device)
        XCTAssertEqual(count, ["val": .bytes([1, 0, 0, 0])])
    }

    func testWriteCommitSaveAndReset() async throws {
        let uptime = ManualUptime()
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(resetDelay: .zero), uptime: uptime.source)
        let written = try await send(.write, command: 0, ["name": "bt/name", "val": .bytes(Array("Kit".utf8))], on: device)
        XCTAssertEqual(written, [:])
        let pending = try await settings(device).pending
        XCTAssertEqual(pending, ["bt/name"])
        _ = try await send(.write, command: 2, on: device)
        let committed = try await settings(device)
        XCTAssertEqual(committed.pending, [])
        XCTAssertEqual(committed.commitCount, 1)
        let unsaved = try await read("bt/name", on: device)
        XCTAssertEqual(unsaved["val"], .bytes(Array("Kit".utf8)))

        // A reset loses what was not saved.
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
        let afterReset = try await read("bt/name", on: device)
        XCTAssertEqual(afterReset["val"], .bytes(Array("Zephyr".utf8)))

        // Saved values survive.
        _ = try await send(.write, command: 0, ["name": "bt/name", "val": .bytes(Array("Kit".utf8))], on: device)
        _ = try await send(.write, command: 3, on: device)
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
        let saved = try await read("bt/name", on: device)
        XCTAssertEqual(saved["val"], .bytes(Array("Kit".utf8)))
        let storage = try await settings(device).storage.settings
        XCTAssertEqual(storage["bt/name"], Array("Kit".utf8))
    }

    func testSaveOfASubtreeKeepsTheRestUnsaved() async throws {
        let device = VirtualDevice()
        _ = try await send(.write, command: 0, ["name": "bt/name", "val": .bytes([0x41])], on: device)
        _ = try await send(.write, command: 0, ["name": "app/greeting", "val": .bytes([0x42])], on: device)
        _ = try await send(.write, command: 3, ["name": "bt"], on: device)
        let storage = try await settings(device).storage.settings
        XCTAssertEqual(storage["bt/name"], [0x41])
        XCTAssertEqual(storage["app/greeting"], Array("hello".utf8))
    }

    func testLoadReloadsFromStorage() async throws {
        let device = VirtualDevice()
        _ = try await send(.write, command: 0, ["name": "app/greeting", "val": .bytes([0x42])], on: device)
        _ = try await send(.read, command: 3, on: device)
        let value = try await read("app/greeting", on: device)
        XCTAssertEqual(value["val"], .bytes(Array("hello".utf8)))
    }

    func testDeleteRemovesFromStorageAndRAMForgetsItAtTheNextReset() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(resetDelay: .zero))
        let deleted = try await send(.write, command: 1, ["name": "app/greeting"], on: device)
        XCTAssertEqual(deleted, [:])
        let storage = try await settings(device).storage.settings
        XCTAssertNil(storage["app/greeting"])
        let stillInRAM = try await read("app/greeting", on: device)
        XCTAssertEqual(stillInRAM["val"], .bytes(Array("hello".utf8)), "settings_delete() calls no handler")
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
        let gone = try await read("app/greeting", on: device)
        XCTAssertEqual(gone, ["err": ["group": 3, "rc": 3]])
        let again = try await send(.write, command: 1, ["name": "app/greeting"], on: device)
        XCTAssertEqual(again, [:], "deleting a key that is not stored succeeds, as on Zephyr")
    }

    func testMaxSizeTruncates() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(settings: SimulatedSettingsConfiguration(valueLimit: 4)))
        let short = try await read("bt/name", maxSize: 2, on: device)
        XCTAssertEqual(short, ["val": .bytes(Array("Ze".utf8))])
        let capped = try await read("bt/name", maxSize: 100, on: device)
        XCTAssertEqual(capped, ["val": .bytes(Array("Zeph".utf8)), "max_size": 4])
        let tooLong = try await send(.write, command: 0, ["name": "bt/name", "val": .bytes([1, 2, 3, 4, 5])], on: device)
        XCTAssertEqual(tooLong, ["rc": 3])
    }

    func testNameErrors() async throws {
        let device = VirtualDevice()
        let long = try await read("app/" + String(repeating: "x", count: 28), on: device)
        XCTAssertEqual(long, ["err": ["group": 3, "rc": 2]], "32 bytes leave no room for the NUL")
        let longest = try await read("app/" + String(repeating: "x", count: 27), on: device)
        XCTAssertEqual(longest, ["err": ["group": 3, "rc": 3]], "31 bytes fit")
        let empty = try await read("", on: device)
        XCTAssertEqual(empty, ["rc": 3])
        let unknownRoot = try await read("nope/key", on: device)
        XCTAssertEqual(unknownRoot, ["err": ["group": 3, "rc": 5]])
        let unknownKey = try await read("app/none", on: device)
        XCTAssertEqual(unknownKey, ["err": ["group": 3, "rc": 3]])
        let noName = try await send(.read, command: 0, on: device)
        XCTAssertEqual(noName, ["rc": 3])
    }

    func testReadOnlyKeys() async throws {
        let device = VirtualDevice()
        let write = try await send(.write, command: 0, ["name": "app/serial", "val": .bytes([1])], on: device)
        XCTAssertEqual(write, ["err": ["group": 3, "rc": 6]])
        let delete = try await send(.write, command: 1, ["name": "app/serial"], on: device)
        XCTAssertEqual(delete, ["err": ["group": 3, "rc": 7]])
        let value = try await read("app/serial", on: device)
        XCTAssertEqual(value["val"], .bytes(Array("SN-0001".utf8)))
    }

    func testLegacyFlavourTranslatesErrors() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: .legacy))
        let ok = try await send(.write, command: 0, ["name": "bt/name", "val": .bytes([0x41])], on: device, versionBits: 0)
        XCTAssertEqual(ok, ["rc": 0])
        let long = try await send(.read, command: 0, ["name": .text(String(repeating: "x", count: 40))], on: device, versionBits: 0)
        XCTAssertEqual(long, ["rc": 3], "KEY_TOO_LONG becomes MGMT_ERR_EINVAL")
        let missing = try await send(.read, command: 0, ["name": "app/none"], on: device, versionBits: 0)
        XCTAssertEqual(missing, ["rc": 5], "KEY_NOT_FOUND becomes MGMT_ERR_ENOENT")
    }
}
