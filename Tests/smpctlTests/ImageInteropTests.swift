import Foundation
import SMP
import SMPSimulator
import SMPTestSupport
import XCTest

/// smpctl and smpmgr (PyPI) on the same virtual device with real imgtool images: what one tool
/// uploads or marks, the other lists the same way. The device is served on UDP port 1337, the
/// one smpmgr reaches.
final class ImageInteropTests: XCTestCase {
    /// What make_images.py says about one image (the fields these tests use).
    private struct Made: Decodable {
        var name: String
        var file: String
        /// imgtool's form, e.g. `3.1.4+15`.
        var version: String
        var sha256: String?
    }

    private struct Manifest: Decodable {
        var images: [Made]
    }

    private static let made = Result { () throws -> Manifest in
        try JSONDecoder().decode(Manifest.self, from: ImgtoolImageSet.make())
    }

    /// A SHA-256 image made by imgtool, after checking that smpmgr and imgtool are there.
    private func image(_ name: String) async throws -> (made: Made, hash: String) {
        try await SMPMgr.require()
        try ExternalTool.requirePythonModules(["imgtool"])
        let made = try XCTUnwrap(try Self.made.get().images.first { $0.name == name }, "make_images.py made no \(name)")
        return (made, try XCTUnwrap(made.sha256, "\(name) is a SHA-256 image"))
    }

    /// The version as Zephyr's image group reports it: `3.1.4.15` for imgtool's `3.1.4+15`.
    private func reported(_ version: String) -> String { version.replacingOccurrences(of: "+", with: ".") }

    private var imageDevice: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = SimulatedImageConfiguration(slotSize: 256 * 1024)
        return configuration
    }

    /// `smpctl image list --json`, as the states smpmgr would print.
    private func smpctlStates(_ served: ServedDevice, file: StaticString = #filePath, line: UInt = #line) async throws -> [SMPMgrImageState] {
        let run = try await SMPCtl.run(["image", "list", "--json", "-c", served.endpoint], file: file, line: line)
        assertSuccess(run, file: file, line: line)
        let entries = try XCTUnwrap(try run.jsonDocument(file: file, line: line)["images"]?.array, "\(run)", file: file, line: line)
        let states = entries.compactMap(SMPMgrImageState.init(smpctl:))
        XCTAssertEqual(states.count, entries.count, "every listed slot has all fields\n\(run)", file: file, line: line)
        return states
    }

    private func upload(_ path: String, with served: ServedDevice) async throws {
        let run = try await SMPCtl.run(["image", "upload", path, "-c", served.endpoint, "--json"])
        assertSuccess(run)
        XCTAssertTrue(run.stdout.contains("\"match\":true"), "\(run)")
    }

    func testAnImageUploadedBySMPCtlIsListedBySMPMgr() async throws {
        let (made, hash) = try await image("ecdsa-p256")
        let served = try await startDeviceForSMPMgr(imageDevice)
        try await upload(made.file, with: served)

        let states = try await SMPMgr.imageStates()
        XCTAssertEqual(states.map(\.slot), [0, 1], "\(states)")
        let uploaded = try XCTUnwrap(states.first { $0.slot == 1 }, "\(states)")
        XCTAssertEqual(uploaded.hash, hash)
        XCTAssertEqual(uploaded.version, reported(made.version))
        XCTAssertEqual(uploaded.image, 0)
        XCTAssertTrue(uploaded.bootable)
        XCTAssertFalse(uploaded.pending || uploaded.confirmed || uploaded.active || uploaded.permanent, "\(uploaded)")
        let running = try XCTUnwrap(states.first { $0.slot == 0 })
        XCTAssertEqual(running.hash, Hex.string(SimulatedImageConfiguration.initialHash(image: 0)))
        XCTAssertTrue(running.active && running.confirmed, "\(running)")
    }

    func testAnImageUploadedBySMPMgrIsListedBySMPCtl() async throws {
        let (made, hash) = try await image("rsa2048")
        let served = try await startDeviceForSMPMgr(imageDevice)
        let upload = try await SMPMgr.device(["image", "upload", made.file])
        XCTAssertEqual(upload.status, 0, "smpmgr image upload failed\nstdout: \(upload.stdout)\nstderr: \(upload.stderr)")

        let states = try await smpctlStates(served)
        XCTAssertEqual(states.map(\.slot), [0, 1], "\(states)")
        let uploaded = try XCTUnwrap(states.first { $0.slot == 1 })
        XCTAssertEqual(uploaded.hash, hash)
        XCTAssertEqual(uploaded.version, reported(made.version))
        XCTAssertFalse(uploaded.pending || uploaded.confirmed || uploaded.active, "\(uploaded)")

        let group = await served.device.group(.image) as? ImageGroup
        let slot = try XCTUnwrap(group, "the device has an image group").contents(image: 0, slot: 1)
        XCTAssertEqual(slot, [UInt8](try Data(contentsOf: URL(fileURLWithPath: made.file))), "the slot holds the file, byte for byte")
    }

    func testAnImageMarkedBySMPCtlIsPendingForSMPMgrAndBothAgreeAfterAReset() async throws {
        let (made, hash) = try await image("ed25519-pubkey")
        let served = try await startDeviceForSMPMgr(imageDevice)
        try await upload(made.file, with: served)
        assertSuccess(try await SMPCtl.run(["image", "test", hash, "-c", served.endpoint]))

        let marked = try await SMPMgr.imageStates()
        let pending = try XCTUnwrap(marked.first { $0.slot == 1 }, "\(marked)")
        XCTAssertEqual(pending.hash, hash)
        XCTAssertTrue(pending.pending, "\(pending)")
        XCTAssertFalse(pending.permanent || pending.confirmed, "a test mark, not a confirmation: \(pending)")
        let listedBySMPCtl = try await smpctlStates(served)
        XCTAssertEqual(listedBySMPCtl, marked)

        let reset = try await SMPMgr.device(["os", "reset"])
        XCTAssertEqual(reset.status, 0, "smpmgr os reset failed\nstdout: \(reset.stdout)\nstderr: \(reset.stderr)")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1)
        let afterReset = try await SMPMgr.imageStates()
        let afterResetBySMPCtl = try await smpctlStates(served)
        XCTAssertEqual(afterResetBySMPCtl, afterReset)
        let running = try XCTUnwrap(afterReset.first { $0.slot == 0 }, "\(afterReset)")
        XCTAssertEqual(running.hash, hash, "the tested image runs from slot 0 after the swap")
        XCTAssertEqual(running.version, reported(made.version))
        XCTAssertTrue(running.active && !running.confirmed, "running on trial: \(running)")
        let previous = try XCTUnwrap(afterReset.first { $0.slot == 1 }, "\(afterReset)")
        XCTAssertEqual(previous.hash, Hex.string(SimulatedImageConfiguration.initialHash(image: 0)))
        XCTAssertTrue(previous.confirmed && !previous.active, "the revert target: \(previous)")
    }
}
