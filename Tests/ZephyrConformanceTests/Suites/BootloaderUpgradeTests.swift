import Foundation
import SMPTestSupport
import XCTest

/// Upgrades through MCUboot on the QEMU fixtures (issue 14): application → bootloader (boot mode 1)
/// → serial recovery upload → the application runs the new version, for the console
/// (`serial_recovery`) and raw (`serial_recovery_raw`) recovery protocols, and the RAM-load
/// upgrade from the application (upload to slot 1 → reset → MCUboot boots the highest version).
///
/// The fixtures run with ``QEMUDevice/Memory/persistent``: QEMU's loader would otherwise put the
/// original image back into slot 0 on every reset, which a real device's flash does not do. The
/// client reaches the board on one `serial:tcp://` port across resets.
final class BootloaderUpgradeTests: XCTestCase {
    static let console = "serial_recovery"
    static let raw = "serial_recovery_raw"

    // MARK: Image commands (upload, reset, list)

    func testRecoveryUploadWithImageCommands() async throws { try await recoveryUploadWithImageCommands(Self.console) }
    func testRAMLoadUploadWithImageCommands() async throws { try await ramLoadUploadWithImageCommands(Self.console) }
    // The raw build's paths are covered by the upgrade tests below (the same uploads, less time):
    // its recovery by testUpgradeViaBootloaderRaw, its RAM load by testUpgradeFromRAMLoadApplicationFromHex.

    /// Boot mode 1 reaches recovery; the image MCUboot writes into slot 0 is still there after a
    /// normal reset, and the application that runs is the new one.
    private func recoveryUploadWithImageCommands(_ config: String) async throws {
        let bench = try await BootloaderBench.start(config: config, for: self)
        let image = try bench.image(version: "2.0.0")
        try await bench.reset(into: .recovery)
        try await bench.succeed(["image", "upload", image.path, "--json"], timeout: Self.uploadTimeout)
        try await bench.reset(into: .application)
        try await bench.expectRunning("2.0.0", slot: 0)
    }

