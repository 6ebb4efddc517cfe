import Foundation
import SMPSimulator
import XCTest

/// `smpctl upgrade` end to end over UDP against the virtual device, with real imgtool images, in
/// every mode.
final class UpgradeCommandTests: XCTestCase {
    func testTestAndConfirmInstallsConfirmsAndReportsEachStep() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "-c", served.endpoint])
        assertExit(run, 0)
        for step in ["upload image 0", "mark image 0 for test", "reset the device", "wait for the device", "confirm image 0"] {
            XCTAssertTrue(run.stderr.contains(step), "no step \"\(step)\"\n\(run)")
        }
        XCTAssertTrue(run.stdout.contains("upgraded with \(app.path)"), run.stdout)
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
        let activeHash = try await listedHash(served, slot: 0)
        XCTAssertEqual(activeHash, app.hash)
        let holds = try await slotHolds(served, slot: 0, file: app.path)
        XCTAssertTrue(holds, "the running slot holds exactly the file")
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 1)

        let again = try await SMPCtl.run(["upgrade", app.path, "-c", served.endpoint])
        assertExit(again, 0)
        XCTAssertTrue(again.stdout.contains("nothing to do"), "\(again)")
        let resetsAfter = await served.device.resetCount
        XCTAssertEqual(resetsAfter, 1, "nothing to do means no reset")
    }

    func testConfirmOnlyMakesTheImagePermanentBeforeTheReset() async throws {
        let app = try UpgradeFiles.file("app-v3-signed")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "--mode", "confirm-only", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertFalse(run.stderr.contains("mark image 0 for test"), run.stderr)
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 3.0.0.7 ac", "0/1 1.0.0 "])
    }

    func testTestOnlyLeavesTheImageUnconfirmedSoThatAResetReverts() async throws {
        let app = try UpgradeFiles.file("app-v4-h20")
        let served = try await startDevice(UpgradeFiles.device(resetDelay: .zero))
        let run = try await SMPCtl.run(["upgrade", app.path, "--mode", "test-only", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertTrue(run.stdout.contains("must confirm itself"), run.stdout)
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 4.0.0 a", "0/1 1.0.0 c"])
        assertExit(try await SMPCtl.run(["os", "reset", "-c", served.endpoint]), 0)
        let reverted = try await listedSlots(served)
        XCTAssertEqual(reverted, ["0/0 1.0.0 ac", "0/1 4.0.0 "])
    }

    func testUploadOnlyNeitherMarksNorResets() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "--mode", "upload-only", "-c", served.endpoint])
        assertExit(run, 0)
        let listed = try await listedHash(served, slot: 1)
        let hash = try XCTUnwrap(listed)
        XCTAssertTrue(
            run.stdout.contains("next: mark the image with `smpctl image test \(hash) -c \(served.endpoint)` (or image confirm, to keep it), "
                + "then `smpctl os reset -c \(served.endpoint)`"), run.stdout)
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 1.0.0 ac", "0/1 2.0.0 "])
        let resets = await served.device.resetCount
        XCTAssertEqual(resets, 0)
        let holds = try await slotHolds(served, slot: 1, file: app.path)
        XCTAssertTrue(holds)

        // The next run finds it uploaded: it marks, resets and confirms without sending it again.
        let finish = try await SMPCtl.run(["upgrade", app.path, "--json", "-c", served.endpoint])
        assertExit(finish, 0)
        let events = try jsonLines(finish)
        XCTAssertEqual(events.first { $0["event"]?.string == "plan" }?["images"]?[0]?["action"]?.string, "already-uploaded")
        XCTAssertFalse(events.contains { $0["step"]?.string == "upload" }, finish.stdout)
        let slotsAfter = try await listedSlots(served)
        XCTAssertEqual(slotsAfter, ["0/0 2.0.0 ac", "0/1 1.0.0 "])
    }

    func testDryRunPrintsThePlanAndChangesNothing() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "--dry-run", "--json", "-c", served.endpoint])
        assertExit(run, 0)
        let events = try jsonLines(run)
        let kinds: [String] = events.map { $0["event"]?.string ?? "?" }
        XCTAssertEqual(kinds, ["device", "plan"])
        let plan = try XCTUnwrap(events.last)
        let steps: [String] = (plan["steps"]?.array ?? []).map { $0["step"]?.string ?? "?" }
        XCTAssertEqual(steps, ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        XCTAssertEqual(plan["images"]?[0]?["imageHash"]?.string, app.hash)
        let requests = await served.device.statistics.requests
        XCTAssertLessThanOrEqual(requests, 4, "params, bootloader name and mode, image list: reads only")
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 1.0.0 ac"])
    }

    func testJSONLinesNameEveryStepAndEndWithTheResult() async throws {
        let app = try UpgradeFiles.file("app-v2")
        let served = try await startDevice(UpgradeFiles.device())
        let run = try await SMPCtl.run(["upgrade", app.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        XCTAssertEqual(run.stderr, "")
        let events = try jsonLines(run)
        let kinds = Set(events.compactMap { $0["event"]?.string })
        XCTAssertEqual(kinds, ["device", "plan", "step", "progress", "done"])
        XCTAssertEqual(startedSteps(events), ["upload", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        let progress = events.filter { $0["event"]?.string == "progress" }
        XCTAssertEqual(progress.last?["acknowledged"]?.int, app.size)
        XCTAssertEqual(progress.last?["image"]?.int, 0)
        let done = try XCTUnwrap(events.last)
        XCTAssertEqual(done["event"]?.string, "done")
        XCTAssertEqual(done["uploads"]?[0]?["match"]?.bool, true)
        XCTAssertEqual(done["images"]?[0]?["imageHash"]?.string, app.hash)
        XCTAssertEqual(done["images"]?[0]?["confirmed"]?.bool, true)
    }

    func testNetworkCoreAndApplicationFromOnePackage() async throws {
        let package = try UpgradeFiles.file("multi.zip")
        let (app, net) = (try UpgradeFiles.file("app-v2"), try UpgradeFiles.file("net-v2"))
        let served = try await startDevice(UpgradeFiles.device(images: 2))
        let run = try await SMPCtl.run(["upgrade", package.path, "--json", "-c", served.endpoint])
        assertExit(run, 0)
        let events = try jsonLines(run)
        let progress = events.filter { $0["event"]?.string == "progress" }
        let uploads: [Int] = progress.compactMap { $0["image"]?.int }
        XCTAssertEqual(uploads.first, 1, "the network core goes first")
        XCTAssertEqual(uploads.last, 0)
        XCTAssertEqual(startedSteps(events), ["upload", "upload", "confirm", "test", "reset", "wait", "verify-running", "confirm", "verify-confirmed"])
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 2.0.0 ac", "0/1 1.0.0 ", "1/0 2.0.0.3 ac", "1/1 1.0.0 "])
        let appHash = try await listedHash(served, image: 0, slot: 0)
        let netHash = try await listedHash(served, image: 1, slot: 0)
        XCTAssertEqual([appHash, netHash], [app.hash, net.hash])
    }

    func testRefusalsComeBeforeAnythingIsWritten() async throws {
        let old = try UpgradeFiles.file("app-v1")
        var configuration = UpgradeFiles.device()
        configuration.noDowngrade = true
        let served = try await startDevice(configuration)
        // smpctl's own refusal from what it read (exit 4 `refused`), not the device's error (2); --dry-run alike.
        for dryRun in [[], ["--dry-run"]] {
            let run = try await SMPCtl.run(["upgrade", old.path, "--json", "-c", served.endpoint] + dryRun)
            assertExit(run, 4)
            let error = try XCTUnwrap(try jsonLines(run).last?["error"], "the last JSON line is the error document\n\(run)")
            XCTAssertEqual(error["name"]?.string, "refused")
            XCTAssertEqual(error["code"]?.int, 4)
            let message = try XCTUnwrap(error["message"]?.string)
            XCTAssertTrue(message.hasPrefix("cannot upgrade: "), message)
            XCTAssertTrue(message.contains("not newer than the running 1.0.0; the bootloader refuses downgrades"), message)
        }
        let slots = try await listedSlots(served)
        XCTAssertEqual(slots, ["0/0 1.0.0 ac"])

        let corrupt = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-corrupt-\(UUID().uuidString).bin")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try UpgradeFiles.file("app-v2").path)))
        bytes[1000] ^= 0xFF
        try Data(bytes).write(to: corrupt)
        addTeardownBlock { try? FileManager.default.removeItem(at: corrupt) }
        let planned = await served.device.statistics.requests
        let damaged = try await SMPCtl.run(["upgrade", corrupt.path, "-c", served.endpoint])
        assertExit(damaged, 65)
        assertStderr(damaged, contains: "not a valid MCUboot image", "hash")
        let requests = await served.device.statistics.requests
        XCTAssertLessThanOrEqual(requests - planned, 3, "a damaged file never reaches the device")
    }

    /// A file without the MCUboot magic gets the same advice whether it is a raw binary or Intel
    /// HEX: it is probably unsigned, give the signed image, made by the build or `imgtool sign`.
    func testAnUnsignedBinaryIsExplainedLikeAnUnsignedHex() async throws {
        let served = try await startDevice(UpgradeFiles.device())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("smpctl-unsigned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let code = [UInt8]([0x00, 0x10, 0x00, 0x20, 0xC1, 0x04, 0x00, 0x00]) + [UInt8](repeating: 0x55, count: 248)
        let bin = folder.appendingPathComponent("zephyr.bin")
        try Data(code).write(to: bin)
        let hex = folder.appendingPathComponent("zephyr.hex")
        let records = stride(from: 0, to: code.count, by: 16).map { offset in
            let record = [UInt8(16), UInt8(offset >> 8), UInt8(offset & 0xFF), 0] + code[offset..<(offset + 16)]
            let checksum = UInt8(truncatingIfNeeded: 256 - Int(record.reduce(UInt8(0), &+)))
            return ":" + (record + [checksum]).map { String(format: "%02X", $0) }.joined()
        }
        try ((records + [":00000001FF"]).joined(separator: "\n") + "\n").write(to: hex, atomically: true, encoding: .utf8)
        for (file, ext) in [(bin, "bin"), (hex, "hex")] {
            let run = try await SMPCtl.run(["upgrade", file.path, "-c", served.endpoint])
            assertExit(run, 65)
            let advice = "is it unsigned (zephyr.\(ext)) or the bootloader itself? give the signed image (zephyr.signed.\(ext), made by the build or by `imgtool sign`)"
            XCTAssertEqual(run.stderr.components(separatedBy: advice).count, 2, "said once:\n\(run)")
        }
    }
}
