import NordicDFU
import SMP
import SMPSimulator
import XCTest

/// The Nordic DFU bridge's server, spoken to directly over loopback UDP as the BlueZ mock does:
/// Secure and legacy transfers, buttonless entry, resets and faults.
final class NordicDFUDatagramServerTests: XCTestCase {
    private let applicationAddress = SimulatedBluetoothAddress(bytes: [0xC0, 0xFF, 0xEE, 0x00, 0x00, 0xFF])

    private func secureTarget(for image: [UInt8], faults: SecureDFUTargetFaults = SecureDFUTargetFaults()) -> SecureDFUTarget {
        SecureDFUTarget(configuration: SecureDFUTarget.Configuration(faults: faults) { [count = image.count] _, _ in
            .accept(firmwareSize: count)
        })
    }

    private func started(_ peripheral: NordicDFUPeripheral) async throws -> (NordicDFUDatagramServer, MockBridgeSocket) {
        let server = NordicDFUDatagramServer(peripheral: peripheral, logger: quiet)
        let port = try await server.start()
        return (server, try MockBridgeSocket(port: port))
    }

    private func connect(_ socket: MockBridgeSocket, as address: SimulatedBluetoothAddress?) throws {
        try socket.send(.connected(try XCTUnwrap(address)))
    }

