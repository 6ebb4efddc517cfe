import CBOR
import SMP
import SMPSimulator
import XCTest

/// The virtual device's MCUboot serial recovery personality, set up like the mps2
/// `serial_recovery` fixture (RAM-load, recovery 1024×1, 4-byte writes).
final class MCUbootRecoveryTests: XCTestCase {
    private func device(
        inRecovery: Bool = true, mode: MCUbootMode = .ramLoad, recovery: MCUbootRecoveryConfiguration = MCUbootRecoveryConfiguration(),
        timing: SimulatedFlashTiming = SimulatedFlashTiming(), clock: ManualUptime
    ) -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(bufferSize: 384, bootloaderMode: mode)
        configuration.images = SimulatedImageConfiguration(slotSize: 64 * 1024, flashTiming: timing)
        configuration.recovery = recovery
        configuration.startsInRecovery = inRecovery
        configuration.bootloaderInfo = false
        return VirtualDevice(configuration: configuration, uptime: clock.source)
    }

    private static let image2 = SimulatedImageHeader.soundImageFile(version: (2, 0, 0, 0), body: (0..<301).map { UInt8($0 & 0xFF) })

    private func answer(_ device: VirtualDevice, _ operation: SMPOperation, _ group: SMPGroup, _ command: UInt8, _ payload: CBORMap = [:])
        async throws -> CBORMap
    {
        try await device.respond(to: TestFrames.request(operation, group: group, command: command, payload: payload)).payload
    }

    /// Uploads `file` in chunks of `chunk` bytes from the offsets the device names; returns them.
    private func upload(_ device: VirtualDevice, _ file: [UInt8], chunk: Int = 37) async throws -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while offset < file.count {
            var payload: CBORMap = ["off": .integer(offset), "data": .bytes(Array(file[offset..<min(file.count, offset + chunk)]))]
            if offset == 0 { payload["len"] = .integer(file.count) }
            let answer = try await answer(device, .write, .image, ImageCommandID.upload, payload)
            XCTAssertEqual(answer["rc"]?.int64Value, 0, "chunk at \(offset): \(answer)")
            guard let next = answer["off"]?.int64Value.map(Int.init), next > offset else { throw TestFailure("no progress: \(answer)") }
            offsets.append(next)
            offset = next
        }
        return offsets
    }

    func testRecoveryAnswersOnlyMCUbootsCommandsWithRCStyleErrors() async throws {
        let device = device(clock: ManualUptime())
        let personality = await device.personality
        XCTAssertEqual(personality, .recovery)
        let parameters = try await answer(device, .read, .os, OSCommandID.parameters)
        XCTAssertEqual(parameters["buf_size"]?.int64Value, 1024)
        XCTAssertEqual(parameters["buf_count"]?.int64Value, 1)
        for (group, command, operation) in [
            (SMPGroup.os, OSCommandID.echo, SMPOperation.write), (.os, OSCommandID.taskStatistics, .read), (.os, OSCommandID.info, .read),
            (.os, OSCommandID.bootloaderInfo, .read), (.image, ImageCommandID.slotInfo, .read), (.image, ImageCommandID.erase, .write),
            (.image, ImageCommandID.state, .write), (.statistics, 0, .read), (.zephyrBasic, 0, .write),
        ] {
            let answer = try await answer(device, operation, group, command, ["d": "hi", "confirm": true])
            XCTAssertEqual(answer, ["rc": 8], "\(group.rawValue)/\(command): MGMT_ERR_ENOTSUP")
        }
        let consoleEcho = try await answer(device, .write, .os, OSCommandID.consoleEcho, ["echo": 0])
        XCTAssertEqual(consoleEcho, ["rc": 0])
        // The answer keeps the request's header fields, as boot_serial_output() does, with
        // indefinite-length containers.
        let responses = await device.handle(frame: TestFrames.request(.read, group: .image, command: 0, sequence: 42))
        let response = try XCTUnwrap(responses.first)
        XCTAssertEqual(response[0], 0x09, "read response, version bits kept")
        XCTAssertEqual(Array(response[4...7]), [0, 1, 42, 0], "group, sequence and command of the request")
        XCTAssertEqual(response[8], 0xBF, "an indefinite-length map")
    }

    func testImageListCarriesNoFlagsWithoutImageStateAndTheHashOnlyWithIt() async throws {
        let device = device(clock: ManualUptime())
        let list = try await answer(device, .read, .image, ImageCommandID.state)
        let entries = list["images"]?.arrayValue ?? []
        XCTAssertEqual(entries.count, 1, "only the valid running image: \(list)")
        XCTAssertEqual(entries.first?.mapValue?.compactMap { $0.key.stringValue }, ["slot", "hash", "version"])
        XCTAssertNil(list["splitStatus"])

        let stateful = self.device(recovery: MCUbootRecoveryConfiguration(imageState: true, imageHash: false), clock: ManualUptime())
        let flagged = try await answer(stateful, .read, .image, ImageCommandID.state)
        XCTAssertEqual(flagged["images"]?.arrayValue?.first?.mapValue?.compactMap { $0.key.stringValue }, ["bootable", "confirmed", "active", "slot", "version"])
    }

    func testUploadWritesThePrimarySlotInWholeWriteUnits() async throws {
        let clock = ManualUptime()
        let device = device(clock: clock)
        let offsets = try await upload(device, Self.image2)
        XCTAssertEqual(offsets.dropLast(), offsets.dropLast().map { $0 / 4 * 4 }, "aligned acknowledgements: \(offsets)")
        XCTAssertLessThan(offsets.first ?? 0, 37, "the first 37-byte chunk is acknowledged up to its last whole unit")
        XCTAssertEqual(offsets.last, Self.image2.count)
        let images = await device.group(.image)
        let group = try XCTUnwrap(images as? ImageGroup)
        XCTAssertEqual(group.contents(image: 0, slot: 0), Self.image2, "recovery writes the primary slot")
        let list = try await answer(device, .read, .image, ImageCommandID.state)
        XCTAssertEqual(list["images"]?.arrayValue?.first?["version"]?.stringValue, "2.0.0")

        // A chunk at another offset is answered rc 0 with the expected one; image 1 does not exist.
        let stray = try await answer(device, .write, .image, ImageCommandID.upload, ["off": 100, "data": .bytes([1, 2, 3, 4])])
        XCTAssertEqual(stray, ["rc": 0, "off": .integer(Self.image2.count)])
        let other = try await answer(
            device, .write, .image, ImageCommandID.upload, ["image": 1, "off": 0, "len": 64, "data": .bytes([UInt8](repeating: 0, count: 32))])
        XCTAssertEqual(other, ["rc": 3])
    }

    func testResetWithBootModeOneEntersRecoveryAndItsResetBootsTheHighestVersion() async throws {
        let clock = ManualUptime()
        let device = device(inRecovery: false, clock: clock)
        var personality = await device.personality
        XCTAssertEqual(personality, .application)
        _ = try await answer(device, .write, .os, OSCommandID.reset, ["boot_mode": 1])
        clock.advance(by: .milliseconds(250))
        let parameters = try await answer(device, .read, .os, OSCommandID.parameters)
        XCTAssertEqual(parameters["buf_size"]?.int64Value, 1024, "recovery runs after a reset with boot mode 1")
        _ = try await upload(device, Self.image2)
        let reset = try await answer(device, .write, .os, OSCommandID.reset)
        XCTAssertEqual(reset, ["rc": 0])
        clock.advance(by: .milliseconds(250))
        personality = await device.personality
        XCTAssertEqual(personality, .application)
        let list = try await answer(device, .read, .image, ImageCommandID.state)
        let active = list["images"]?.arrayValue?.first { $0["active"]?.boolValue == true }
        XCTAssertEqual(active?["version"]?.stringValue, "2.0.0", "RAM-load boots the highest version: \(list)")
    }

    func testSwapAndOverwriteModesBootThePrimarySlotRecoveryWrote() async throws {
        for mode in [MCUbootMode.overwriteOnly, .swapUsingMove, .swapUsingScratch] {
            let clock = ManualUptime()
            let device = device(mode: mode, clock: clock)
            _ = try await upload(device, Self.image2)
            _ = try await answer(device, .write, .os, OSCommandID.reset)
            clock.advance(by: .milliseconds(250))
            let list = try await answer(device, .read, .image, ImageCommandID.state)
            let slot0 = list["images"]?.arrayValue?.first { $0["slot"]?.int64Value == 0 }
            XCTAssertEqual(slot0?["version"]?.stringValue, "2.0.0", "\(mode): \(list)")
            XCTAssertEqual(slot0?["active"]?.boolValue, true, "\(mode)")
            XCTAssertEqual(slot0?["confirmed"]?.boolValue, true, "\(mode)")
        }
    }

    func testAnUnfinishedUploadLeavesNothingToBootSoMCUbootStaysInRecovery() async throws {
        let clock = ManualUptime()
        let device = device(clock: clock)
        let first = try await answer(
            device, .write, .image, ImageCommandID.upload, ["off": 0, "len": .integer(Self.image2.count), "data": .bytes(Array(Self.image2.prefix(64)))])
        XCTAssertEqual(first, ["rc": 0, "off": 64])
        _ = try await answer(device, .write, .os, OSCommandID.reset)
        clock.advance(by: .milliseconds(250))
        let personality = await device.personality
        XCTAssertEqual(personality, .recovery, "the primary slot holds half an image and the secondary none")
    }

    func testRAMLoadApplicationRefusesMarksAndHasNoBootloaderInfo() async throws {
        let device = device(inRecovery: false, clock: ManualUptime())
        let confirm = try await answer(device, .write, .image, ImageCommandID.state, ["confirm": true])
        XCTAssertEqual(confirm, ["rc": 8])
        let info = try await answer(device, .read, .os, OSCommandID.bootloaderInfo)
        XCTAssertEqual(info, ["rc": 8])
    }

    func testARequestWhileRecoveryErasesIsAnsweredOnceTheEraseIsDone() async throws {
        let clock = ManualUptime()
        let device = device(timing: SimulatedFlashTiming(eraseBytesPerSecond: 64 * 1024), clock: clock)
        let first = TestFrames.request(
            .write, group: .image, command: ImageCommandID.upload,
            payload: ["off": 0, "len": .integer(Self.image2.count), "data": .bytes(Array(Self.image2.prefix(64)))])
        let delivered = await device.deliveries(for: first)
        XCTAssertEqual(delivered.first?.delay, .seconds(1), "the whole slot is erased first")
        clock.advance(by: .milliseconds(100))
        let queued = await device.deliveries(for: TestFrames.request(.read, command: OSCommandID.parameters))
        XCTAssertEqual(queued.count, 1, "the request waits in the line buffers, as on the QEMU fixture")
        XCTAssertEqual(queued.first?.delay, .milliseconds(900), "read once the erase is done")
    }

    func testRecoveryTakesRequestsUpToItsOwnBuffer() async throws {
        let device = device(clock: ManualUptime())
        // MCUboot's buffers hold buf_size + 1 bytes: on console lines (length and CRC share it)
        // the mps2 fixture answers a 1021-byte request and drops a 1022-byte one.
        let fits = await device.accepts(messageOfSize: 1021, framingOverhead: 4)
        let tooLarge = await device.accepts(messageOfSize: 1022, framingOverhead: 4)
        XCTAssertTrue(fits)
        XCTAssertFalse(tooLarge)
    }
}
