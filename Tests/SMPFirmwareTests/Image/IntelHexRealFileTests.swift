import Foundation
import SMP
import SMPFirmware
import SMPTestSupport
import XCTest

/// Intel HEX files made by real tools: imgtool's `.hex` gives the very bytes of its `.bin`
/// (checked against Python's intelhex too), and the Zephyr fixtures' bootloader and merged files
/// are refused with the ranges they hold.
final class IntelHexRealFileTests: XCTestCase {
    private func contents(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testImgtoolHexGivesTheBinBytesAndHash() throws {
        let entries = try ImgtoolImages.load().images.filter { $0.hexFile != nil }
        XCTAssertEqual(entries.map(\.name).sorted(), ["ed25519-pubkey", "padded-confirmed", "rom-fixed", "unsigned-h200"])
        for entry in entries {
            let hexFile = try XCTUnwrap(entry.hexFile)
            let binary = try entry.bytes()
            let hex = try IntelHexImage(text: contents(hexFile), maximumSize: PackageLimits().maximumEntrySize)
            XCTAssertEqual(hex.bytes, binary, entry.name)
            XCTAssertEqual(hex.baseAddress, entry.hexAddress, entry.name)
            let fromHex = try MCUbootImage(bytes: hex.bytes)
            XCTAssertEqual(fromHex.imageHashHex, entry.sha256, entry.name)
            XCTAssertEqual(fromHex, try MCUbootImage(bytes: binary), entry.name)
            let package = try FirmwarePackage(contentsOf: hexFile)
            XCTAssertEqual(package.kind, .mcubootImage, entry.name)
            XCTAssertEqual(package.images.first?.bytes, binary, entry.name)
            XCTAssertEqual(package.images.first?.loadAddress, entry.hexAddress.map(UInt64.init), entry.name)
            XCTAssertEqual(package.images.first?.mcubootVersion, try FirmwarePackage(contentsOf: entry.file).images.first?.mcubootVersion)
        }
    }

    /// Python's intelhex (imgtool's own dependency) reads the same ranges from each file.
    func testPythonIntelhexReadsTheSameRanges() throws {
        try ExternalTool.requirePythonModules(["intelhex"])
        let script = """
            import sys
            from intelhex import IntelHex
            h = IntelHex(sys.argv[1])
            for start, end in h.segments():
                print(f"{start:08x} {h.tobinstr(start=start, end=end - 1).hex()}")
            """
        let folder = try ZephyrFixtureFolder.require()
        let fixtureFiles = ["zephyr_4.4.0_smp_server_0eae053d_qemu_cortex_m0_serial.merged.hex"].map(folder.path(of:))
        let files = try ImgtoolImages.load().images.compactMap(\.hexFile) + fixtureFiles
        for file in files {
            let run = try ProcessRunner.run(ExternalTool.python, ["-c", script, file], timeout: 120)
            XCTAssertEqual(run.status, 0, run.stderr)
            let hex = try IntelHex(text: contents(file), maximumDataSize: PackageLimits().maximumEntrySize)
            let ours = hex.segments.map { String(MCUbootHex.literal($0.address, width: 8).dropFirst(2)) + " " + Hex.string($0.bytes) }
            XCTAssertEqual(ours, run.stdout.split(separator: "\n").map(String.init), file)
        }
    }

    func testZephyrMergedHexIsRefusedWithItsRangesAndHoldsTheSignedBin() throws {
        let folder = try ZephyrFixtureFolder.require()
        let merged = folder.path(of: "zephyr_4.4.0_smp_server_0eae053d_qemu_cortex_m0_serial.merged.hex")
        let signed = try contents(folder.path(of: "zephyr_4.4.0_smp_server_0eae053d_qemu_cortex_m0_serial.signed.bin"))
        let text = try contents(merged)
        let hex = try IntelHex(text: text, maximumDataSize: PackageLimits().maximumEntrySize)
        XCTAssertEqual(hex.segments.count, 2)
        XCTAssertEqual(hex.segments.last?.bytes, signed, "the application range is the signed .bin")
        XCTAssertEqual(hex.ranges.map(\.startsWithMCUbootMagic), [false, true])
        XCTAssertThrowsError(try IntelHexImage(text: text, maximumSize: PackageLimits().maximumEntrySize)) { error in
            XCTAssertEqual(error as? IntelHexError, .severalRanges(hex.ranges))
        }
        XCTAssertThrowsError(try FirmwarePackage(contentsOf: merged)) { error in
            XCTAssertEqual(error as? FirmwarePackageError, .intelHex(path: merged, .severalRanges(hex.ranges)))
            let message = "\(error)"
            XCTAssertTrue(message.contains("0x00000000–0x0000526f (21104 bytes), 0x00008000–0x0001421b (49692 bytes, an MCUboot image)"), message)
            XCTAssertTrue(message.contains("zephyr.signed.hex, not merged.hex"), message)
        }
    }

    func testZephyrBootloaderHexIsNotAnImage() throws {
        let folder = try ZephyrFixtureFolder.require()
        for name in ["serial_recovery", "serial_recovery_raw"] {
            let path = folder.path(of: "zephyr_f33aa2bc4a43_smp_server_27c54835_mps2_an385_\(name).hex")
            XCTAssertThrowsError(try FirmwarePackage(contentsOf: path)) { error in
                guard case .intelHex(_, .notAnMCUbootImage(let range, _))? = error as? FirmwarePackageError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(range.address, 0, name)
                XCTAssertTrue("\(error)".contains("does not start with the MCUboot image magic"), "\(error)")
            }
        }
    }

    func testAHexNameWithoutHexContentGetsAHint() throws {
        XCTAssertThrowsError(try FirmwarePackage(data: Data("garbage".utf8), name: "zephyr.signed.hex")) { error in
            XCTAssertEqual(
                "\(error)",
                "zephyr.signed.hex is not an MCUboot image, ZIP package or SUIT envelope (it starts with 67 61 72 62 61 67 65); "
                    + "the name ends in .hex but the file does not start with ':' (an Intel HEX record)")
        }
    }
}
