import Logging
import SMP
import SMPKit
import SMPSerial
import SMPSerialDiscovery

/// `ports --probe`: whether a port answers an SMP echo.
enum PortProbe: Sendable, Equatable {
    /// It answered, after this round trip.
    case answered(Duration)
    /// It did not answer in time.
    case silent
    /// The port could not be used for SMP here (e.g. the serial transport is missing).
    case unavailable(String)
    /// Something else went wrong.
    case failed(String)

    /// The text sent; the device must send it back.
    static let echoText = "smpctl ports --probe"

    /// Probes every port at once; the answers, keyed by path.
    static func probe(_ ports: [SerialPortInfo], timeout: Duration, logger: Logger) async -> [String: PortProbe] {
        await withTaskGroup(of: (String, PortProbe).self) { group in
            for port in ports {
                group.addTask { (port.path, await probe(port.path, timeout: timeout, logger: logger)) }
            }
            var results: [String: PortProbe] = [:]
            for await (path, result) in group { results[path] = result }
            return results
        }
    }

    /// Opens `serial:PATH`, sends one echo without retries, closes.
    static func probe(_ path: String, timeout: Duration, logger: Logger) async -> PortProbe {
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
        let result: PortProbe
        do {
            let reply = try await client.send(OSEcho(echoText))
            result = reply == echoText ? .answered(clock.now - start) : .failed("it echoed \"\(reply)\" instead of \"\(echoText)\"")
        } catch {
            if case .timeout = error { result = .silent } else { result = .failed(error.description) }
        }
        await client.close()
        return result
    }

    /// "answered", "silent", "unavailable" or "failed".
    var name: String {
        switch self {
        case .answered: return "answered"
        case .silent: return "silent"
        case .unavailable: return "unavailable"
        case .failed: return "failed"
        }
    }

    /// For the table: "SMP (3.2 ms)", "no answer", "not available", "error".
    var summary: String {
        switch self {
        case .answered(let roundTrip): return "SMP (\(roundTrip.millisecondsText))"
        case .silent: return "no answer"
        case .unavailable: return "not available"
        case .failed: return "error"
        }
    }

    /// Why it did not answer, when there is more to say.
    var detail: String? {
        switch self {
        case .answered, .silent: return nil
        case .unavailable(let message), .failed(let message): return message
        }
    }

    /// `{"result", "roundTripMs", "message"}`.
    var json: JSONValue {
        var roundTrip = JSONValue.null
        if case .answered(let duration) = self { roundTrip = .double((duration.milliseconds * 1000).rounded() / 1000) }
        return .object([("result", .string(name)), ("roundTripMs", roundTrip), ("message", detail.map(JSONValue.string) ?? .null)])
    }
}
