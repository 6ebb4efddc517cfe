import Logging
import NordicDFU
import SMP
import SMPBluetooth

/// The GATT services and characteristics of Nordic DFU (docs/protocol/nordic-secure-dfu.md §22,
/// docs/protocol/nordic-legacy-dfu.md §23), as BlueZ spells UUIDs.
enum NordicDFUGATT {
    /// Secure DFU's service (0xFE59), also carrying the buttonless characteristics.
    static let secureService = "0000fe59-0000-1000-8000-00805f9b34fb"
    static let secureControlPoint = "8ec90001-f315-4f60-9fb8-838830daea50"
    static let secureData = "8ec90002-f315-4f60-9fb8-838830daea50"
    /// Buttonless entry without bond sharing: the bootloader advertises at the next address.
    static let buttonlessWithoutBonds = "8ec90003-f315-4f60-9fb8-838830daea50"
    /// Buttonless entry with bond sharing: the bootloader keeps the address and the bond.
    static let buttonlessWithBonds = "8ec90004-f315-4f60-9fb8-838830daea50"
    /// Legacy DFU's service and characteristics.
    static let legacyService = "00001530-1212-efde-1523-785feabcd123"
    static let legacyControlPoint = "00001531-1212-efde-1523-785feabcd123"
    static let legacyPacket = "00001532-1212-efde-1523-785feabcd123"
    static let legacyVersion = "00001534-1212-efde-1523-785feabcd123"
    /// The Version an application with legacy buttonless entry reports.
    static let legacyApplicationVersion: UInt16 = 0x0001
}

/// A ``DFUGATTLink`` over BlueZ: the control point's notifications (through `AcquireNotify` or
/// `StartNotify`), the data characteristic written through `AcquireWrite` where bluetoothd
/// offers it. The notifications finish with an error when the device disconnects.
final class BlueZDFULink: DFUGATTLink {
    let mtu: Int
    let linkDescription: String
    let controlPointNotifications: AsyncThrowingStream<[UInt8], any Error>
    private let peripheral: BLEPeripheral
    private let controlPoint: BLECharacteristic
    private let data: BLECharacteristic
    private let notifications: BLENotifications
    private let dataSocket: BLEWriteSocket?
    private let watchers: [Task<Void, Never>]
    /// Yields once when the device drops the link.
    private let dropped: AsyncStream<Void>

    /// Subscribes to `controlPoint` and acquires `data`'s write socket; the MTU is what the link
    /// negotiated, at most `mtuCap`.
    static func open(
        _ peripheral: BLEPeripheral, controlPoint: BLECharacteristic, data: BLECharacteristic, mtuCap: Int?
    ) async throws(SMPTransportError) -> BlueZDFULink {
        let notifications = try await controlPoint.subscribe()
        let dataSocket: BLEWriteSocket?
        do throws(SMPTransportError) {
            dataSocket = try await data.acquireWrite()
        } catch {
            await notifications.stop()
            throw error
        }
        let negotiated = controlPoint.mtu ?? dataSocket?.mtu ?? notifications.mtu ?? 23
        let mtu = max(23, min(negotiated, mtuCap ?? negotiated))
        return BlueZDFULink(peripheral, controlPoint: controlPoint, data: data, notifications: notifications, dataSocket: dataSocket, mtu: mtu)
    }

    private init(
        _ peripheral: BLEPeripheral, controlPoint: BLECharacteristic, data: BLECharacteristic, notifications: BLENotifications,
        dataSocket: BLEWriteSocket?, mtu: Int
    ) {
        self.peripheral = peripheral
        self.controlPoint = controlPoint
        self.data = data
        self.notifications = notifications
        self.dataSocket = dataSocket
        self.mtu = mtu
        linkDescription = "BLE \(peripheral.device.address)"
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        controlPointNotifications = stream
        let (dropped, drop) = AsyncStream<Void>.makeStream()
        self.dropped = dropped
        let endpoint = peripheral.endpoint
        let lost = { @Sendable (reason: String) in
            drop.yield()
            continuation.finish(throwing: SMPTransportError(
                .closed, "\(endpoint): the Bluetooth link was lost (\(reason))",
                hint: "the device may have reset or gone out of range; run the update again"))
        }
        let values = notifications.values
        watchers = [
            Task {
                do {
                    for try await value in values { continuation.yield(value) }
                    continuation.finish()
                } catch let end as BLELinkEnded {
                    lost(end.reason)
                } catch {
                    lost("\(error)")
                }
            },
            Task {
                let reason = await peripheral.disconnection(watching: controlPoint)
                if !Task.isCancelled { lost(reason) }
            },
        ]
    }