    /// Sends a Secure DFU transfer the way a BLE client does: Control Point requests, bare data
    /// writes of `writeSize` bytes, a receipt notification every `interval` writes. Returns the
    /// command that followed the last Execute's answer.
    private func sendSecure(
        _ image: [UInt8], initPacket: [UInt8], over socket: MockBridgeSocket, writeSize: Int = 244, interval: UInt16 = 3
    ) throws -> NordicDFUBridgeCommand {
        let ok: (SecureDFUOpCode) -> [UInt8] = { [SecureDFUOpCode.response.rawValue, $0.rawValue, 0x01] }
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x02] + littleEndian(interval))), ok(.setReceiptNotification))
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x06, 0x01])).prefix(3), ok(.select)[...])
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x01, 0x01] + littleEndian(UInt32(initPacket.count)))), ok(.create))
        try socket.send(.dataWrite(initPacket))
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x03])), ok(.calculateChecksum) + checksum(initPacket))
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x04])), ok(.execute))
        let select = try socket.notification(after: .controlPointWrite([0x06, 0x02]))
        let objectSize = (3..<7).reduce(0) { $0 | Int(select[$1]) << (($1 - 3) * 8) }
        var writes = 0
        for objectStart in stride(from: 0, to: image.count, by: objectSize) {
            let object = Array(image[objectStart..<min(objectStart + objectSize, image.count)])
            XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x01, 0x02] + littleEndian(UInt32(object.count)))), ok(.create))
            for start in stride(from: 0, to: object.count, by: writeSize) {
                try socket.send(.dataWrite(Array(object[start..<min(start + writeSize, object.count)])))
                writes += 1
                if writes % Int(interval) == 0 {
                    let received = objectStart + min(start + writeSize, object.count)
                    XCTAssertEqual(try socket.receive(), .notify(ok(.calculateChecksum) + checksum(Array(image.prefix(received)))))
                }
            }
            writes = 0
            let received = Array(image.prefix(objectStart + object.count))
            XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x03])), ok(.calculateChecksum) + checksum(received))
            XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x04])), ok(.execute))
        }
        return try socket.receive()
    }

    private func checksum(_ bytes: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        crc.update(bytes)
        return littleEndian(UInt32(bytes.count)) + littleEndian(crc.value)
    }

    func testSecureBootloaderInstallsTheImageAndResets() async throws {
        let image = testImage(9000)
        let (server, socket) = try await started(try NordicDFUPeripheral(secure: secureTarget(for: image)))
        try connect(socket, as: applicationAddress)
        XCTAssertEqual(try sendSecure(image, initPacket: testImage(40, seed: 9), over: socket), .reset)
        let peripheral = await server.peripheral
        XCTAssertEqual(peripheral.secureTarget?.installed.map(\.firmware), [image])
        XCTAssertEqual(peripheral.secureTarget?.installed.first?.initPacket, testImage(40, seed: 9))
        XCTAssertEqual(peripheral.links, 1)
        await server.stop()
    }

    func testSecureDisconnectFaultResetsAndTheStateStays() async throws {
        let image = testImage(5000)
        let (server, socket) = try await started(
            try NordicDFUPeripheral(secure: secureTarget(for: image, faults: SecureDFUTargetFaults(disconnectAfterDataBytes: 1000))))
        try connect(socket, as: applicationAddress)
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x01, 0x01, 4, 0, 0, 0])).count, 3)
        try socket.send(.dataWrite([1, 2, 3, 4]))
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x04])), [0x60, 0x04, 0x01])
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x01, 0x02, 0x00, 0x10, 0, 0])), [0x60, 0x01, 0x01])
        for start in stride(from: 0, to: 1000, by: 200) {
            try socket.send(.dataWrite(Array(image[start..<start + 200])))
        }
        XCTAssertEqual(try socket.receive(), .reset)
        try socket.send(.disconnected)
        try connect(socket, as: applicationAddress)
        // What arrived before the link dropped is still there.
        let select = try socket.notification(after: .controlPointWrite([0x06, 0x02]))
        XCTAssertEqual(Array(select[7..<15]), checksum(Array(image.prefix(1000))))
        let links = await server.peripheral.links
        XCTAssertEqual(links, 2)
        await server.stop()
    }

    func testLegacyBootloaderInstallsTheImageAndResets() async throws {
        let image = testImage(1000)
        let (server, socket) = try await started(NordicDFUPeripheral(legacy: LegacyDFUTarget()))
        try connect(socket, as: applicationAddress)
        try sendLegacy(image, over: socket)
        let installed = await server.peripheral.legacyTarget?.installed.map(\.firmware)
        XCTAssertEqual(installed, [image])
        await server.stop()
    }

    /// A legacy transfer as nrf-ota and nRF Connect send it: Start with sizes, the init packet,
    /// 20-byte packets with a receipt notification every 10, Validate, Activate and reset.
    private func sendLegacy(_ image: [UInt8], over socket: MockBridgeSocket) throws {
        try socket.send(.controlPointWrite([0x01, 0x04]))
        XCTAssertEqual(try socket.notification(after: .dataWrite(littleEndian(UInt32(0)) + littleEndian(UInt32(0)) + littleEndian(UInt32(image.count)))), [0x10, 0x01, 0x01])
        try socket.send(.controlPointWrite([0x02, 0x00]))
        try socket.send(.dataWrite(legacyInitPacket(for: image)))
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x02, 0x01])), [0x10, 0x02, 0x01])
        try socket.send(.controlPointWrite([0x08, 10, 0]))
        try socket.send(.controlPointWrite([0x03]))
        for (index, start) in stride(from: 0, to: image.count, by: 20).enumerated() {
            try socket.send(.dataWrite(Array(image[start..<min(start + 20, image.count)])))
            if start + 20 >= image.count {
                XCTAssertEqual(try socket.receive(), .notify([0x10, 0x03, 0x01]))
            } else if (index + 1) % 10 == 0 {
                XCTAssertEqual(try socket.receive(), .notify([0x11] + littleEndian(UInt32(start + 20))))
            }
        }
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x04])), [0x10, 0x04, 0x01])
        try socket.send(.controlPointWrite([0x05]))
        XCTAssertEqual(try socket.receive(), .reset)
    }

    func testSecureButtonlessWithoutBondsRebootsAtTheNextAddressUnderTheNameSet() async throws {
        let image = testImage(300)
        let (server, socket) = try await started(try NordicDFUPeripheral(secure: secureTarget(for: image), buttonless: .secure))
        try connect(socket, as: applicationAddress)
        try socket.send(.dataWrite([1, 2, 3]))
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x02, 25] + Array(repeating: 0x41, count: 25))), [0x20, 0x02, 0x05])
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x02, 5] + Array("MyDfu".utf8))), [0x20, 0x02, 0x01])
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x07])), [0x20, 0x07, 0x02])
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x01])), [0x20, 0x01, 0x01])
        let bootloaderAddress = try XCTUnwrap(SimulatedBluetoothAddress(parsing: "C0:FF:EE:00:00:00"))
        XCTAssertEqual(try socket.receive(), .rebootIntoBootloader(.secure, address: bootloaderAddress, name: "MyDfu"))
        try socket.send(.disconnected)
        try connect(socket, as: bootloaderAddress)
        XCTAssertEqual(try sendSecure(image, initPacket: [7, 7, 7], over: socket), .reset)
        let peripheral = await server.peripheral
        XCTAssertEqual(peripheral.running, .bootloader)
        XCTAssertEqual(peripheral.secureTarget?.installed.map(\.firmware), [image])
        XCTAssertEqual(peripheral.ignoredEvents, 1)
        await server.stop()
    }

    func testSecureButtonlessWithBondsKeepsTheAddress() async throws {
        let (server, socket) = try await started(try NordicDFUPeripheral(secure: secureTarget(for: [1]), buttonless: .secureBonded))
        try connect(socket, as: applicationAddress)
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x02, 1, 0x41])), [0x20, 0x02, 0x02])
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x01])), [0x20, 0x01, 0x01])
        XCTAssertEqual(try socket.receive(), .rebootIntoBootloader(.secure, address: try XCTUnwrap(applicationAddress), name: "DfuTarg"))
        await server.stop()
    }

    func testLegacyButtonlessRebootsIntoTheLegacyBootloaderAtTheSameAddress() async throws {
        let image = testImage(400)
        let (server, socket) = try await started(NordicDFUPeripheral(legacy: LegacyDFUTarget(), buttonless: true))
        try connect(socket, as: applicationAddress)
        try socket.send(.controlPointWrite([0x08, 10, 0]))
        try socket.send(.controlPointWrite([0x01, 0x04]))
        XCTAssertEqual(try socket.receive(), .rebootIntoBootloader(.legacy, address: try XCTUnwrap(applicationAddress), name: "DfuTarg"))
        try socket.send(.disconnected)
        try connect(socket, as: applicationAddress)
        try sendLegacy(image, over: socket)
        let peripheral = await server.peripheral
        XCTAssertEqual(peripheral.legacyTarget?.installed.map(\.firmware), [image])
        XCTAssertEqual(peripheral.legacyTarget?.statistics.requests[.start], 1)
        await server.stop()
    }

    func testALegacyApplicationNeedsALegacyBootloader() throws {
        XCTAssertThrowsError(try NordicDFUPeripheral(secure: secureTarget(for: [1]), buttonless: .legacy)) { error in
            XCTAssertEqual(error as? NordicDFUPeripheralError, NordicDFUPeripheralError(buttonless: .legacy))
            XCTAssertEqual("\(error)", "buttonless legacy DFU enters a legacy DFU bootloader, not this one")
        }
    }

    func testBridgeDatagramsRoundTripAndMalformedOnesAreIgnored() async throws {
        let address = try XCTUnwrap(SimulatedBluetoothAddress(parsing: "c0:ff:ee:00:00:01"))
        XCTAssertEqual(address.description, "C0:FF:EE:00:00:01")
        XCTAssertEqual(address.incremented.description, "C0:FF:EE:00:00:02")
        XCTAssertNil(SimulatedBluetoothAddress(parsing: "C0:FF:EE:00:00"))
        XCTAssertNil(SimulatedBluetoothAddress(parsing: "C0:FF:EE:00:00:1"))
        XCTAssertNil(SimulatedBluetoothAddress(parsing: "C0:FF:EE:00:00:+1"))
        let events: [NordicDFUBridgeEvent] = [.controlPointWrite([1, 2]), .dataWrite([]), .connected(address), .disconnected]
        for event in events { XCTAssertEqual(NordicDFUBridgeEvent(datagram: event.datagram), event) }
        let commands: [NordicDFUBridgeCommand] = [.notify([0x60]), .reset, .rebootIntoBootloader(.legacy, address: address, name: "Dfü")]
        for command in commands { XCTAssertEqual(NordicDFUBridgeCommand(datagram: command.datagram), command) }
        XCTAssertEqual(NordicDFUBridgeCommand.rebootIntoBootloader(.secure, address: address, name: "A").datagram,
                       [0x13, 0x01, 0xC0, 0xFF, 0xEE, 0x00, 0x00, 0x01, 0x41])
        for malformed: [UInt8] in [[], [0x05], [0x03, 1, 2], [0x04, 0]] { XCTAssertNil(NordicDFUBridgeEvent(datagram: malformed)) }

        let (server, socket) = try await started(NordicDFUPeripheral(legacy: LegacyDFUTarget()))
        try socket.send(.connected(address))
        for malformed: [UInt8] in [[], [0x09, 1], [0x03]] { try socket.send(datagram: malformed) }
        XCTAssertEqual(try socket.notification(after: .controlPointWrite([0x07])), [0x10, 0x07, 0x01, 0, 0, 0, 0])
        let peripheral = await server.peripheral
        XCTAssertEqual(peripheral.ignoredEvents, 3)
        await server.stop()
    }
}

/// The bytes of `value`, least significant first, as DFU messages carry integers.
private func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
    (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
