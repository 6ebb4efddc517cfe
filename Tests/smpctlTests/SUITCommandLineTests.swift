import Foundation
import SMP
import SMPSimulator
import XCTest

/// `smpctl suit …` against the virtual SUIT device: manifests, state, poll, uploads, cleanup,
/// human output and JSON.
final class SUITCommandLineTests: XCTestCase {
    func testManifestsAndState() async throws {
        let served = try await startDevice(SUITFiles.device())
        let table = try await SMPCtl.run(["suit", "manifests", "-c", served.endpoint])
        assertExit(table, 0)
        let lines = table.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first.map(String.init), "ROLE  NAME         SEQUENCE  VERSION  DIGEST")
        XCTAssertTrue(lines.contains { $0.hasPrefix("0x20  app-root            1  1.0.0    d1d1") }, table.stdout)
        let json = try await SMPCtl.run(["suit", "manifests", "--json", "-c", served.endpoint])
        let manifests = try XCTUnwrap(try json.jsonDocument()["manifests"]?.array)
        XCTAssertEqual(manifests.compactMap { $0["role"]?.int }, [0x10, 0x20, 0x22])
        XCTAssertEqual(manifests[1]["digestAlgorithm"]?.string, "sha-256")

        let state = try await SMPCtl.run(["suit", "state", "app-root", "-c", served.endpoint])
        assertExit(state, 0)
        XCTAssertTrue(state.stdout.contains("role:                      app-root (0x20)"), state.stdout)
        XCTAssertTrue(state.stdout.contains("sequence number:           1"), state.stdout)
        let byNumber = try await SMPCtl.run(["suit", "state", "0x22", "--json", "-c", served.endpoint])
        XCTAssertEqual(try byNumber.jsonDocument()["roleName"]?.string, "app-local-1")
        let unknown = try await SMPCtl.run(["suit", "state", "0x40", "-c", served.endpoint])
        assertExit(unknown, 2)
        assertStderr(unknown, contains: "suit manifest state", "MGMT_ERR_EINVAL")
        let bad = try await SMPCtl.run(["suit", "state", "root", "-c", served.endpoint])
        assertExit(bad, 64)
        assertStderr(bad, contains: "root is not a manifest role")
    }

    func testStepByStepUploadWithCachesDeferredInstallAndResources() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let cache = try SUITFiles.file("dfu_cache_partition_1.bin")
        let served = try await startDevice(SUITFiles.device())
        let cached = try await SMPCtl.run(["suit", "cache-upload", "--partition", "1", cache.path, "--json", "-c", served.endpoint])
        assertExit(cached, 0)
        let cacheDone = try XCTUnwrap(try jsonLines(cached).last)
        XCTAssertEqual(cacheDone["partition"]?.int, 1)
        XCTAssertEqual(cacheDone["size"]?.int, cache.size)
        let wrongPartition = try await SMPCtl.run(["suit", "cache-upload", "--partition", "7", cache.path, "-c", served.endpoint])
        assertExit(wrongPartition, 2)

        let deferred = try await SMPCtl.run(["suit", "upload", package.path, "--defer-install", "-c", served.endpoint])
        assertExit(deferred, 0)
        XCTAssertTrue(deferred.stdout.contains("uploaded root.suit"), deferred.stdout)
        let idle = try await SMPCtl.run(["suit", "poll", "-c", served.endpoint])
        XCTAssertEqual(idle.stdout, "the device asks for no resource\n")
        let process = try await SMPCtl.run(["suit", "upload", "--process", "-c", served.endpoint])
        assertExit(process, 0)
        let poll = try await SMPCtl.run(["suit", "poll", "--json", "-c", served.endpoint])
        let wanted = try poll.jsonDocument()
        XCTAssertEqual(wanted["resource"]?.string, "file://app.bin")
        XCTAssertEqual(wanted["requested"]?.bool, true)
        let cleanup = try await SMPCtl.run(["suit", "cleanup", "-c", served.endpoint])
        assertExit(cleanup, 0)
        let group = await served.device.suitGroup
        XCTAssertEqual(group?.caches.isEmpty, true)
        let afterCleanup = try await SMPCtl.run(["suit", "poll", "--json", "-c", served.endpoint])
        XCTAssertEqual(try afterCleanup.jsonDocument()["requested"]?.bool, false, "cleanup abandons the processing")

        let served2 = try await startDevice(SUITFiles.device())
        let upload = try await SMPCtl.run(["suit", "upload", package.path, "--json", "-c", served2.endpoint], timeout: 60)
        assertExit(upload, 0)
        let done = try XCTUnwrap(try jsonLines(upload).last)
        XCTAssertEqual(done["resources"]?.array?.compactMap(\.string), ["file://app.bin", "file://Rad.BIN"])
        XCTAssertEqual(done["deviceRestarts"]?.bool, true)
        let installs = await served2.device.suitGroup?.installCount
        XCTAssertEqual(installs, 1)
    }

    func testUploadUsageAndDataErrors() async throws {
        let served = try await startDevice(SUITFiles.device())
        let neither = try await SMPCtl.run(["suit", "upload", "-c", served.endpoint])
        assertExit(neither, 64)
        assertStderr(neither, contains: "give either FILE or --process")
        let notSUIT = try PackageTestFiles()
        defer { notSUIT.remove() }
        let image = try notSUIT.write("app.bin", PackageTestFiles.image(version: (1, 0, 0, 0)))
        let refused = try await SMPCtl.run(["suit", "upload", image, "-c", served.endpoint])
        assertExit(refused, 65)
        assertStderr(refused, contains: "not a SUIT envelope or SUIT package")
        let empty = try notSUIT.write("cache.bin", [])
        let emptyCache = try await SMPCtl.run(["suit", "cache-upload", "--partition", "1", empty, "-c", served.endpoint])
        assertExit(emptyCache, 65)
        assertStderr(emptyCache, contains: "cache.bin is empty")
        let missingCache = try await SMPCtl.run(["suit", "cache-upload", "--partition", "1", empty + ".missing", "-c", served.endpoint])
        assertExit(missingCache, 65)
        assertStderr(missingCache, contains: "No such file or directory", "check the local path")
        let noTrigger = try await SMPCtl.run(["suit", "upload", "--process", "-c", served.endpoint])
        assertExit(noTrigger, 2)
        assertStderr(noTrigger, contains: "MGMT_ERR_EBADSTATE")
    }

    func testSimulateSUITServesASUITDeviceAnUpgradeInstallsOn() async throws {
        let package = try SUITFiles.file("dfu_suit.zip")
        let (simulator, endpoint) = try await startSimulateProcess(["--suit", "--boot-time", "200", "--suit-chunk-timeout", "5"])
        let bootloader = try await SMPCtl.run(["os", "bootloader", "--json", "-c", endpoint])
        XCTAssertEqual(try bootloader.jsonDocument()["bootloader"]?.string, "SUIT")
        let images = try await SMPCtl.run(["image", "list", "-c", endpoint])
        assertExit(images, 2)
        assertStderr(images, contains: "MGMT_ERR_ENOTSUP")
        let upgrade = try await SMPCtl.run(["upgrade", package.path, "-c", endpoint], timeout: 60)
        assertExit(upgrade, 0)
        let state = try await SMPCtl.run(["suit", "state", "app-root", "--json", "-c", endpoint])
        XCTAssertEqual(try state.jsonDocument()["digest"]?.string, package.digest)
        let invalid = try await SMPCtl.run(["simulate", "--suit", "--suit-chunk-timeout", "0"])
        assertExit(invalid, 64)
        simulator.send(SIGINT)
        _ = await simulator.waitForExit(timeout: 5)
    }
}
