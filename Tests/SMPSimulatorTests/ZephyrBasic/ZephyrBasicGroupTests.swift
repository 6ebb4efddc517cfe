import CBOR
import SMP
import SMPSimulator
import XCTest

/// The virtual device's Zephyr basic group (docs/protocol/groups.md §13): erase storage wipes the settings' storage.
final class ZephyrBasicGroupTests: XCTestCase {
    func testEraseStorageClearsSavedSettingsWhichAreGoneAfterAReset() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(resetDelay: .zero))
        let erase = try await device.respond(to: TestFrames.request(.write, group: .zephyrBasic, command: 0))
        XCTAssertEqual(erase.payload, [:])
        let group = await device.group(.settings)
        let settings = try XCTUnwrap(group as? SettingsGroup)
        XCTAssertEqual(settings.storage.settings, [:])
        XCTAssertEqual(settings.storage.eraseCount, 1)
        let stillInRAM = try await device.respond(
            to: TestFrames.request(.read, group: .settings, command: 0, payload: ["name": "bt/name"]))
        XCTAssertEqual(stillInRAM.payload["val"], .bytes(Array("Zephyr".utf8)), "RAM keeps the loaded value until a reset")
        _ = try await device.respond(to: TestFrames.request(.write, command: 5))
        let gone = try await device.respond(
            to: TestFrames.request(.read, group: .settings, command: 0, payload: ["name": "bt/name"]))
        XCTAssertEqual(gone.payload, ["err": ["group": 3, "rc": 3]])
    }

    func testLegacyAnswerAndTurnedOff() async throws {
        let legacy = VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: .legacy))
        let answer = try await legacy.respond(to: TestFrames.request(.write, group: .zephyrBasic, command: 0, versionBits: 0))
        XCTAssertEqual(answer.payload, ["rc": 0])
        let without = VirtualDevice(configuration: VirtualDeviceConfiguration(zephyrBasic: false))
        let missing = try await without.respond(to: TestFrames.request(.write, group: .zephyrBasic, command: 0))
        XCTAssertEqual(missing.payload, ["rc": 8])
    }
}
