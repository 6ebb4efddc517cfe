import CBOR
import SMP
import SMPSimulator
import XCTest

/// `smpctl image list|test|confirm|erase|slots` against a virtual device with the image group:
/// an image uploaded with raw upload chunks, then the whole test → reset → confirm → erase flow.
final class ImageCommandTests: XCTestCase {
    private let newHash = [UInt8](repeating: 0x5A, count: 32)
    private var newHashHex: String { Hex.string(newHash) }
    private let runningHashHex = Hex.string(SimulatedImageConfiguration.initialHash(image: 0))

    private var imageDevice: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = SimulatedImageConfiguration(slotSize: 16 * 1024)
        configuration.resetDelay = .zero
        return configuration
    }

    /// A version 2.1.3 image built by hand: 32-byte header, 200-byte body, SHA-256 TLV.
    private var imageFile: [UInt8] {
        var file: [UInt8] = [0x3D, 0xB8, 0xF3, 0x96, 0, 0, 0, 0, 32, 0, 0, 0, 200, 0, 0, 0, 0, 0, 0, 0, 2, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        file += [UInt8](repeating: 0xC3, count: 200)
        file += [0x07, 0x69, 40, 0, 0x10, 0, 32, 0] + newHash
        return file
    }

    /// Uploads ``imageFile`` with ``ImageUploadChunk`` requests sized by their exact overhead.
    private func upload(to device: VirtualDevice) async throws {
        let file = imageFile
        var offset: UInt64 = 0
        var sequence: UInt8 = 0
        while offset < UInt64(file.count) {
            let first = offset == 0
            let overhead = ImageUploadChunk.overhead(offset: offset, dataLength: 96, length: first ? UInt64(file.count) : nil)
            let end = min(file.count, Int(offset) + 128 - overhead)
            let chunk = ImageUploadChunk(offset: offset, data: Array(file[Int(offset)..<end]), length: first ? UInt64(file.count) : nil)
            let header = SMPHeader(operation: .write, length: 0, group: .image, sequence: sequence, command: ImageCommandID.upload)
            let frame = SMPMessage(header: header, payload: chunk.request.payload).encoded()
            XCTAssertLessThanOrEqual(frame.count, 128)
            let responses = await device.handle(frame: frame)
            let response = try SMPMessage(decoding: try XCTUnwrap(responses.first))
            let next = try chunk.decodeResponse(response.payload).offset
            XCTAssertGreaterThan(next, offset)
            offset = next
            sequence &+= 1
        }
    }

    func testUploadTestResetConfirmErase() async throws {
        let served = try await startDevice(imageDevice)
        try await upload(to: served.device)

        let list = try await SMPCtl.run(["image", "list", "-c", served.endpoint])
        assertSuccess(list)
        XCTAssertTrue(list.stdout.contains("2.1.3"), list.stdout)
        XCTAssertTrue(list.stdout.contains("5a5a5a5a "), "short hash: \(list.stdout)")
        XCTAssertFalse(list.stdout.contains(newHashHex), "full hash only with -v")
        let verbose = try await SMPCtl.run(["image", "list", "-v", "-c", served.endpoint])
        XCTAssertTrue(verbose.stdout.contains(newHashHex), verbose.stdout)

        let test = try await SMPCtl.run(["image", "test", newHashHex, "-c", served.endpoint, "--json"])
        assertSuccess(test)
        let tested = try test.jsonDocument()
        XCTAssertEqual(tested["images"]?[1]?["pending"]?.bool, true)
        XCTAssertEqual(tested["images"]?[1]?["permanent"]?.bool, false)

        assertSuccess(try await SMPCtl.run(["os", "reset", "-c", served.endpoint]))
        let afterReset = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(afterReset["images"]?[0]?["version"]?.string, "2.1.3")
        XCTAssertEqual(afterReset["images"]?[0]?["active"]?.bool, true)
        XCTAssertEqual(afterReset["images"]?[0]?["confirmed"]?.bool, false)
        XCTAssertEqual(afterReset["images"]?[1]?["confirmed"]?.bool, true, "the revert target")

        let confirm = try await SMPCtl.run(["image", "confirm", "-c", served.endpoint])
        assertSuccess(confirm)
        XCTAssertTrue(confirm.stdout.contains("active,confirmed"), confirm.stdout)

        let erase = try await SMPCtl.run(["image", "erase", "--yes", "-c", served.endpoint])
        assertSuccess(erase)
        XCTAssertEqual(erase.stdout, "erased the slot opposite the running image\n")
        let final = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(final["images"]?.array?.count, 1)
        XCTAssertEqual(final["images"]?[0]?["imageHash"]?.string, newHashHex)
        XCTAssertEqual(final["splitStatus"]?.int, 0)
    }

    func testConfirmByVersionMakesItPermanent() async throws {
        let served = try await startDevice(imageDevice)
        try await upload(to: served.device)
        let run = try await SMPCtl.run(["image", "confirm", "v2.1.3.0", "--yes", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        let document = try run.jsonDocument()
        XCTAssertEqual(document["images"]?[1]?["permanent"]?.bool, true)
        XCTAssertEqual(document["images"]?[0]?["imageHash"]?.string, runningHashHex)
    }

    /// Making an image that is not running permanent skips the test and the revert: without a
    /// terminal it is refused (64) unless --yes, saying what it would mean; the running image is
    /// confirmed without a question.
    func testConfirmingAnImageThatIsNotRunningNeedsYesWithoutATerminal() async throws {
        let served = try await startDevice(imageDevice)
        try await upload(to: served.device)
        let refused = try await SMPCtl.run(["image", "confirm", "2.1.3", "-c", served.endpoint])
        assertExit(refused, 64)
        assertStderr(
            refused, contains: "error: refusing to make version 2.1.3 (image 0, slot 1, hash 5a5a5a5a) permanent without confirmation",
            "hint: it boots at the next reset and stays, with no test run and no revert if it fails; add --yes")
        let json = try await SMPCtl.run(["image", "confirm", "slot:1", "-c", served.endpoint, "--json"])
        try assertErrorDocument(json, name: "usage-error", code: 64, messageContains: ["without confirmation"])
        let list = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(list["images"]?[1]?["permanent"]?.bool, false, "nothing was marked")
        for running in [["slot:0"], [runningHashHex], []] {
            assertSuccess(try await SMPCtl.run(["image", "confirm"] + running + ["-c", served.endpoint]))
        }
    }

    /// On a terminal the question names the image and what confirming it means; only y goes on.
    func testConfirmingAnImageThatIsNotRunningAsksOnATerminal() async throws {
        let served = try await startDevice(imageDevice)
        try await upload(to: served.device)
        let question = "Make version 2.1.3 (image 0, slot 1, hash 5a5a5a5a) permanent? "
            + "(it boots at the next reset and stays, with no test run and no revert if it fails) [y/N]"
        let declined = try await answerConfirmation("n", on: served, expecting: question)
        XCTAssertEqual(declined, 130)
        let before = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(before["images"]?[1]?["permanent"]?.bool, false)

        let accepted = try await answerConfirmation("y", on: served, expecting: question)
        XCTAssertEqual(accepted, 0)
        let after = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"]).jsonDocument()
        XCTAssertEqual(after["images"]?[1]?["permanent"]?.bool, true)
    }

    /// Runs `image confirm 5a5a5a5a` on a terminal, waits for `question` and types `answer`;
    /// the exit status.
    private func answerConfirmation(_ answer: String, on served: ServedDevice, expecting question: String) async throws -> Int32? {
        let terminal = try TerminalProcess(smpctl: ["image", "confirm", "5a5a5a5a", "-c", served.endpoint])
        defer { terminal.stop() }
        let asked = await terminal.waitForScreen(question)
        XCTAssertTrue(asked, terminal.screen)
        terminal.type(answer + "\r")
        let status = await terminal.waitForExit()
        if status == nil { XCTFail("no exit after the answer: \(terminal.screen)") }
        return status
    }

    func testMalformedImageIsADataErrorAndNothingIsSent() async throws {
        let served = try await startDevice(imageDevice)
        for argument in ["abc", String(repeating: "g", count: 64), "slot:x", "1.2.3.4.5"] {
            let human = try await SMPCtl.run(["image", "test", argument, "-c", served.endpoint])
            assertExit(human, 65)
            assertStderr(human, contains: "does not name an image: expected slot:N, a version (1.2.3 or v1.2.3) or at least 4 hex digits")
            let json = try await SMPCtl.run(["image", "confirm", argument, "-c", served.endpoint, "--json"])
            try assertErrorDocument(json, name: "data-error", code: 65, messageContains: ["does not name an image"])
        }
        let missing = try await SMPCtl.run(["image", "test", "-c", served.endpoint])
        assertExit(missing, 64)
        assertStderr(missing, contains: "missing the image to test", "slot:1 (or --slot 1)")
        assertExit(try await SMPCtl.run(["image", "test", "slot:1", "--slot", "1", "-c", served.endpoint]), 64)
        let frames = await served.frames
        XCTAssertEqual(frames, 0)
    }

    /// `image test` and `image confirm` take the image as `image list` shows it: its short hash,
    /// another prefix, its version or its slot; a name that matches nothing lists the candidates.
    func testImagesNamedAsTheListShowsThem() async throws {
        let served = try await startDevice(imageDevice)
        try await upload(to: served.device)
        for selector in [["5a5a5a5a"], ["5A5A"], ["2.1.3"], ["v2.1.3"], ["slot:1"], ["--slot", "1"], ["--image", "0", "--slot", "1"]] {
            let run = try await SMPCtl.run(["image", "test"] + selector + ["-c", served.endpoint, "--json"])
            assertSuccess(run)
            XCTAssertEqual(try run.jsonDocument()["images"]?[1]?["pending"]?.bool, true, "\(selector)")
        }
        for selector in ["9.9.9", String(repeating: "0", count: 62), "slot:3"] {
            let missing = try await SMPCtl.run(["image", "test", selector, "-c", served.endpoint])
            assertExit(missing, 65)
            assertStderr(missing, contains: "error: no image matches", "hint: the device lists:", "VERSION", "2.1.3", "5a5a5a5a", "1.0.0")
        }
        let json = try await SMPCtl.run(["image", "test", "--image", "1", "--slot", "0", "-c", served.endpoint, "--json"])
        try assertErrorDocument(json, name: "data-error", code: 65, messageContains: ["no image matches slot 0 of image 1"])
    }

    /// Against the real `smpctl simulate` with two images: slot 0 names two images (ambiguous,
    /// both listed), `--image` narrows it, a short hash from the list names one.
    func testMultiImageSelectorsAgainstSmpctlSimulate() async throws {
        let (_, endpoint) = try await startSimulateProcess(["--images", "2"])
        let ambiguous = try await SMPCtl.run(["image", "confirm", "slot:0", "-c", endpoint])
        assertExit(ambiguous, 65)
        assertStderr(ambiguous, contains: "error: slot 0 is ambiguous: 2 images match", "--image N", "a0a0a0a0", "a1a1a1a1")
        let confirmed = try await SMPCtl.run(["image", "confirm", "--image", "1", "--slot", "0", "-c", endpoint, "--json"])
        assertSuccess(confirmed)
        let byHash = try await SMPCtl.run(["image", "confirm", "a1a1a1a1", "-c", endpoint, "--json"])
        assertSuccess(byHash)
        XCTAssertEqual(try byHash.jsonDocument()["images"]?[1]?["confirmed"]?.bool, true, "\(byHash)")
        let missing = try await SMPCtl.run(["image", "test", "--image", "1", "--slot", "1", "-c", endpoint])
        assertExit(missing, 65)
        assertStderr(missing, contains: "no image matches slot 1 of image 1", "hint: the device lists:")
    }

    func testDeviceErrorsExitTwo() async throws {
        let served = try await startDevice(imageDevice)
        let unknown = try await SMPCtl.run(["image", "test", newHashHex, "-c", served.endpoint])
        assertExit(unknown, 2)
        assertStderr(unknown, contains: "IMG_MGMT_ERR_HASH_NOT_FOUND")
        let running = try await SMPCtl.run(["image", "erase", "--yes", "--slot", "0", "-c", served.endpoint, "--json"])
        try assertErrorDocument(running, name: "device-error", code: 2, messageContains: ["IMG_MGMT_ERR_NO_FREE_SLOT"])
    }

    func testEraseRefusesWithoutATerminalUnlessYes() async throws {
        let served = try await startDevice(imageDevice)
        let refused = try await SMPCtl.run(["image", "erase", "--slot", "1", "-c", served.endpoint])
        assertExit(refused, 64)
        assertStderr(refused, contains: "refusing to erase the slot without confirmation: standard input is not a terminal", "add --yes")
        let json = try await SMPCtl.run(["image", "erase", "-c", served.endpoint, "--json"])
        try assertErrorDocument(json, name: "usage-error", code: 64, messageContains: ["without confirmation"])
        let frames = await served.frames
        XCTAssertEqual(frames, 0, "nothing is sent without confirmation")
    }

    func testEraseJSONAndSlots() async throws {
        let served = try await startDevice(imageDevice)
        let erase = try await SMPCtl.run(["image", "erase", "--yes", "--slot", "1", "-c", served.endpoint, "--json"])
        assertSuccess(erase)
        XCTAssertEqual(erase.stdout, "{\"schemaVersion\":1,\"erased\":true,\"slot\":1}\n")
        let human = try await SMPCtl.run(["image", "erase", "--yes", "--slot", "1", "-c", served.endpoint])
        XCTAssertEqual(human.stdout, "erased slot 1\n")

        let slots = try await SMPCtl.run(["image", "slots", "-c", served.endpoint, "--json"])
        assertSuccess(slots)
        XCTAssertEqual(
            slots.stdout,
            "{\"schemaVersion\":1,\"images\":[{\"image\":0,\"slots\":[{\"slot\":0,\"size\":16384,\"uploadImageId\":null,\"rc\":null},"
                + "{\"slot\":1,\"size\":16384,\"uploadImageId\":0,\"rc\":null}],\"maxImageSize\":null}]}\n")
        let table = try await SMPCtl.run(["image", "slots", "-c", served.endpoint])
        XCTAssertTrue(table.stdout.contains("16384"), table.stdout)
    }

    func testListJSONShape() async throws {
        let served = try await startDevice(imageDevice)
        let run = try await SMPCtl.run(["image", "list", "-c", served.endpoint, "--json"])
        assertSuccess(run)
        XCTAssertEqual(
            run.stdout,
            "{\"schemaVersion\":1,\"images\":[{\"image\":0,\"slot\":0,\"version\":\"1.0.0\",\"imageHash\":\"\(runningHashHex)\",\"bootable\":true,"
                + "\"pending\":false,\"confirmed\":true,\"active\":true,\"permanent\":false}],\"splitStatus\":0,\"serialRecovery\":false}\n")
    }
}
