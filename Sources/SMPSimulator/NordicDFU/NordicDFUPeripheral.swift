import NordicDFU

/// A Nordic DFU device as a BLE peripheral: a ``SecureDFUTarget`` or ``LegacyDFUTarget`` behind
/// its GATT characteristics, optionally started as an application that offers buttonless DFU.
/// A pure state machine: each ``NordicDFUBridgeEvent`` in, the ``NordicDFUBridgeCommand``s it
/// causes out; ``NordicDFUDatagramServer`` puts it on UDP for the BlueZ mock.
///
/// - The Secure bootloader takes Control Point writes as requests and Data writes as the data of
///   a Write request (on BLE the data characteristic carries the bare bytes); answers and receipt
///   notifications are notified on the Control Point. A disconnect fault drops the link, and an
///   Execute that installs the image resets the device.
/// - The legacy bootloader takes Control Point and Packet writes as ``LegacyDFUTarget`` does;
///   Activate and reset, and Reset, reset the device.
/// - The buttonless applications answer as the nRF5 SDK's `ble_dfu` service does: Secure without
///   bonds (`8EC90003-…`) takes `[02, length, name]` (the bootloader's advertising name, at most
///   20 bytes; answered `[20 02 01]`, or `[20 02 05]` for an invalid name) and `[01]` (answered
///   `[20 01 01]`, then the device reboots into its bootloader at its address + 1); with bonds
///   (`8EC90004-…`) only `[01]`, the bootloader keeping the address. Other op codes are answered
///   `[20 op 02]`. The legacy application (DFU Version 0x0001) reboots into its bootloader, at the
///   same address, on `[01 04]` (Start DFU, application) and ignores other writes.
///
/// The bootloader's state (init packet, image received, images installed) persists across links
/// and resets, as ``SecureDFUPTYServer`` keeps it.
public struct NordicDFUPeripheral: Sendable {
    /// The bootloader and its state.
    public enum Bootloader: Sendable {
        /// A Secure DFU bootloader (nRF5 SDK 12–17).
        case secure(SecureDFUTarget)
        /// A legacy DFU bootloader (nRF5 SDK ≤ 11).
        case legacy(LegacyDFUTarget)
    }

    /// The buttonless DFU service an application offers.
    public enum ButtonlessService: String, Sendable, Hashable, CaseIterable {
        /// Secure buttonless DFU without bonds (`8EC90003-…`): the bootloader comes back at the
        /// address + 1, under the name set.
        case secure
        /// Secure buttonless DFU with bonds (`8EC90004-…`): the bootloader keeps the address.
        case secureBonded = "secure-bonded"
        /// Legacy buttonless DFU (DFU Version 0x0001): the bootloader keeps the address.
        case legacy

        /// The kind of bootloader it enters.
        public var bootloaderKind: NordicDFUBridgeCommand.BootloaderKind {
            self == .legacy ? .legacy : .secure
        }
    }

    /// What runs on the device.
    public enum Running: Sendable, Hashable {
        /// The application, offering this buttonless service.
        case application(ButtonlessService)
        /// The bootloader.
        case bootloader
    }

    /// The advertising name of the nRF5 SDK bootloaders (`NRF_DFU_BLE_ADV_NAME`, SDK 11's `DEVICE_NAME`).
    public static let defaultBootloaderName = "DfuTarg"
    /// The longest advertising name a buttonless client may set (`NRF_DFU_BLE_ADV_NAME_MAX_LENGTH`).
    public static let maximumBootloaderNameLength = 20

    /// The bootloader, with its statistics and installed images.
    public private(set) var bootloader: Bootloader
    /// What runs now.
    public private(set) var running: Running
    /// The address of the device the last link was made to; nil before the first link.
    public private(set) var address: SimulatedBluetoothAddress?
    /// The name the bootloader advertises once entered.
    public private(set) var bootloaderName = Self.defaultBootloaderName
    /// How many links were made.
    public private(set) var links = 0
    /// Events that did not fit the device (a data write to an application, a malformed datagram).
    public private(set) var ignoredEvents = 0

    /// A device running the Secure bootloader, or an application offering `buttonless`
    /// (``ButtonlessService/secure`` or ``ButtonlessService/secureBonded``) that enters it.
    public init(secure target: SecureDFUTarget, buttonless: ButtonlessService? = nil) throws(NordicDFUPeripheralError) {
        try self.init(bootloader: .secure(target), buttonless: buttonless)
    }

    /// A device running the legacy bootloader, or with `buttonless` the legacy application that
    /// enters it.
    public init(legacy target: LegacyDFUTarget, buttonless: Bool = false) {
        bootloader = .legacy(target)
        running = buttonless ? .application(.legacy) : .bootloader
    }

    private init(bootloader: Bootloader, buttonless: ButtonlessService?) throws(NordicDFUPeripheralError) {
        if let buttonless, buttonless.bootloaderKind != .secure {
            throw NordicDFUPeripheralError(buttonless: buttonless)
        }
        self.bootloader = bootloader
        running = buttonless.map { .application($0) } ?? .bootloader
    }

