import Foundation
import SMPTestSupport
import XCTest

/// A real MCUboot swap (issue 31): the `qemu_cortex_m0/serial` fixture's MCUboot (swap using
/// offset) and Zephyr's image management, its flash kept across resets as a board keeps it
/// (``QEMUDevice/Memory/persistent``). A tested image runs once and is swapped back at the next
/// reset unless confirmed; a confirmed one stays. The virtual device models the same states; this
/// is the bootloader itself.
final class MCUbootSwapTests: XCTestCase {
    /// Two uploads of about 48 KiB to a board that takes about 2 KiB/s over its emulated UART.
    static let upgradeTimeout: TimeInterval = 240

    /// The image list's entry for `slot`, if the device lists one.
    private func image(in slot: Int, of images: [[String: Any]]) -> [String: Any]? {
        images.first { $0["slot"] as? Int == slot && ($0["image"] as? Int ?? 0) == 0 }
    }

    func testATestedImageIsSwappedBackUnlessConfirmedAndStaysOnceConfirmed() async throws {
        let bench = try await BootloaderBench.start(target: "qemu_cortex_m0", config: "serial", for: self)
        let before = try await bench.images()
        let original = try XCTUnwrap(image(in: 0, of: before)?["version"] as? String, "\(before)")
        let upgrade = try bench.image(version: "2.0.0", loadAddress: nil, slotSize: "0x1a000")

        // Test only: upload to slot 1, mark for test, reset; MCUboot swaps and the new image runs, unconfirmed.
        try await bench.succeed(["upgrade", upgrade.path, "--mode", "test-only", "--json"], timeout: Self.upgradeTimeout)
        try await bench.expectRunning("2.0.0", slot: 0)
        var images = try await bench.images()
        XCTAssertEqual(image(in: 0, of: images)?["confirmed"] as? Bool, false, "a tested image is not confirmed: \(images)")
        XCTAssertEqual(image(in: 1, of: images)?["version"] as? String, original, "the old image waits in slot 1: \(images)")

        // A reset without a confirmation: MCUboot swaps back.
        try await bench.reset(into: .application)
        try await bench.expectRunning(original, slot: 0)
        images = try await bench.images()
        XCTAssertEqual(image(in: 1, of: images)?["version"] as? String, "2.0.0", "the reverted image is back in slot 1: \(images)")

        // Test and confirm: the new image runs, is confirmed, and survives the next reset.
        try await bench.succeed(["upgrade", upgrade.path, "--json"], timeout: Self.upgradeTimeout)
        try await bench.expectRunning("2.0.0", slot: 0)
        try await bench.reset(into: .application)
        try await bench.expectRunning("2.0.0", slot: 0)
        images = try await bench.images()
        XCTAssertEqual(image(in: 0, of: images)?["confirmed"] as? Bool, true, "confirmed: \(images)\n\(bench.logs)")
    }
}
