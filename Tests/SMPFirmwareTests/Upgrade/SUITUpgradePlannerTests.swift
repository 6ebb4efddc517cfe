import CBOR
import Foundation
import SMP
import XCTest
@testable import SMPFirmware

/// The SUIT upgrade's package reading and plan (pure): caches and deferral, already installed,
/// wrong bootloader, resource matching, digests.
final class SUITUpgradePlannerTests: XCTestCase {
    private static func encode(_ item: CBOR) -> [UInt8] {
        var writer = CBORWriter()
        writer.write(item)
        return writer.bytes
    }

    /// An envelope whose authentication wrapper carries `digest` under COSE `algorithm`.
    private static func envelope(digest: [UInt8], algorithm: Int64 = -16, sequence: UInt64 = 3) -> [UInt8] {
        let pair = encode(.array([.int(algorithm), .bytes(digest)]))
        let manifest = encode(.map([.unsigned(1): .unsigned(1), .unsigned(2): .unsigned(sequence)]))
        return encode(.tagged(107, .map([.unsigned(2): .bytes(encode(.array([.bytes(pair)]))), .unsigned(3): .bytes(manifest)])))
    }

    private let digest = [UInt8](repeating: 0x5A, count: 32)

    private func suitPackage(caches: Bool = true) throws -> SUITUpgradePackage {
        let root = Self.envelope(digest: digest)
        var entries = [#"{"type": "suit-envelope", "file": "root.suit"}"#, #"{"type": "bin", "file": "App.BIN"}"#]
        var files: [(String, [UInt8])] = [("root.suit", root), ("App.BIN", [1, 2, 3])]
        if caches {
            entries.append(#"{"type": "cache", "file": "cache_2.bin", "partition": 2}"#)
            files.append(("cache_2.bin", [9, 9]))
        }
        let manifest = #"{"format-version": 1, "files": ["# + entries.joined(separator: ", ") + "]}"
        let data = try PackageFixtures.package(manifest: manifest, files: files)
        return try SUITUpgradePackage(PackageFixtures.open(data, name: "dfu_suit.zip"))
    }

    private func device(bootloader: String? = "SUIT", appRootDigest: [UInt8] = [UInt8](repeating: 1, count: 32)) -> SUITDeviceState {
        SUITDeviceState(
            parameters: MCUmgrParameters(bufferSize: 2048, bufferCount: 4), bootloaderName: bootloader,
            manifests: [
                SUITDeviceState.Manifest(role: .secureTop, state: SUITManifestState(digest: [UInt8](repeating: 2, count: 32), sequenceNumber: 1)),
                SUITDeviceState.Manifest(role: .applicationRoot, state: SUITManifestState(digest: appRootDigest, sequenceNumber: 2)),
            ])
    }

    func testCachesComeFirstAndDeferTheInstall() throws {
        let package = try suitPackage()
        XCTAssertEqual(package.caches.map(\.partition), [2])
        let plan = try SUITUpgradePlanner.plan(package: package, device: device(), options: UpgradeOptions())
        XCTAssertEqual(plan.steps.map(\.name), ["upload-cache", "upload-envelope", "process", "serve-resources", "wait", "verify-manifest"])
        XCTAssertEqual(plan.steps[1], .uploadEnvelope(package.envelopeFile, deferInstall: true))
        XCTAssertEqual(plan.steps.last, .verify(digest: digest, sequenceNumber: 3))
        XCTAssertNil(plan.installedAs)
        XCTAssertEqual(plan.notes, [])
    }

    func testWithoutCachesTheEnvelopeIsProcessedAtOnce() throws {
        let plan = try SUITUpgradePlanner.plan(package: try suitPackage(caches: false), device: device(), options: UpgradeOptions(mode: .confirmOnly))
        XCTAssertEqual(plan.steps.map(\.name), ["upload-envelope", "serve-resources", "wait", "verify-manifest"])
        XCTAssertEqual(plan.notes.count, 1, "the mode does not apply: \(plan.notes)")
    }

    func testAnInstalledDigestMeansNothingToDo() throws {
        let plan = try SUITUpgradePlanner.plan(package: try suitPackage(), device: device(appRootDigest: digest), options: UpgradeOptions())
        XCTAssertTrue(plan.isNothingToDo)
        XCTAssertEqual(plan.installedAs, .applicationRoot)
    }

    func testAnotherBootloaderIsRefused() throws {
        for bootloader in ["MCUboot", nil] {
            XCTAssertThrowsError(try SUITUpgradePlanner.plan(package: try suitPackage(), device: device(bootloader: bootloader), options: UpgradeOptions())) { error in
                XCTAssertEqual(error as? UpgradePlanError, .notSUITDevice(bootloader: bootloader))
            }
        }
        XCTAssertTrue(UpgradePlanError.notSUITDevice(bootloader: "MCUboot").description.contains("\"MCUboot\", not SUIT"))
    }

    func testResourcesMatchFileURIsCaseInsensitively() throws {
        let package = try suitPackage()
        XCTAssertEqual(package.resource(for: SUITResourceRequest(sessionID: 1, resourceID: "file://app.bin"))?.bytes, [1, 2, 3])
        XCTAssertEqual(package.resource(for: SUITResourceRequest(sessionID: 1, resourceID: "FILE://APP.bin"))?.fileName, "App.BIN")
        XCTAssertNil(package.resource(for: SUITResourceRequest(sessionID: 1, resourceID: "file://other.bin")))
        XCTAssertNil(package.resource(for: SUITResourceRequest(sessionID: 1, resourceID: "http://x/app.bin")))
    }

    func testMCUbootFilesAndOtherDigestsAreRefused() throws {
        let image = try PackageFixtures.open(Data(PackageFixtures.image()), name: "app.bin")
        XCTAssertThrowsError(try SUITUpgradePackage(image)) { XCTAssertEqual($0 as? UpgradePlanError, .notSUIT) }
        let sha512 = try PackageFixtures.open(Data(Self.envelope(digest: [UInt8](repeating: 1, count: 64), algorithm: -44)), name: "x.suit")
        XCTAssertThrowsError(try SUITUpgradePackage(sha512)) { error in
            XCTAssertEqual(error as? UpgradePlanError, .suitDigest(fileName: "x.suit", found: "a sha-512 digest"))
        }
        XCTAssertThrowsError(try MCUbootUpgradeImage.images(in: try PackageFixtures.open(Data(Self.envelope(digest: digest)), name: "root.suit"))) {
            XCTAssertEqual($0 as? UpgradePlanError, .suitNotSupported)
        }
    }
}