    /// The Secure bootloader, if that is the device's.
    public var secureTarget: SecureDFUTarget? {
        if case .secure(let target) = bootloader { return target }
        return nil
    }

    /// The legacy bootloader, if that is the device's.
    public var legacyTarget: LegacyDFUTarget? {
        if case .legacy(let target) = bootloader { return target }
        return nil
    }

    /// Handles one event; returns the commands for the mock, in order.
    public mutating func handle(_ event: NordicDFUBridgeEvent) -> [NordicDFUBridgeCommand] {
        switch event {
        case .connected(let address):
            self.address = address
            links += 1
            return []
        case .disconnected:
            return []
        case .controlPointWrite(let bytes):
            switch running {
            case .application(let service): return buttonless(service, bytes)
            case .bootloader: return bootloaderWrite(bytes, toData: false)
            }
        case .dataWrite(let bytes):
            guard running == .bootloader else {
                ignoredEvents += 1
                return []
            }
            return bootloaderWrite(bytes, toData: true)
        }
    }

    /// Counts a datagram that is no ``NordicDFUBridgeEvent``.
    mutating func ignoreMalformedDatagram() {
        ignoredEvents += 1
    }

    // MARK: The bootloaders

    private mutating func bootloaderWrite(_ bytes: [UInt8], toData: Bool) -> [NordicDFUBridgeCommand] {
        switch bootloader {
        case .secure(var target):
            let installs = target.statistics.installs
            let reply = target.handle(toData ? [SecureDFUOpCode.write.rawValue] + bytes : bytes)
            bootloader = .secure(target)
            var commands = reply.answer.map { [NordicDFUBridgeCommand.notify($0)] } ?? []
            if reply.disconnect || target.statistics.installs > installs { commands.append(.reset) }
            return commands
        case .legacy(var target):
            let reply = toData ? target.packet(bytes) : target.controlPoint(bytes)
            bootloader = .legacy(target)
            return reply.notifications.map { .notify($0.bytes) } + (reply.reset ? [.reset] : [])
        }
    }

    // MARK: The buttonless applications

    private enum ButtonlessOpCode: UInt8 {
        case enterBootloader = 0x01, setAdvertisingName = 0x02, response = 0x20
    }

    private enum ButtonlessResult: UInt8 {
        case success = 0x01, opCodeNotSupported = 0x02, operationFailed = 0x04, advertisingNameInvalid = 0x05
    }

    private mutating func buttonless(_ service: ButtonlessService, _ bytes: [UInt8]) -> [NordicDFUBridgeCommand] {
        if service == .legacy {
            // The application's DFU service: Start DFU for an application enters the bootloader.
            guard bytes == [LegacyDFUOpCode.start.rawValue, DFUFirmwareType.application.legacyModeBits] else {
                ignoredEvents += 1
                return []
            }
            return [enterBootloader(.legacy, at: address)]
        }
        guard let first = bytes.first else { return [] }
        func respond(_ result: ButtonlessResult) -> NordicDFUBridgeCommand {
            .notify([ButtonlessOpCode.response.rawValue, first, result.rawValue])
        }
        switch ButtonlessOpCode(rawValue: first) {
        case .enterBootloader where bytes.count == 1:
            let target = service == .secure ? address?.incremented : address
            guard target != nil else { return [respond(.operationFailed)] }
            return [respond(.success), enterBootloader(.secure, at: target)]
        case .setAdvertisingName where service == .secure:
            let name = bytes.dropFirst(2)
            guard bytes.count >= 2, Int(bytes[1]) == name.count, (1...Self.maximumBootloaderNameLength).contains(name.count),
                let text = String(validating: name, as: UTF8.self)
            else { return [respond(.advertisingNameInvalid)] }
            bootloaderName = text
            return [respond(.success)]
        default:
            return [respond(.opCodeNotSupported)]
        }
    }

    private mutating func enterBootloader(_ kind: NordicDFUBridgeCommand.BootloaderKind, at address: SimulatedBluetoothAddress?) -> NordicDFUBridgeCommand {
        running = .bootloader
        guard let address else { return .reset }
        return .rebootIntoBootloader(kind, address: address, name: bootloaderName)
    }
}

/// A buttonless service that does not enter the device's bootloader (a legacy application over
/// a Secure bootloader).
public struct NordicDFUPeripheralError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The service asked for.
    public var buttonless: NordicDFUPeripheral.ButtonlessService

    /// An error about `buttonless`.
    public init(buttonless: NordicDFUPeripheral.ButtonlessService) {
        self.buttonless = buttonless
    }

    public var description: String {
        "buttonless \(buttonless.rawValue) DFU enters a \(buttonless.bootloaderKind == .legacy ? "legacy" : "Secure") DFU bootloader, not this one"
    }
}
