import Crypto
import Foundation
import SMP
import SMPTestSupport
import XCTest

/// `image info`, `image upload` and `upgrade` take an Intel HEX file (imgtool's `.hex`) as they
/// take the `.bin` of the same image, against a real `smpctl simulate`; a merged or bootloader
/// `.hex` of the Zephyr fixtures is refused with the ranges it holds.
final class IntelHexCommandTests: XCTestCase {
    private func hexFile(_ image: UploadTestImages.Image) throws -> String {
        try XCTUnwrap(image.hexFile, "make_images.py made no .hex for \(image.name)")
    }

    func testImageInfoShowsTheSameImageAndTheHexAddress() async throws {
        let image = try UploadTestImages.withHex()
        let hex = try hexFile(image)
        let text = try await SMPCtl.run(["image", "info", hex])
        assertSuccess(text)
        XCTAssertTrue(text.stdout.contains("hex address:    0x0000fff0 (where the .hex places the image)"), text.stdout)
        let fromHex = try await SMPCtl.run(["image", "info", hex, "--json"]).jsonDocument()
        let fromBin = try await SMPCtl.run(["image", "info", image.file, "--json"]).jsonDocument()
        XCTAssertEqual(fromHex["hexAddress"]?.int, 0xFFF0)
        XCTAssertEqual(fromBin["hexAddress"]?.isNull, true)
        XCTAssertEqual(fromHex["imageHash"]?.string, image.sha256)
        XCTAssertEqual(fromHex["imageHash"]?.string, fromBin["imageHash"]?.string)
        XCTAssertEqual(fromHex["fileSize"]?.int, image.fileSize)
        XCTAssertEqual(fromHex["tlvs"]?.description, fromBin["tlvs"]?.description)
    }

    func testImageInfoRefusesTheMergedAndBootloaderHexOfZephyr() async throws {
        let folder = try ZephyrFixtureFolder.require()
        let merged = folder.path(of: "zephyr_4.4.0_smp_server_0eae053d_qemu_cortex_m0_serial.merged.hex")
        let run = try await SMPCtl.run(["image", "info", merged])
        assertExit(run, 65)
        XCTAssertEqual(
            run.stderr,
            "error: \(merged): the file holds 2 separate address ranges: 0x00000000–0x0000526f (21104 bytes), "
                + "0x00008000–0x0001421b (49692 bytes, an MCUboot image); an MCUboot image is one contiguous range. "
                + "Give the application's signed image (zephyr.signed.hex, not merged.hex: a merged file with the bootloader is for a flash programmer)\n")
        let bootloader = folder.path(of: "zephyr_f33aa2bc4a43_smp_server_27c54835_mps2_an385_serial_recovery.hex")
        let upload = try await SMPCtl.run(["upgrade", bootloader, "--dry-run", "-c", "udp:127.0.0.1:9"])
        assertExit(upload, 65)
        XCTAssertTrue(upload.stderr.contains("does not start with the MCUboot image magic (3d b8 f3 96) but with 98 53 00 20"), upload.stderr)
    }

    func testImageUploadSendsTheBinBytes() async throws {
        let image = try UploadTestImages.withHex()
        let (_, endpoint) = try await startSimulateProcess()
        let run = try await SMPCtl.run(["image", "upload", try hexFile(image), "--json", "-c", endpoint])
        assertSuccess(run)
        let done = try XCTUnwrap(try UploadOutput(run).lines.last)
        XCTAssertEqual(done["size"]?.int, image.fileSize)
        XCTAssertEqual(done["sha256"]?.string, Hex.string(Array(SHA256.hash(data: try image.bytes()))))
        XCTAssertEqual(done["imageHash"]?.string, image.sha256)
        XCTAssertEqual(done["match"]?.bool, true)
        let list = try await SMPCtl.run(["image", "list", "--json", "-c", endpoint])
        XCTAssertTrue(list.stdout.contains(try XCTUnwrap(image.sha256)), list.stdout)
    }

    func testUpgradeDryRunPlansAsForTheBin() async throws {
        let image = try UploadTestImages.withHex()
        let hex = try hexFile(image)
        let (_, endpoint) = try await startSimulateProcess()
        let fromHex = try await SMPCtl.run(["upgrade", hex, "--dry-run", "--json", "-c", endpoint])
        let fromBin = try await SMPCtl.run(["upgrade", image.file, "--dry-run", "--json", "-c", endpoint])
        assertSuccess(fromHex)
        assertSuccess(fromBin)
        // The plan names the file; everything else is the same.
        let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
        XCTAssertEqual(
            fromHex.stdout.replacingOccurrences(of: name(hex), with: "FILE"), fromBin.stdout.replacingOccurrences(of: name(image.file), with: "FILE"))
        XCTAssertTrue(fromHex.stdout.contains(try XCTUnwrap(image.sha256)), fromHex.stdout)
        let text = try await SMPCtl.run(["upgrade", hex, "--dry-run", "-c", endpoint])
        assertExit(text, 0)
        XCTAssertTrue(text.stdout.contains("upload"), text.stdout)
    }
}
