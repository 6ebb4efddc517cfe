import Crypto
import Foundation
import Logging
import NordicDFU
import SMP
import SMPFirmware
import SMPSimulator
import XCTest

/// Packages from the independent encoder installed through the whole upgrade (``NordicDFUUpgrade``,
/// ``SecureDFUBootloader``, the serial transport) on the virtual bootloader over a real
/// pseudo-terminal, which checks them as the nRF5 SDK's does (``SecureDFUValidation``).
final class SecureDFUPackageUpgradeTests: XCTestCase {
    private let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    private struct Bench {
        let server: SecureDFUPTYServer
        let path: String
        let set: GeneratedNordicPackages
    }

    private func start(key: String? = "public.pem", softDeviceID: UInt32 = 0xB7) async throws -> Bench {
        let set = try GeneratedNordicPackages.load()
        let publicKey = try key.map { try P256.Signing.PublicKey(pemRepresentation: String(contentsOfFile: set.path($0), encoding: .utf8)) }
        let validation = SecureDFUValidation(publicKey: publicKey, softDeviceID: softDeviceID)
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-dfu")
        let server = SecureDFUPTYServer(target: SecureDFUTarget(configuration: validation.configuration()), linkPath: link)
        return Bench(server: server, path: try await server.start(), set: set)
    }

    private func upgrade(_ bench: Bench, _ name: String, events: @escaping @Sendable (UpgradeEvent) -> Void = { _ in }) async throws -> NordicDFUUpgradeReport {
        let package = try NordicDFUPackage(contentsOf: bench.set.path(name))
        let path = bench.path
        let quiet = quiet
        let upgrade = NordicDFUUpgrade(connect: {
            SecureDFUBootloader(transport: try await SecureDFUSerialTransport.open(path: path, logger: quiet))
        }, events: events)
        return try await upgrade.run(package.images.map(DFUUpgradeImage.init))
    }

    func testASignedPackageInstallsAndTheBootloaderHoldsExactlyItsImage() async throws {
        let bench = try await start()
        let report = try await upgrade(bench, "secure-signed.zip")
        let package = try NordicDFUPackage(contentsOf: bench.set.path("secure-signed.zip"))
        let installed = await bench.server.target.installed
        XCTAssertEqual(installed.map(\.firmware), package.images.map(\.firmware))
        XCTAssertEqual(installed.map(\.initPacket), package.images.map { $0.initPacket.bytes ?? [] })
        XCTAssertEqual(report.uploads.map(\.progress.acknowledged), [5003])
        XCTAssertEqual(report.plan.summary, "plan (Nordic Secure DFU): 1 image")
        await bench.server.stop()
    }

    func testAMultiImagePackageGoesInTheSDKsOrderWithTheBootloaderFoundAgainBetween() async throws {
        let bench = try await start()
        let steps = Journal()
        let report = try await upgrade(bench, "secure-multi.zip") { event in
            if case .stepStarted(let step, let index, let count) = event { steps.append("[\(index)/\(count)] \(step.summary)") }
        }
        XCTAssertEqual(steps.all, [
            "[1/3] send the SoftDevice and bootloader sd_bl.bin (6000 bytes) and its init packet [1/2]",
            "[2/3] wait for the bootloader to answer again after installing the SoftDevice and bootloader",
            "[3/3] send the application app.bin (5003 bytes) and its init packet [2/2]",
        ])
        let installed = await bench.server.target.installed
        XCTAssertEqual(installed.map(\.firmware.count), [6000, 5003])
        XCTAssertEqual(report.finalSummaries, ["installed: SoftDevice and bootloader, application; the bootloader starts the new application"])
        await bench.server.stop()
    }

    func testTheBootloaderRefusesWhatItsChecksRuleOutWithNamedErrors() async throws {
        // Signed with another key than the bootloader's; unsigned where a key is required; built
        // for another SoftDevice; older than the installed application (version 3 after 7: the
        // package's SoftDevice and bootloader go in first).
        let cases: [(key: String?, softDevice: UInt32, first: String?, package: String, refusal: SecureDFUExtendedError, installs: Int)] = [
            ("other-public.pem", 0xB7, nil, "secure-signed.zip", .verificationFailed, 0),
            ("public.pem", 0xB7, nil, "secure-unsigned.zip", .signatureMissing, 0),
            (nil, 0xAF, nil, "secure-signed.zip", .softDeviceVersionMismatch, 0),
            (nil, 0xB7, "secure-signed.zip", "secure-multi.zip", .firmwareVersionTooLow, 1),
        ]
        for item in cases {
            let bench = try await start(key: item.key, softDeviceID: item.softDevice)
            if let first = item.first { _ = try await upgrade(bench, first) }
            let before = await bench.server.target.installed.count
            do {
                _ = try await upgrade(bench, item.package)
                XCTFail("\(item.package) must be refused with \(item.refusal)")
            } catch let error as UpgradeError {
                let failure = try XCTUnwrap(error.underlying as? SecureDFUError, "\(error)")
                XCTAssertEqual(failure.kind, .refused(.extendedError, extendedErrorCode: item.refusal.rawValue), "\(item.package): \(failure)")
                XCTAssertEqual(failure.hint, item.refusal.hint)
                XCTAssertNil(error.hint, "a refusal keeps the bootloader's own hint: running again meets it again")
            }
            let after = await bench.server.target.installed.count
            XCTAssertEqual(after - before, item.installs, "\(item.package): nothing refused is installed")
            await bench.server.stop()
        }
    }
}
