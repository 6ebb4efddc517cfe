import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl upgrade` with SUIT envelopes and dfu_suit.zip packages against the virtual SUIT device,
/// over UDP and a pty serial link: caches, deferred install, resources on request, restart, digest
/// check, already installed, missing resources, refusals, wrong bootloaders, interruption.
final class SUITUpgradeTests: XCTestCase {
    private func appRoot(_ served: VirtualDevice) async -> SUITManifestState? {
        await served.suitGroup?.manifests.first { $0.role == .applicationRoot }?.state
    }

    func testPackageUpgradeServesCachesAndResourcesThenChecksTheDigest() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let served = try await startDevice(SUITFiles.device())
        let run = try await SMPCtl.run(["upgrade", package.path, "--json", "-c", served.endpoint], timeout: 60)
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertEqual(
            startedSteps(events), ["upload-cache", "upload-envelope", "process", "serve-resources", "wait", "verify-manifest"])
        XCTAssertEqual(events.filter { $0["event"]?.string == "resource" }.compactMap { $0["resource"]?.string }, ["file://app.bin", "file://Rad.BIN"])
        XCTAssertEqual(events.filter { $0["event"]?.string == "resource" }.compactMap { $0["file"]?.string }, ["app.bin", "rad.bin"], "matched case-insensitively")
        let done = try XCTUnwrap(events.last)
        XCTAssertEqual(done["event"]?.string, "done")
        XCTAssertEqual(done["installed"]?.bool, true)
        XCTAssertEqual(done["uploads"]?.array?.count, 4, "cache, envelope, two resources")
        let root = done["manifests"]?.array?.first { $0["roleName"]?.string == "app-root" }
        XCTAssertEqual(root?["digest"]?.string, package.digest)
        XCTAssertEqual(root?["sequenceNumber"]?.int, 3)
        let group = await served.device.suitGroup
        let cache = try Data(contentsOf: URL(fileURLWithPath: try SUITFiles.file("dfu_cache_partition_1.bin").path))
        XCTAssertEqual(group?.caches[1], [UInt8](cache))
        let app = try Data(contentsOf: URL(fileURLWithPath: try SUITFiles.file("app.bin").path))
        XCTAssertEqual(group?.receivedResources["file://app.bin"], [UInt8](app))
        XCTAssertEqual(group?.installCount, 1)
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1, "the device restarted on its own; smpctl sent no reset")

        let again = try await SMPCtl.run(["upgrade", package.path, "-c", served.endpoint], timeout: 60)
        assertExit(again, 0)
        XCTAssertTrue(again.stdout.contains("nothing to do; already installed (app-root (0x20)"), again.stdout)
        let installs = await served.device.suitGroup?.installCount
        XCTAssertEqual(installs, 1, "nothing sent again")
    }

    /// A device that restarts so fast that no poll goes unanswered: the manifest's digest shows the
    /// install, so smpctl neither polls out its window nor resets the device itself.
    func testAnInstallWithoutSilenceIsSeenInTheManifests() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let served = try await startDevice(SUITFiles.device(bootTime: .zero))
        let run = try await SMPCtl.run(["upgrade", package.path, "--json", "--suit-poll-window", "30", "-c", served.endpoint], timeout: 20)
        assertExit(run, 0)
        let events = try jsonLines(run)
        XCTAssertTrue(events.contains { $0["message"]?.string == "the device has installed the envelope and is running again" }, run.stdout)
        XCTAssertEqual(try XCTUnwrap(events.last)["installed"]?.bool, true)
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1, "the device's own restart; smpctl sent no reset")
    }

    func testEnvelopeAloneInstallsAndTheTextSaysSo() async throws {
        let envelope = try SUITFiles.file("plain-seq4.suit")
        let served = try await startDevice(SUITFiles.device())
        let run = try await SMPCtl.run(["upgrade", envelope.path, "-c", served.endpoint], timeout: 60)
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("upgraded with \(envelope.path)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("app-root (0x20): sequence 4"), run.stdout)
        let state = await appRoot(served.device)
        XCTAssertEqual(state?.digest.map { Hex.string($0) }, envelope.digest)
        XCTAssertEqual(state?.sequenceNumber, 4)
    }

    func testDryRunShowsTheSUITPlanAndChangesNothing() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let served = try await startDevice(SUITFiles.device())
        let run = try await SMPCtl.run(["upgrade", package.path, "--dry-run", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("plan (SUIT): envelope root.suit"), run.stdout)
        XCTAssertTrue(run.stdout.contains("upload cache dfu_cache_partition_1.bin (5000 bytes) to partition 1"), run.stdout)
        XCTAssertTrue(run.stdout.contains("install deferred"), run.stdout)
        XCTAssertTrue(run.stdout.contains("(dry run: nothing was changed)"), run.stdout)
        let json = try await SMPCtl.run(["upgrade", package.path, "--dry-run", "--json", "-c", served.endpoint])
        let plan = try XCTUnwrap(try jsonLines(json).last)
        XCTAssertEqual(plan["event"]?.string, "plan")
        XCTAssertEqual(plan["digest"]?.string, package.digest)
        let group = await served.device.suitGroup
        XCTAssertEqual(group?.caches.isEmpty, true)
        XCTAssertEqual(group?.installCount, 0)
    }

    func testAResourceThePackageLacksIsNamed() async throws {
        let package = try SUITFiles.file("missing.zip")
        let served = try await startDevice(SUITFiles.device())
        let run = try await SMPCtl.run(["upgrade", package.path, "-c", served.endpoint], timeout: 60)
        assertExit(run, 65)
        assertStderr(run, contains: "file://extra.bin", "which the package does not hold", "file://app.bin, file://rad.bin")
        let installs = await served.device.suitGroup?.installCount
        XCTAssertEqual(installs, 0)
    }

    func testTheDeviceRefusesADamagedEnvelope() async throws {
        let envelope = try SUITFiles.file("bad-digest.suit")
        let served = try await startDevice(SUITFiles.device())
        let run = try await SMPCtl.run(["upgrade", envelope.path, "-c", served.endpoint], timeout: 60)
        assertExit(run, 2)
        assertStderr(run, contains: "upload the SUIT envelope bad-digest.suit", "MGMT_ERR_EINVAL", "the device refused the envelope")
    }

    func testWrongBootloadersAreRefusedBeforeAnythingIsWritten() async throws {
        let envelope = try SUITFiles.file("app-seq2.suit")
        let mcuboot = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", envelope.path, "-c", mcuboot.endpoint])
        assertExit(run, 4)
        assertStderr(run, contains: "cannot upgrade", "the device's bootloader is \"MCUboot\", not SUIT", "dfu_application.zip")
        let written = await mcuboot.device.slotContents(1)
        XCTAssertEqual(written, [])

        let image = try UpgradeFiles.file("app-v2")
        let suit = try await startDevice(SUITFiles.device())
        let refused = try await SMPCtl.run(["upgrade", image.path, "-c", suit.endpoint])
        assertExit(refused, 4)
        assertStderr(refused, contains: "the device's bootloader is SUIT", "dfu_suit.zip")
        let requests = await suit.device.statistics.requests
        XCTAssertLessThanOrEqual(requests, 2, "parameters and bootloader name only")
    }

    func testAnInterruptedUpgradeFinishesWhenRunAgain() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let served = try await startDevice(SUITFiles.device(), faults: FaultInjection(delay: 1, delayDuration: .milliseconds(40)))
        let arguments = ["upgrade", package.path, "--json", "--window", "1", "-c", served.endpoint]
        let first = try BackgroundProcess(smpctl: arguments)
        addTeardownBlock { first.stop() }
        let serving = await first.waitForLine { $0.contains("\"event\":\"resource\"") }
        XCTAssertNotNil(serving, "the device asked for a resource\n\(first.stdout)\n\(first.stderr)")
        first.send(SIGINT)
        let status = await first.waitForExit()
        XCTAssertEqual(status, 130, first.stderr)
        XCTAssertTrue(first.stderr.contains("smpctl upgrade \(package.path)"), first.stderr)
        var installs = await served.device.suitGroup?.installCount
        XCTAssertEqual(installs, 0)

        await served.device.setFaultInjection(.none)
        let second = try await SMPCtl.run(arguments, timeout: 60)
        assertExit(second, 0)
        installs = await served.device.suitGroup?.installCount
        XCTAssertEqual(installs, 1)
        let state = await appRoot(served.device)
        XCTAssertEqual(state?.sequenceNumber, 3)
        let requested = await served.device.suitGroup?.requestedResources ?? []
        XCTAssertEqual(requested.filter { $0 == "file://app.bin" }.count, 2, "asked again after the new envelope: \(requested)")
    }

    func testPackageUpgradeOverASerialLink() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let served = try await startSerialDevice(SUITFiles.device(bufferSize: 384))
        let run = try await SMPCtl.run(["upgrade", package.path, "-c", served.connection], timeout: 120)
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("resources served: file://app.bin, file://Rad.BIN"), run.stdout)
        let state = await served.device.suitGroup?.manifests.first { $0.role == .applicationRoot }?.state
        XCTAssertEqual(state?.digest.map { Hex.string($0) }, package.digest)
    }
}
