import Foundation
import SMPSimulator

/// Serving a virtual device on a fixed UDP port, for peers that reach only one port (smpmgr: 1337).
public enum FixedPortServer {
    /// Starts `device` on 127.0.0.1:`port`, retrying for a while if the port is taken (another
    /// test run may hold it); skips locally, fails in CI, if it never frees.
    public static func serve(_ device: VirtualDevice, port: Int) async throws -> UDPSimulatorServer {
        var lastError: SimulatorServerError?
        for _ in 0..<40 {
            let server = UDPSimulatorServer(device: device, host: "127.0.0.1", port: port)
            do {
                try await server.start()
                return server
            } catch {
                lastError = error
                guard error.kind == .addressInUse else { break }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        try ExternalTool.unavailable("cannot serve the virtual device on 127.0.0.1:\(port): \(lastError.map { "\($0)" } ?? "unknown")")
    }
}
