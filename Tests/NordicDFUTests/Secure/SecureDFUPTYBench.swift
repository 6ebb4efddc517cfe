import Foundation
import NordicDFU
import SMP
import SMPSimulator

/// A virtual Secure DFU bootloader on a pseudo-terminal, and the client's side of it.
struct SecureDFUPTYBench {
    let server: SecureDFUPTYServer
    let path: String

    /// Starts a bootloader that accepts every init packet for an image of `firmwareSize` bytes,
    /// unless `initPacketCheck` says otherwise.
    static func start(
        firmwareSize: Int, faults: SecureDFUTargetFaults = SecureDFUTargetFaults(),
        firmwareCheck: @escaping @Sendable ([UInt8], [UInt8]) -> SecureDFURefusal? = { _, _ in nil },
        initPacketCheck: (@Sendable ([UInt8], [SecureDFUTarget.InstalledImage]) -> SecureDFUTarget.InitPacketVerdict)? = nil
    ) async throws -> SecureDFUPTYBench {
        let configuration = SecureDFUTarget.Configuration(
            faults: faults, firmwareCheck: firmwareCheck,
            initPacketCheck: initPacketCheck ?? { _, _ in .accept(firmwareSize: firmwareSize) })
        let unique = "smpctl-\(getpid())-\(UUID().uuidString.prefix(8))-dfu"
        let server = SecureDFUPTYServer(
            target: SecureDFUTarget(configuration: configuration), linkPath: (NSTemporaryDirectory() as NSString).appendingPathComponent(unique))
        let path = try await server.start()
        return SecureDFUPTYBench(server: server, path: path)
    }

    /// Opens the port (once the bootloader has linked it again, after a disconnect fault made it
    /// "re-enumerate"), sends the update and closes the port, whatever happens.
    func send(
        initPacket: [UInt8], firmware: [UInt8], options: SecureDFUEngine.Options = SecureDFUEngine.Options(),
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> SecureDFUTransferReport {
        try await waitForLink()
        let transport = try await SecureDFUSerialTransport.open(path: path, logger: quiet)
        do {
            let report = try await SecureDFUEngine(transport: transport, options: options, logger: quiet)
                .send(initPacket: initPacket, firmware: firmware, progress: progress)
            await transport.close()
            return report
        } catch {
            await transport.close()
            throw error
        }
    }

    /// Waits (up to 5 s) until the port's link exists: after a disconnect fault the bootloader
    /// links a new pseudo-terminal there, as a device re-enumerates.
    private func waitForLink() async throws {
        var polls = 0
        while !FileManager.default.fileExists(atPath: path), polls < 500 {
            polls += 1
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func stop() async {
        await server.stop()
    }
}
