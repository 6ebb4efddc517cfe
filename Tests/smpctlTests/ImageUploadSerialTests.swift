import Foundation
import SMPSimulator
import XCTest

/// `smpctl image upload` (the built binary) of real imgtool images over a pseudo-terminal served
/// by the virtual device with Zephyr's serial defaults (SMP over console, 384-byte buffers):
/// unpaced, paced like a UART, and with line noise, log lines and CRC errors on the line; window 1
/// and the default window. Every upload must leave the device's secondary slot equal to the file.
final class ImageUploadSerialTests: XCTestCase {
    /// Uploads `image` with `--json` and `options`, asserts `match: true` and the slot's content;
    /// returns the `done` document.
    @discardableResult
    private func upload(
        _ image: UploadTestImages.Image, to served: ServedSerialDevice, connectionOptions: String = "", _ options: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> JSONNode {
        let arguments = ["image", "upload", image.file, "-c", served.connection + connectionOptions, "--json"] + options
        let run = try await SMPCtl.run(arguments, timeout: 120, file: file, line: line)
        return try await assertUploaded(run, try image.bytes(), to: served.device, file: file, line: line)
    }

    func testUnpacedUploadWithTheDefaultWindowThenImageListShowsIt() async throws {
        let image = try UploadTestImages.signed()
        let served = try await startSerialDevice()
        let done = try await upload(image, to: served)
        XCTAssertEqual(done["window"]?.int, 3, "buf_count 4 less one")
        XCTAssertEqual(done["imageHash"]?.string, image.sha256)
        XCTAssertTrue(done["resumedFrom"]?.isNull == true, "\(done)")
        XCTAssertGreaterThan(done["chunks"]?.int ?? 0, 10, "384-byte buffers make small chunks: \(done)")

        let list = try await SMPCtl.run(["image", "list", "-c", served.connection, "--json"])
        assertSuccess(list)
        let secondary = try XCTUnwrap(try list.jsonDocument()["images"]?.array?.first { $0["slot"]?.int == 1 }, "\(list)")
        XCTAssertEqual(secondary["imageHash"]?.string, image.sha256, "\(list)")
        XCTAssertEqual(secondary["version"]?.string?.hasPrefix(image.version.prefix { $0 != "+" }), true, "\(list)")
        XCTAssertEqual(secondary["bootable"]?.bool, true, "\(list)")
    }

    func testUnpacedUploadOfAnImagePaddedToTheSlotWithWindowOne() async throws {
        let image = try UploadTestImages.padded()
        let served = try await startSerialDevice()
        let done = try await upload(image, to: served, ["--window", "1"])
        XCTAssertEqual(done["window"]?.int, 1)
        XCTAssertEqual(done["size"]?.int, 256 * 1024, "imgtool --pad fills the slot")
        XCTAssertEqual(done["bytesSent"]?.int, done["size"]?.int, "one chunk at a time on a clean line: none sent twice: \(done)")
    }

    func testPacedLikeAUARTWithLogLinesWithWindowOneAndTheDefaultWindow() async throws {
        let image = try UploadTestImages.signed()
        let uart = PTYSimulatorOptions(baudRate: 230_400, logLinesPerSecond: 50, logLinesInsideFrames: true)
        for window in [["--window", "1"], []] {
            let served = try await startSerialDevice(options: uart)
            let done = try await upload(image, to: served, window)
            XCTAssertEqual(done["window"]?.int, window.isEmpty ? 3 : 1)
            if !window.isEmpty {
                XCTAssertEqual(done["bytesSent"]?.int, done["size"]?.int, "log lines between answers lose nothing: \(done)")
            }
            let statistics = await served.server.statistics
            XCTAssertGreaterThan(statistics.bytesReceived, image.fileSize, "base64 makes the line carry more than the file")
            XCTAssertGreaterThan(statistics.logLines, 0, "\(statistics)")
        }
    }

    /// Noise bursts and CRC errors lose answers (never damage data: the CRC catches them); the
    /// client resends or a later acknowledgement covers them. The damage is drawn from a seeded
    /// generator, one draw per answer and line, so without log lines (whose timing varies) every
    /// run damages the same answers; this seed spares the answer to the first chunk, which the
    /// client would await for the 30 s a device may take to erase the slot.
    func testNoiseAndCRCErrorsOnTheLineLeaveTheImageIntact() async throws {
        let image = try UploadTestImages.signed()
        let damage = PTYSimulatorOptions(baudRate: 460_800, noise: 0.1, crcErrors: 0.2, seed: 0xBAD)
        for window in [["--window", "1"], []] {
            let served = try await startSerialDevice(options: damage)
            let done = try await upload(image, to: served, connectionOptions: "?timeout=0.3&retries=6", window)
            let statistics = await served.server.statistics
            XCTAssertGreaterThan(statistics.crcErrors, 0, "\(statistics)")
            XCTAssertGreaterThan(statistics.noiseBursts, 0, "\(statistics)")
            XCTAssertGreaterThan(statistics.responses, done["chunks"]?.int ?? .max, "lost answers were answered again: \(statistics)")
        }
    }
}