    func writeControlPoint(_ bytes: [UInt8]) async throws {
        try await controlPoint.write(bytes, withResponse: true)
    }

    func writeData(_ bytes: [UInt8]) async throws {
        guard let dataSocket else { return try await data.write(bytes, withResponse: false) }
        do {
            try await dataSocket.write([bytes])
        } catch {
            throw SMPTransportError(.closed, "\(peripheral.endpoint): the Bluetooth link was lost (\(error.reason))")
        }
    }

    /// Waits for the device to drop the link (at most `limit`), then ends it.
    func closeWhenDropped(within limit: Duration) async {
        let dropped = dropped
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in dropped { return } }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        await close()
    }

    func close() async {
        for watcher in watchers { watcher.cancel() }
        await notifications.stop()
        await dataSocket?.close()
        await peripheral.disconnect()
    }
}

extension NordicDFUConnection {
    /// How long finding and connecting a Bluetooth bootloader may take by default (it may still
    /// be resetting into its bootloader).
    static let bluetoothConnectTimeout: Duration = .seconds(30)

    /// Opens the Nordic DFU bootloader a BLE connection names: a Secure DFU or legacy DFU
    /// bootloader, by the services it offers, or an application with buttonless DFU, which is
    /// sent into its bootloader first; `entered` learns where the bootloader advertises then,
    /// so that a reconnection goes straight there.
    static func openBluetooth(
        _ target: BLEDeviceFilter.Selector, options: ConnectionOptions, logger: Logger,
        entered: @Sendable (BLEDeviceFilter.Selector) -> Void = { _ in }
    ) async throws -> any NordicDFUBootloader {
        let link = options.bleConnectOptions(timeout: options.timeout.map { .seconds($0) } ?? bluetoothConnectTimeout)
        let peripheral = try await connect(target, options: link, entered: entered)
        do {
            if let bootloader = try await bootloader(on: peripheral, options: options, logger: logger) { return bootloader }
            guard let bootloaderAt = try await enterBootloader(from: peripheral, logger: logger) else {
                throw await notADFUDevice(peripheral)
            }
            entered(bootloaderAt)
            let bootloaderPeripheral = try await BLEPeripheral.connect(bootloaderAt, options: link)
            do {
                if let bootloader = try await bootloader(on: bootloaderPeripheral, options: options, logger: logger) { return bootloader }
                throw SMPTransportError(
                    .notFound, "\(bootloaderPeripheral.endpoint): the device left its application but offers no DFU bootloader service",
                    hint: "its bootloader may not support DFU over Bluetooth")
            } catch {
                await bootloaderPeripheral.disconnect()
                throw error
            }
        } catch {
            await peripheral.disconnect()
            throw error
        }
    }

    /// The bootloader on `peripheral` when it runs one (Secure DFU's control point, or legacy
    /// DFU's with a Version other than an application's); nil when it runs an application.
    private static func bootloader(on peripheral: BLEPeripheral, options: ConnectionOptions, logger: Logger) async throws -> (any NordicDFUBootloader)? {
        if let controlPoint = await peripheral.characteristic(NordicDFUGATT.secureControlPoint, in: NordicDFUGATT.secureService),
            let data = await peripheral.characteristic(NordicDFUGATT.secureData, in: NordicDFUGATT.secureService) {
            let link = try await BlueZDFULink.open(peripheral, controlPoint: controlPoint, data: data, mtuCap: options.mtu)
            var transportOptions = SecureDFUBLETransport.Options()
            if let timeout = options.timeout { transportOptions.responseTimeout = .seconds(timeout) }
            return SecureDFUBootloader(transport: SecureDFUBLETransport(link: link, options: transportOptions, logger: logger))
        }
        guard let controlPoint = await peripheral.characteristic(NordicDFUGATT.legacyControlPoint, in: NordicDFUGATT.legacyService),
            let packet = await peripheral.characteristic(NordicDFUGATT.legacyPacket, in: NordicDFUGATT.legacyService)
        else { return nil }
        let version = try await legacyVersion(of: peripheral)
        guard version != NordicDFUGATT.legacyApplicationVersion else { return nil }
        let link = try await BlueZDFULink.open(peripheral, controlPoint: controlPoint, data: packet, mtuCap: options.mtu)
        return LegacyDFUBootloader(transport: LegacyDFUBLETransport(
            link: link, dfuVersion: version, responseTimeout: options.timeout.map { .seconds($0) } ?? .seconds(10)))
    }

