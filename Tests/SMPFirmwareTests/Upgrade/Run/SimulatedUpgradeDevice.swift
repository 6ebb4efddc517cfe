import FoundationEssentials
import SMP
import SMPFirmware
import SMPKit
import SMPSimulator
import Synchronization
import XCTest

/// A virtual device served over UDP on 127.0.0.1 for in-process upgrades, and how to reach it.
struct SimulatedUpgradeDevice {
    let device: VirtualDevice
    let connection: ConnectionString

    /// The slot size of the devices and images here.
    static let slotSize = 0x40000
    /// The flash address of image 0's slot 0 (DirectXIP images are linked for it and the next slot).
    static let flashBase: UInt32 = 0x10000

    /// An MCUboot device in `mode` running 1.0.0, confirmed, that resets quickly.
    static func mcuboot(_ mode: MCUbootMode = .swapUsingMove) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration()
        configuration.bootloaderMode = mode
        configuration.resetDelay = .milliseconds(20)
        configuration.images = SimulatedImageConfiguration(slotSize: slotSize, flashBase: UInt64(flashBase))
        return configuration
    }

    /// A swap-mode MCUboot device that starts in its serial recovery.
    static func inSerialRecovery() -> VirtualDeviceConfiguration {
        var configuration = mcuboot()
        configuration.recovery = MCUbootRecoveryConfiguration()
        configuration.startsInRecovery = true
        return configuration
    }

    /// A sound MCUboot image for image 0 (`size` bytes of body), linked for `slot` when given (DirectXIP).
    static func image(version: (UInt8, UInt8, UInt16, UInt32) = (2, 0, 0, 0), size: Int = 8192, slot: Int? = nil) throws -> MCUbootUpgradeImage {
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(version.0) &+ (slot ?? 0)) }
        let address = slot.map { flashBase + UInt32($0 * slotSize) } ?? 0
        let bytes = SimulatedImageHeader.soundImageFile(
            version: version, body: body, flags: slot == nil ? 0 : SimulatedImageHeader.romFixedFlag, loadAddress: address)
        let name = slot.map { "app-slot\($0).bin" } ?? "app.bin"
        return try MCUbootUpgradeImage(PackageImage(image: 0, slot: slot, target: .application, fileName: name, bytes: bytes))
    }
}

extension XCTestCase {
    /// Starts `configuration` as a virtual device; its server stops when the test ends.
    func serveUpgradeDevice(_ configuration: VirtualDeviceConfiguration) async throws -> SimulatedUpgradeDevice {
        let device = VirtualDevice(configuration: configuration)
        return SimulatedUpgradeDevice(device: device, connection: try await serveAgain(device))
    }

    /// Serves `device` on one more UDP port (stopped when the test ends, or by `stop`), and
    /// gives the connection to it.
    func serveAgain(_ device: VirtualDevice, stop: ServerStopper? = nil) async throws -> ConnectionString {
        let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
        _ = try await server.start()
        addTeardownBlock { await server.stop() }
        stop?.hold(server)
        let reported = await server.endpoint
        let endpoint = try XCTUnwrap(reported, "the server reports no endpoint")
        return try ConnectionString(parsing: endpoint)
    }

    /// A connection to `device`, closed when the test ends.
    func openClient(_ connection: ConnectionString) async throws -> SMPClient {
        let client = try await SMPConnection.open(connection)
        addTeardownBlock { await client.close() }
        return client
    }

    /// Installs `content` on `device` in-process, recording every event.
    func runUpgrade(
        _ content: UpgradeContent, on device: SimulatedUpgradeDevice, options: UpgradeOptions = UpgradeOptions(),
        events: RecordedUpgradeEvents, reconnect: FirmwareUpgrade.Reconnect? = nil
    ) async throws -> any UpgradeReport {
        let client = try await openClient(device.connection)
        let upgrade = FirmwareUpgrade(client: client, reconnect: reconnect, options: options) { events.record($0) }
        return try await upgrade.run(content)
    }
}

/// Upgrade options for the fast virtual devices: a short grace time after the reset.
func quickOptions(_ mode: UpgradeMode = .testAndConfirm, viaBootloader: Bool = false) -> UpgradeOptions {
    UpgradeOptions(mode: mode, resetTimeout: .seconds(20), resetGrace: .milliseconds(300), viaBootloader: viaBootloader)
}

/// Stops a server on demand (a USB device that leaves at its reset).
final class ServerStopper: Sendable {
    private let servers = Mutex<[UDPSimulatorServer]>([])

    func hold(_ server: UDPSimulatorServer) {
        servers.withLock { $0.append(server) }
    }

    func stopAll() async {
        for server in servers.withLock({ $0 }) { await server.stop() }
    }
}

/// The events of an upgrade, in order, with ways to read them.
final class RecordedUpgradeEvents: Sendable {
    private let events = Mutex<[UpgradeEvent]>([])

    func record(_ event: UpgradeEvent) {
        events.withLock { $0.append(event) }
    }

    var all: [UpgradeEvent] { events.withLock { $0 } }

    /// The names of the steps that started, in order.
    var startedSteps: [String] {
        all.compactMap { event in
            if case .stepStarted(let step, _, _) = event { return step.name }
            return nil
        }
    }

    /// The names of the steps that finished, in order.
    var finishedSteps: [String] {
        all.compactMap { event in
            if case .stepFinished(let step, _, _, _) = event { return step.name }
            return nil
        }
    }

    var notes: [String] {
        all.compactMap { event in
            if case .note(let text) = event { return text }
            return nil
        }
    }

    var plans: [any UpgradePlan] {
        all.compactMap { event in
            if case .planned(let plan) = event { return plan }
            return nil
        }
    }

    var inspected: [any UpgradeDeviceState] {
        all.compactMap { event in
            if case .inspected(let state) = event { return state }
            return nil
        }
    }

    var progress: [(upload: UpgradeUpload, progress: UploadProgress)] {
        all.compactMap { event in
            if case .uploadProgress(let upload, let progress) = event { return (upload, progress) }
            return nil
        }
    }

    var requests: [UpgradeResourceRequest] {
        all.compactMap { event in
            if case .resourceRequested(let request) = event { return request }
            return nil
        }
    }
}

extension ImageSlotState {
    /// `0/1 2.0.0 ac` (image/slot version, then a for active, c for confirmed, p for pending).
    var brief: String {
        "\(image)/\(slot) \(version) " + (active ? "a" : "") + (confirmed ? "c" : "") + (pending ? "p" : "")
    }
}
