import CBOR
import SMP
import SMPSimulator
import XCTest

/// The virtual device's shell group (docs/protocol/groups.md §10): commands, return codes, errors, limits, both flavours.
final class ShellGroupTests: XCTestCase {
    private func run(
        _ argv: [String], on device: VirtualDevice, versionBits: UInt8 = 1, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> CBORMap {
        let frame = TestFrames.request(
            .write, group: .shell, command: 0, versionBits: versionBits, payload: ["argv": .array(argv.map(CBOR.text))])
        return try await device.respond(to: frame, file: file, line: line).payload
    }

    func testEchoPrintsItsArgumentsAndReturnsZero() async throws {
        let device = VirtualDevice()
        let payload = try await run(["echo", "hello", "world"], on: device)
        XCTAssertEqual(payload, ["o": "\r\nhello world\r\n", "ret": 0])
        let group = await device.group(.shell)
        let shell = try XCTUnwrap(group as? ShellGroup)
        XCTAssertEqual(shell.executed, [["echo", "hello", "world"]])
    }

    func testKernelDeviceAndHelpCommands() async throws {
        let device = VirtualDevice()
        let version = try await run(["kernel", "version"], on: device)
        XCTAssertEqual(version["o"]?.stringValue, "\r\nZephyr version \(device.configuration.identity.version)\r\n")
        let uptime = try await run(["kernel", "uptime"], on: device)
        XCTAssertTrue(uptime["o"]?.stringValue?.hasPrefix("\r\nUptime: ") == true, "\(uptime)")
        XCTAssertEqual(uptime["ret"], 0)
        let devices = try await run(["device", "list"], on: device)
        XCTAssertTrue(devices["o"]?.stringValue?.contains("uart@40002000 (READY)") == true, "\(devices)")
        let help = try await run(["help"], on: device)
        XCTAssertTrue(help["o"]?.stringValue?.contains("kernel") == true, "\(help)")
    }

    func testFailingAndUnknownCommandsReturnNonZero() async throws {
        let device = VirtualDevice()
        let unknown = try await run(["frobnicate", "now"], on: device)
        XCTAssertEqual(unknown, ["o": "\r\n\u{1B}[1;31mfrobnicate: command not found\r\n\u{1B}[m", "ret": -8])
        let wrong = try await run(["kernel", "uptime", "extra"], on: device)
        XCTAssertEqual(wrong["ret"], -22)
        let helpOnly = try await run(["kernel"], on: device)
        XCTAssertEqual(helpOnly["ret"], 1)
    }

    func testEmptyAndTooLongCommandsAreShellErrors() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(shell: SimulatedShellConfiguration(commandBufferSize: 16)))
        let empty = try await run([], on: device)
        XCTAssertEqual(empty, ["err": ["group": 9, "rc": 3]])
        let fits = try await run(["echo", "0123456789"], on: device)
        XCTAssertEqual(fits["ret"], 0, "15 characters and the NUL fit in 16")
        let long = try await run(["echo", "0123456789a"], on: device)
        XCTAssertEqual(long, ["err": ["group": 9, "rc": 2]])
        let notText = try await device.respond(
            to: TestFrames.request(.write, group: .shell, command: 0, payload: ["argv": [1, 2]]))
        XCTAssertEqual(notText.payload, ["err": ["group": 9, "rc": 3]], "no text before the first other element")
        let cut = try await device.respond(
            to: TestFrames.request(.write, group: .shell, command: 0, payload: ["argv": ["echo", "a", 1, "b"]]))
        XCTAssertEqual(cut.payload, ["o": "\r\na\r\n", "ret": 0], "Zephyr stops at the first element that is not text")
        let noArgv = try await device.respond(to: TestFrames.request(.write, group: .shell, command: 0, payload: ["args": ["echo"]]))
        XCTAssertEqual(noArgv.payload, ["rc": 3])
    }

    func testOutputIsCutToTheCaptureBuffer() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(shell: SimulatedShellConfiguration(outputBufferSize: 8)))
        let payload = try await run(["echo", "abcdefghij"], on: device)
        XCTAssertEqual(payload["o"], "\r\nabcde", "7 bytes and the NUL")
    }

    func testLegacyReturnCodeGoesInRc() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(shell: SimulatedShellConfiguration(legacyReturnCode: true)))
        let payload = try await run(["nope"], on: device)
        XCTAssertEqual(payload, ["o": "\r\n\u{1B}[1;31mnope: command not found\r\n\u{1B}[m", "rc": -8])
    }

    func testLegacyFlavourTranslatesShellErrors() async throws {
        let device = VirtualDevice(configuration: VirtualDeviceConfiguration(flavour: .legacy))
        let ok = try await run(["echo", "hi"], on: device, versionBits: 0)
        XCTAssertEqual(ok, ["o": "\r\nhi\r\n", "ret": 0, "rc": 0])
        let empty = try await run([], on: device, versionBits: 0)
        XCTAssertEqual(empty, ["rc": 3], "EMPTY_COMMAND becomes MGMT_ERR_EINVAL")
    }

    func testReadIsNotSupportedAndTheGroupCanBeLeftOut() async throws {
        let device = VirtualDevice()
        let read = try await device.respond(to: TestFrames.request(.read, group: .shell, command: 0))
        XCTAssertEqual(read.payload, ["rc": 8])
        let without = VirtualDevice(configuration: VirtualDeviceConfiguration(shell: nil))
        let missing = try await without.respond(to: TestFrames.request(.write, group: .shell, command: 0, payload: ["argv": ["echo"]]))
        XCTAssertEqual(missing.payload, ["rc": 8])
    }
}