    /// The legacy DFU Version characteristic (nil when the device has none, as SDK ≤ 6 bootloaders).
    private static func legacyVersion(of peripheral: BLEPeripheral) async throws -> UInt16? {
        guard let characteristic = await peripheral.characteristic(NordicDFUGATT.legacyVersion, in: NordicDFUGATT.legacyService) else { return nil }
        let value = try await characteristic.read()
        guard value.count >= 2 else {
            throw SMPTransportError(.io, "\(peripheral.endpoint): the DFU Version characteristic holds \(value.count) bytes, not 2")
        }
        return UInt16(value[0]) | UInt16(value[1]) << 8
    }

    /// Sends an application with buttonless DFU into its bootloader and returns where the
    /// bootloader will advertise; nil when the device offers no buttonless entry.
    private static func enterBootloader(from peripheral: BLEPeripheral, logger: Logger) async throws -> BLEDeviceFilter.Selector? {
        let address = peripheral.device.address
        if let characteristic = await peripheral.characteristic(NordicDFUGATT.buttonlessWithoutBonds, in: NordicDFUGATT.secureService) {
            let name = ButtonlessDFU.bootloaderName(for: address)
            try await ButtonlessDFU(characteristic: characteristic, endpoint: peripheral.endpoint).enter(advertisingAs: name)
            logger.info("\(peripheral.endpoint): sent the application into its bootloader (buttonless, advertising as \(name))")
            await leave(peripheral)
            return .name(name)
        }
        if let characteristic = await peripheral.characteristic(NordicDFUGATT.buttonlessWithBonds, in: NordicDFUGATT.secureService) {
            try await ButtonlessDFU(characteristic: characteristic, endpoint: peripheral.endpoint).enter(advertisingAs: nil)
            logger.info("\(peripheral.endpoint): sent the application into its bootloader (buttonless, bond kept)")
            await leave(peripheral)
            return .address(address)
        }
        if let controlPoint = await peripheral.characteristic(NordicDFUGATT.legacyControlPoint, in: NordicDFUGATT.legacyService),
            try await legacyVersion(of: peripheral) == NordicDFUGATT.legacyApplicationVersion {
            // [01 04]: Start with the application bit, which the application takes as "jump to the
            // bootloader"; it resets, so the write may fail as the link goes.
            let notifications = try await controlPoint.subscribe()
            do {
                try await controlPoint.write([LegacyDFUOpCode.start.rawValue, 0x04], withResponse: true)
            } catch {
                logger.debug("\(peripheral.endpoint): the jump to the bootloader ended the write: \(error)")
            }
            await notifications.stop()
            logger.info("\(peripheral.endpoint): sent the application into its legacy DFU bootloader (buttonless)")
            await leave(peripheral)
            return .address(address)
        }
        return nil
    }

    /// How long an application may take to drop the link once it agreed to enter its bootloader.
    static let departureTimeout: Duration = .seconds(5)

    /// Waits until the application, which agreed to enter its bootloader, drops the link (at most
    /// ``departureTimeout``: reconnecting sooner would reach the application again), then lets go.
    private static func leave(_ peripheral: BLEPeripheral) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await peripheral.disconnection() }
            group.addTask { try? await Task.sleep(for: departureTimeout) }
            await group.next()
            group.cancelAll()
        }
        await peripheral.disconnect()
    }

    /// Connects to `target`; when it names an address that does not answer within a third of the
    /// time, to the bootloader an earlier buttonless entry left behind (advertising as
    /// ``ButtonlessDFU/bootloaderName(for:)``), which a rerun after an interruption meets.
    private static func connect(
        _ target: BLEDeviceFilter.Selector, options: BLEConnectOptions, entered: @Sendable (BLEDeviceFilter.Selector) -> Void
    ) async throws -> BLEPeripheral {
        guard case .address(let address) = target else { return try await BLEPeripheral.connect(target, options: options) }
        var first = options
        first.timeout = options.timeout / 3
        let firstError: SMPTransportError
        do {
            return try await BLEPeripheral.connect(target, options: first)
        } catch {
            firstError = error
        }
        // Only a device that did not answer may have left a bootloader behind; a missing adapter
        // or bluetoothd, or a refusal, is said as it is.
        guard firstError.kind == .notFound || firstError.kind == .io else { throw firstError }
        let name = ButtonlessDFU.bootloaderName(for: address)
        var rest = options
        rest.timeout = options.timeout - first.timeout
        guard let peripheral = try? await BLEPeripheral.connect(.name(name), options: rest) else {
            throw SMPTransportError(
                .notFound, "ble:\(address.uppercased()): no device answered at that address within \(first.timeout), "
                    + "nor a bootloader it left behind (advertising as \(name)) in the \(rest.timeout) after",
                hint: firstError.hint ?? "check that it is advertising and in range", nextStep: .scanBluetooth)
        }
        entered(.name(name))
        return peripheral
    }

    /// The error for a device that offers no Nordic DFU at all: what it runs instead.
    private static func notADFUDevice(_ peripheral: BLEPeripheral) async -> SMPTransportError {
        let services = await peripheral.serviceUUIDs()
        if services.contains(BLEDevice.smpServiceUUID) {
            return SMPTransportError(
                .notFound, "\(peripheral.endpoint): the device runs an SMP (MCUmgr) server, not a Nordic DFU bootloader",
                hint: "an SMP device takes MCUboot images or SUIT envelopes, not a DFU package: upgrade it with the application's MCUboot image")
        }
        return SMPTransportError(
            .notFound, "\(peripheral.endpoint): the device offers no Nordic DFU service (Secure DFU 0xFE59, legacy DFU 00001530-…, or buttonless entry)",
            hint: "put it into its DFU bootloader (a button held at reset, or the application's own way), then run the update again")
    }
}

