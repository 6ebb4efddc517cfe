import Foundation
import SMP
import SMPSimulator
import XCTest

/// A virtual device served on a pseudo-terminal for one test, reached by `smpctl` processes
/// through a symbolic link (`serial:/tmp/…`) as if it were `/dev/ttyACM0`.
///
/// The device outlives its server: ``XCTestCase/serveAgain(_:options:)`` stops the server and
/// serves the same device (and its image slots) on the same link with other line options, as when
/// a USB serial adapter is replugged.
struct ServedSerialDevice: Sendable {
    let device: VirtualDevice
    let server: PTYSimulatorServer
    /// The symbolic link the device is reached through.
    let linkPath: String

    /// `serial:LINK`.
    var connection: String { "serial:\(linkPath)" }
}

extension VirtualDeviceConfiguration {
    /// Zephyr's serial defaults (384-byte buffers, 4 of them) with one image of two 256 KiB slots.
    static var serialImageDevice: VirtualDeviceConfiguration {
        VirtualDeviceConfiguration(
            bufferSize: 384, bufferCount: 4, initialDateTime: ServedDevice.initialTime,
            images: SimulatedImageConfiguration(slotSize: 256 * 1024))
    }

    /// The default UDP device (2048-byte buffers, 4 of them) with one image of two 256 KiB slots.
    static var udpImageDevice: VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.zephyrForTests
        configuration.images = SimulatedImageConfiguration(slotSize: 256 * 1024)
        return configuration
    }
}

extension VirtualDevice {
    /// The bytes written to a slot of image 0 (0 primary, 1 secondary); empty without an image group.
    func slotContents(_ slot: Int) -> [UInt8] {
        (group(.image) as? ImageGroup)?.contents(image: 0, slot: slot) ?? []
    }
}

extension XCTestCase {
    /// Serves a new virtual device on a pseudo-terminal linked at a fresh temporary path; it stops
    /// when the test ends.
    func startSerialDevice(
        _ configuration: VirtualDeviceConfiguration = .serialImageDevice, faults: FaultInjection = .none,
        options: PTYSimulatorOptions = PTYSimulatorOptions()
    ) async throws -> ServedSerialDevice {
        let device = VirtualDevice(configuration: configuration, faultInjection: faults)
        let unique = "smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-tty"
        let linkPath = (NSTemporaryDirectory() as NSString).appendingPathComponent(unique)
        return try await serve(device, on: linkPath, options: options)
    }

    /// Stops `served`'s server and serves its device again on the same link with `options`.
    func serveAgain(_ served: ServedSerialDevice, options: PTYSimulatorOptions) async throws -> ServedSerialDevice {
        await served.server.stop()
        return try await serve(served.device, on: served.linkPath, options: options)
    }

    private func serve(_ device: VirtualDevice, on linkPath: String, options: PTYSimulatorOptions) async throws -> ServedSerialDevice {
        let server = PTYSimulatorServer(device: device, linkPath: linkPath, options: options)
        try await server.start()
        addTeardownBlock { await server.stop() }
        return ServedSerialDevice(device: device, server: server, linkPath: linkPath)
    }
}