    /// The application uploads to slot 1 (its short hash from `image list` names it); after a reset the RAM-load MCUboot boots the higher version.
    private func ramLoadUploadWithImageCommands(_ config: String) async throws {
        let bench = try await BootloaderBench.start(config: config, for: self)
        let image = try bench.image(version: "2.0.0")
        try await bench.succeed(["image", "upload", image.path, "--json"], timeout: Self.uploadTimeout)
        // The short hash the real device's list shows names the image: it resolves against that
        // list and the test request goes out (a RAM-load application refuses state writes, rc 8);
        // a name that matches nothing lists the device's images.
        let list = try await bench.succeed(["image", "list"])
        let row = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.contains(" 2.0.0 ") }, "\(list)")
        let shortHash = String(row.split(separator: " ", omittingEmptySubsequences: true)[3])
        XCTAssertEqual(shortHash.count, 8, "\(list)")
        let tested = try await bench.smpctl(["image", "test", shortHash])
        XCTAssertEqual(tested.status, 2, "\(tested)")
        XCTAssertTrue(tested.stderr.contains("image test (group 1 command 0 write): the device answered MGMT_ERR_ENOTSUP"), "\(tested)")
        let missing = try await bench.smpctl(["image", "test", "slot:9"])
        XCTAssertEqual(missing.status, 65, "\(missing)")
        XCTAssertTrue(missing.stderr.contains("hint: the device lists:") && missing.stderr.contains("2.0.0"), "\(missing)")
        try await bench.reset(into: .application)
        try await bench.expectRunning("2.0.0", slot: 1)
    }

    // MARK: smpctl upgrade

    func testUpgradeInRecovery() async throws { try await upgradeInRecovery(Self.console) }
    func testUpgradeViaBootloaderRaw() async throws { try await upgradeViaBootloader(Self.raw, fileExtension: "bin") }
    func testUpgradeViaBootloaderFromHex() async throws { try await upgradeViaBootloader(Self.console, fileExtension: "hex") }
    func testUpgradeFromRAMLoadApplication() async throws { try await upgradeFromApplication(Self.console, fileExtension: "bin") }
    func testUpgradeFromRAMLoadApplicationFromHex() async throws { try await upgradeFromApplication(Self.raw, fileExtension: "hex") }

    /// A device already in serial recovery: `smpctl upgrade FILE` uploads, resets, waits for the
    /// application and checks it.
    private func upgradeInRecovery(_ config: String) async throws {
        let bench = try await BootloaderBench.start(config: config, for: self)
        let image = try bench.image(version: "2.0.0")
        try await bench.reset(into: .recovery)
        let resets = bench.device.resets
        try await bench.succeed(["upgrade", image.path, "--json"], timeout: Self.upgradeTimeout)
        XCTAssertGreaterThan(bench.device.resets, resets, "upgrade in recovery did not reset the device\n\(bench.logs)")
        try await bench.expectRunning("2.0.0", slot: 0)
    }

    /// From the running application: `smpctl upgrade FILE --via-bootloader` resets into the
    /// bootloader, upgrades there and returns to the application.
    private func upgradeViaBootloader(_ config: String, fileExtension: String, route: BootloaderBench.Route = .direct) async throws {
        let bench = try await BootloaderBench.start(config: config, route: route, for: self)
        try await upgradeViaBootloader(on: bench, fileExtension: fileExtension)
    }

    private func upgradeViaBootloader(on bench: BootloaderBench, fileExtension: String) async throws {
        let image = try bench.image(version: "2.0.0", fileExtension: fileExtension)
        let resets = bench.device.resets
        try await bench.succeed(["upgrade", image.path, "--via-bootloader", "--json"], timeout: Self.upgradeTimeout)
        // Into the bootloader, and back to the application.
        XCTAssertGreaterThanOrEqual(bench.device.resets, resets + 2, "expected two resets\n\(bench.logs)")
        try await bench.expectRunning("2.0.0", slot: 0)
    }

    /// From the RAM-load application: `smpctl upgrade FILE` completes as upload → reset → verify.
    private func upgradeFromApplication(_ config: String, fileExtension: String) async throws {
        try await upgradeFromApplication(on: try await BootloaderBench.start(config: config, for: self), fileExtension: fileExtension)
    }

    private func upgradeFromApplication(on bench: BootloaderBench, fileExtension: String) async throws {
        let image = try bench.image(version: "2.0.0", fileExtension: fileExtension)
        let resets = bench.device.resets
        try await bench.succeed(["upgrade", image.path, "--json"], timeout: Self.upgradeTimeout)
        XCTAssertGreaterThan(bench.device.resets, resets, "upgrade did not reset the device\n\(bench.logs)")
        try await bench.expectRunning("2.0.0", slot: 1)
    }

    // MARK: Through ser2net's RFC 2217 port (issue 28)

    /// As a lab serves a board: QEMU's UART as a pty (socat), ser2net's `telnet(rfc2217)` accepter
    /// on it, smpctl on `serial:rfc2217://`. The raw framing's messages are full of 0xFF (a file of
    /// them here, the image's padding and hash below), each doubled on the way: a file goes to the
    /// board's LittleFS and comes back the same, then the RAM-load upgrade from the application
    /// (upload, reset, verify; ser2net and socat live through the reset).
    ///
    /// MCUboot's raw recovery is not run this way: a pty has no line rate, so ser2net and socat
    /// hand it smpctl's paced pieces in clumps, and its eight one-byte fragment buffers drop some
    /// (45–180 s an upgrade, against 23 s direct). A real UART behind ser2net paces the bytes itself.
    func testFileTransferAndUpgradeFromRAMLoadApplicationRawThroughRFC2217() async throws {
        let bench = try await BootloaderBench.start(config: Self.raw, route: .rfc2217, for: self)
        let content = Data((0..<3_000).map { $0 % 3 == 0 ? UInt8(0xFF) : UInt8(truncatingIfNeeded: $0) })
        let local = bench.scratch.appendingPathComponent("ff.bin")
        let back = bench.scratch.appendingPathComponent("back.bin")
        try content.write(to: local)
        try await bench.succeed(["fs", "put", local.path, "/lfs1/ff.bin", "--verify"], timeout: 60)
        try await bench.succeed(["fs", "get", "/lfs1/ff.bin", back.path, "--verify"], timeout: 60)
        XCTAssertEqual(try Data(contentsOf: back), content)
        try await upgradeFromApplication(on: bench, fileExtension: "bin")
    }

    /// The console framing through the same route, the whole way: application → MCUboot's serial
    /// recovery → application.
    func testUpgradeViaBootloaderThroughRFC2217() async throws {
        try await upgradeViaBootloader(Self.console, fileExtension: "bin", route: .rfc2217)
    }

    // MARK: An image signed for another load address

    /// `imgtool sign --load-addr 0x20100000` for an application linked for 0x20240000: MCUboot
    /// would copy it where its code is not linked for (its recovery wrote it, then listed no
    /// image; issue 25). `upgrade` (in recovery and through it) and `image upload` refuse it
    /// before anything is sent, naming the header's load address and the reset handler's; the
    /// recovery still lists the image slot 0 held.
    func testAnImageSignedForAnotherLoadAddressIsRefusedBeforeAnyUpload() async throws {
        let bench = try await BootloaderBench.start(config: Self.console, for: self)
        let image = try bench.image(version: "2.0.0", loadAddress: "0x20100000")
        let info = try await SMPCtlInvocation.run(["image", "info", image.path], cache: bench.scratch, timeout: 30)
        XCTAssertEqual(info.status, 65, "\(info)")
        try await bench.reset(into: .recovery)
        let before = try await bench.images()
        XCTAssertEqual(before.count, 1, "the recovery lists slot 0's image: \(before)")
        for arguments in [["upgrade", image.path], ["upgrade", image.path, "--via-bootloader"], ["image", "upload", image.path]] {
            let run = try await bench.smpctl(arguments)
            XCTAssertEqual(run.status, 65, "\(run)")
            XCTAssertTrue(run.stderr.contains("0x20100000") && run.stderr.contains("reset handler") && run.stderr.contains("0x2024"), "\(run)")
            XCTAssertTrue(run.stderr.contains("imgtool sign --load-addr"), "\(run)")
            XCTAssertFalse(run.stderr.contains("%") || run.stdout.contains("upload"), "nothing is uploaded: \(run)")
        }
        let after = try await bench.images()
        XCTAssertEqual(after.map { $0["imageHash"] as? String }, before.map { $0["imageHash"] as? String }, "slot 0 is untouched")
    }

    /// An upload of the 132 KB image (about 12 s from the application; serial recovery is slower).
    static let uploadTimeout: TimeInterval = 150
    /// A whole upgrade: upload, resets, waits.
    static let upgradeTimeout: TimeInterval = 200
}