/// Secure DFU's buttonless entry (the application's `8EC90003-…` or `8EC90004-…`
/// characteristic): indications on, optionally the bootloader's advertising name, then Enter.
struct ButtonlessDFU {
    let characteristic: BLECharacteristic
    let endpoint: String

    /// Op codes and the response code.
    private enum OpCode: UInt8 {
        case enterBootloader = 0x01
        case setAdvertisingName = 0x02
        case response = 0x20
    }

    /// How long the application may take to answer.
    static let responseTimeout: Duration = .seconds(10)

    /// The bootloader's advertising name for the device at `address`: `Dfu` and the address's
    /// last three bytes, so that it is found again whatever address it takes.
    static func bootloaderName(for address: String) -> String {
        "Dfu" + address.split(separator: ":").suffix(3).joined()
    }

    /// Sets the advertising name (when given) and sends the application into its bootloader,
    /// within ``responseTimeout``.
    func enter(advertisingAs name: String?) async throws {
        let notifications = try await characteristic.subscribe()
        let values = notifications.values
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    var answers = values.makeAsyncIterator()
                    if let name {
                        let bytes = Array(name.utf8)
                        try await request([OpCode.setAdvertisingName.rawValue, UInt8(bytes.count)] + bytes, op: .setAdvertisingName, answers: &answers)
                    }
                    try await request([OpCode.enterBootloader.rawValue], op: .enterBootloader, answers: &answers)
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: Self.responseTimeout)
                    return false
                }
                let answered = try await group.next() ?? false
                group.cancelAll()
                guard answered else {
                    throw SMPTransportError(
                        .io, "\(endpoint): the application did not answer the buttonless DFU request within \(Self.responseTimeout)")
                }
            }
        } catch {
            await notifications.stop()
            throw error
        }
        await notifications.stop()
    }

    /// Writes `bytes` and waits for the response to `op`, which must be a success.
    private func request(
        _ bytes: [UInt8], op: OpCode, answers: inout AsyncThrowingStream<[UInt8], any Error>.Iterator
    ) async throws {
        try await characteristic.write(bytes, withResponse: true)
        guard let answer = try await answers.next(), answer.count >= 3, answer[0] == OpCode.response.rawValue, answer[1] == op.rawValue else {
            throw SMPTransportError(.io, "\(endpoint): the application gave no buttonless DFU answer to \(op)")
        }
        guard answer[2] == 0x01 else {
            throw SMPTransportError(
                .permissionDenied, "\(endpoint): the application refused to enter its bootloader (\(Self.statusText(answer[2])))",
                hint: answer[2] == 0x07 ? "pair with the device first (?pair=1)" : nil)
        }
    }

    /// The buttonless response statuses (nRF5 SDK `ble_dfu.h`).
    static func statusText(_ status: UInt8) -> String {
        switch status {
        case 0x02: "op code not supported"
        case 0x04: "operation failed"
        case 0x05: "invalid advertising name"
        case 0x06: "busy"
        case 0x07: "not bonded"
        default: "status \(status)"
        }
    }
}
