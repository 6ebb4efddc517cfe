import Foundation
import SMPTestSupport
import XCTest

/// `smpctl package info` on nRF5 SDK Nordic DFU packages made by the independent encoder
/// (``NordicDFUPackageSet``): the report, its JSON, `--key` and its exit codes.
final class PackageInfoNordicTests: XCTestCase {
    private func path(_ name: String) throws -> String {
        try NordicDFUPackageSet.folder().appendingPathComponent(name).path
    }

    func testSignedPackageVerifiesWithItsKey() async throws {
        let package = try path("secure-signed.zip")
        let key = try path("public.pem")
        let run = try await SMPCtl.run(["package", "info", package, "--key", key])
        assertSuccess(run)
        for line in [
            "kind: Nordic Secure DFU package (nRF5 SDK 12+, manifest.json + init packets)",
            "  application:",
            "    file:                app.bin (5003 bytes)",
            "    init packet:         app.dat",
            "    firmware version:    7",
            "    hardware version:    52",
            "    SoftDevice required: 0xB7 (s132_nrf52_6.1.1), 0x101 (s132_nrf52_7.2.0)",
            "    debug:               no",
            "    signature:           ECDSA P-256 SHA-256",
            "    signature check:     verified (\(key))",
        ] {
            XCTAssertTrue(run.stdout.contains(line + "\n"), "missing \(line.debugDescription) in:\n\(run.stdout)")
        }
        XCTAssertTrue(run.stdout.contains("(matches the init packet)"), run.stdout)
    }

    func testWrongKeyPrintsTheReportAndExits65() async throws {
        let run = try await SMPCtl.run(["package", "info", try path("secure-signed.zip"), "--key", try path("other-public.pem"), "--json"])
        assertExit(run, 65)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["signaturesVerified"]?.bool, false)
        XCTAssertEqual(document["images"]?.array?.first?["signatureCheck"]?.string, "failed")
        assertStderr(run, contains: "signature check with \(try path("other-public.pem")) failed: application app.dat: FAILED: the signature does not match the key")
    }

    func testKeyForAnUnsignedPackageExits65() async throws {
        let run = try await SMPCtl.run(["package", "info", try path("secure-unsigned.zip"), "--key", try path("public.pem")])
        assertExit(run, 65)
        XCTAssertTrue(run.stdout.contains("    signature check:     not signed ("), run.stdout)
        XCTAssertTrue(run.stdout.contains("    debug:               yes (the bootloader skips the version check)"), run.stdout)
        assertStderr(run, contains: "application app.dat: not signed")
    }

    func testMultiImageJSON() async throws {
        let run = try await SMPCtl.run(["package", "info", try path("secure-multi.zip"), "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["kind"]?.string, "nordic-secure-dfu")
        XCTAssertEqual(document["signaturesVerified"]?.isNull, true)
        let images = try XCTUnwrap(document["images"]?.array)
        XCTAssertEqual(images.map { $0["type"]?.string }, ["softdevice_bootloader", "application"])
        XCTAssertEqual(images.map { $0["softDeviceSize"]?.int }, [4096, 0])
        XCTAssertEqual(images.map { $0["bootloaderSize"]?.int }, [1904, 0])
        XCTAssertEqual(images.map { $0["signature"]?.string }, ["ECDSA P-256 SHA-256", "ECDSA P-256 SHA-256"])
        XCTAssertEqual(images.first?["softDeviceRequirements"]?.array?.first?["name"]?.string, "s132_nrf52_6.1.1")
        XCTAssertEqual(images.first?["signatureCheck"]?.isNull, true)
    }

    func testLegacyPackageText() async throws {
        let run = try await SMPCtl.run(["package", "info", try path("legacy-0.5.zip")])
        assertSuccess(run)
        XCTAssertTrue(run.stdout.contains("kind: Nordic legacy DFU package (nRF5 SDK 7–11, manifest.json + extended init packets)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("    application version: 4294967295 (any)\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("    SoftDevice required: 0xFFFE (any SoftDevice)\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("(matches the init packet)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("    CRC-16:              0x"), run.stdout)
    }

    func testKeyForAnMCUbootImageIsAUsageError() async throws {
        let files = try PackageTestFiles()
        defer { files.remove() }
        let image = try files.write("zephyr.signed.bin", PackageTestFiles.image(version: (1, 0, 0, 0)))
        let run = try await SMPCtl.run(["package", "info", image, "--key", try path("public.pem")])
        assertExit(run, 64)
        assertStderr(run, contains: "--key applies to Nordic DFU packages only, and \(image) is not one (MCUboot image)")
    }

    func testTamperedPackageExits65() async throws {
        let files = try PackageTestFiles()
        defer { files.remove() }
        let broken = try files.write("broken.zip", PackageTestFiles.zip([
            ("manifest.json", Array(#"{"manifest": {"application": {"bin_file": "app.bin", "dat_file": "app.dat"}}}"#.utf8)),
            ("app.bin", [1, 2, 3]), ("app.dat", [0x0A, 0x09]),
        ]))
        let run = try await SMPCtl.run(["package", "info", broken])
        assertExit(run, 65)
        XCTAssertEqual(run.stderr, """
            error: application init packet "app.dat": byte 1: a field of 9 bytes where only 0 are left; \
            the init packet (.dat) is damaged or not a Nordic DFU init packet

            """)
    }
}
