import Foundation
import SMPSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A device started for one case of the bad-input table: where it listens, what to do one second
/// into the command (kill it), and how to stop it.
struct BadInputDeviceHandle: Sendable {
    var endpoint: String
    var whileRunning: (@Sendable () -> Void)?
    var stop: @Sendable () async -> Void
}

/// Starts a fresh device per case, so that no case sees another's uploads or files.
enum BadInputDevices {
    /// Starts `kind`; `folder` holds the local files a `smpctl simulate` device preloads.
    static func start(_ kind: BadInputDevice, folder: String) async throws -> BadInputDeviceHandle {
        switch kind {
        case .silent:
            let socket = SilentSocketBox(try SilentUDPSocket())
            return BadInputDeviceHandle(endpoint: socket.socket.endpoint, stop: { _ = socket })
        case .killed:
            let process = try await simulate(folder: folder, options: [])
            process.process.send(SIGKILL)
            _ = await process.process.waitForExit()
            return BadInputDeviceHandle(endpoint: process.endpoint, stop: {})
        case .killedMidway:
            // Every answer 400 ms late, so that the command is still running when the device dies.
            let process = try await simulate(folder: folder, options: ["--delay", "1", "--delay-ms", "400"])
            let simulator = process.process
            return BadInputDeviceHandle(endpoint: process.endpoint, whileRunning: { simulator.send(SIGKILL) }, stop: { simulator.stop() })
        default:
            let device = VirtualDevice(configuration: configuration(kind), faultInjection: faults(kind))
            let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: 0)
            try await server.start()
            guard let endpoint = await server.endpoint else {
                await server.stop()
                throw BadInputSetupError("the virtual device reports no endpoint")
            }
            return BadInputDeviceHandle(endpoint: endpoint, stop: { await server.stop() })
        }
    }

    private static func configuration(_ kind: BadInputDevice) -> VirtualDeviceConfiguration {
        var configuration = VirtualDeviceConfiguration.fileSystemDevice(files: BadInputDeviceCases.remoteFiles)
        configuration.images = SimulatedImageConfiguration(imageCount: 1, slotSize: 256 * 1024)
        switch kind {
        case .refuseReset: configuration.resetHook = .refuseUnlessForced(.returnCode(.busy))
        case .bare:
            configuration.images = nil
            configuration.fileSystem = nil
        case .unsetClock: configuration.initialDateTime = nil
        default: break
        }
        return configuration
    }

    private static func faults(_ kind: BadInputDevice) -> FaultInjection {
        switch kind {
        case .dropAll: return FaultInjection(drop: 1)
        case .dropThird: return FaultInjection(drop: 0.3)
        case .corruptAll: return FaultInjection(corrupt: 1)
        case .corruptThird: return FaultInjection(corrupt: 0.3)
        case .duplicateAll: return FaultInjection(duplicate: 1)
        case .reorderAll: return FaultInjection(reorder: 1)
        case .delayAll: return FaultInjection(delay: 1, delayDuration: .seconds(2))
        case .busyAll: return FaultInjection(busy: 1)
        default: return .none
        }
    }

    /// A real `smpctl simulate` on a free UDP port with the `plain` device's big file.
    private static func simulate(folder: String, options: [String]) async throws -> (process: BackgroundProcess, endpoint: String) {
        let source = folder + "/remote-big.txt"
        if !FileManager.default.fileExists(atPath: source) {
            try Data(BadInputDeviceCases.remoteFiles["/lfs1/big.txt"] ?? []).write(to: URL(fileURLWithPath: source))
        }
        let process = try BackgroundProcess(smpctl: ["simulate", "--udp", "127.0.0.1:0", "--fs-file", "/lfs1/big.txt=" + source] + options)
        let announcement = await process.waitForLine { $0.contains("listening") }
        guard let endpoint = announcement.flatMap(XCTestCase.endpoint(in:)) else {
            process.stop()
            throw BadInputSetupError("smpctl simulate printed no address: \(process.stderr)")
        }
        return (process, endpoint)
    }
}

/// Keeps a silent socket open for as long as a case runs.
private final class SilentSocketBox: @unchecked Sendable {
    let socket: SilentUDPSocket
    init(_ socket: SilentUDPSocket) { self.socket = socket }
}
