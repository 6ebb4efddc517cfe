import Logging
import SMP
import SMPSerial
import SMPSerialDiscovery

/// Whether a serial port answers an SMP echo: how to tell which of a machine's ports lead to an
/// SMP device without knowing its settings.
public enum SerialPortProbe: Sendable, Hashable {
    /// It answered, after this round trip.
    case answered(Duration)
    /// It did not answer in time.
    case silent
    /// The port could not be used for SMP here (e.g. the serial transport is missing).
    case unavailable(String)
    /// Something else went wrong.
    case failed(String)

    /// The text sent; the device must send it back.
    public static let echoText = "smpctl ports --probe"

    /// Probes every port at once; the answers, keyed by path.
    public static func probe(_ ports: [SerialPortInfo], timeout: Duration, logger: Logger) async -> [String: SerialPortProbe] {
        await withTaskGroup(of: (String, SerialPortProbe).self) { group in
            for port in ports {
                group.addTask { (port.path, await probe(port.path, timeout: timeout, logger: logger)) }
            }
            var results: [String: SerialPortProbe] = [:]
            for await (path, result) in group { results[path] = result }
            return results
        }
    }

    /// Opens `serial:PATH`, sends one echo without retries, closes.
    public static func probe(_ path: String, timeout: Duration, logger: Logger) async -> SerialPortProbe {
        var configuration = SMPClientConfiguration()
        configuration.timeout = timeout
        configuration.retries = 0
        let client: SMPClient
        do {
            client = try await SMPConnection.open(
                ConnectionString(target: .serial(.path(path))), configuration: configuration, logger: logger)
        } catch {
            if case .transport(let failure) = error, failure.kind == .unavailable { return .unavailable(failure.message) }
            return .failed(error.description)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let result: SerialPortProbe
        do {
            let reply = try await client.send(OSEcho(echoText))
            result = reply == echoText ? .answered(clock.now - start) : .failed("it echoed \"\(reply)\" instead of \"\(echoText)\"")
        } catch {
            if case .timeout = error { result = .silent } else { result = .failed(error.description) }
        }
        await client.close()
        return result
    }
}
