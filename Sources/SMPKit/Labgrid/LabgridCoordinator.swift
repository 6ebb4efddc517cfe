#if canImport(Glibc)
import Glibc
#endif
import DescriptorIO
import FoundationEssentials
import JSON
import SMP
import Synchronization

/// A labgrid coordinator, reached through labgrid's own Python client (a small program embedded in
/// this library, run as a child process by the Python that runs `labgrid-client`): lists places, acquires a place and
/// gives its exported serial port, releases it.
///
/// A place is acquired under this host and user (labgrid's `LG_HOSTNAME`, `LG_USERNAME`), never taken
/// from someone else, and released by ``release(_:)``, by ``close()``, or by the helper itself when
/// this process ends (its standard input closes), however it ends.
///
/// ```swift
/// let lab = try await LabgridCoordinator.shared(address: LabgridCoordinator.address(option: nil))
/// let port = try await lab.acquire("rack-1")
/// let client = try await SMPConnection.open(try port.connection(options: ConnectionOptions()))
/// …
/// await lab.release("rack-1")
/// ```
///
/// Errors are `SMPTransportError`s: `notFound` (labgrid is not installed, no such place, the place
/// has no serial port), `refused` (the place is acquired by someone else: the message names the
/// holder), `unavailable` (the coordinator cannot be reached or refused a request).
public actor LabgridCoordinator {
    /// The coordinator's address, `HOST:PORT`.
    public nonisolated let address: String
    private let process: pid_t
    private let input: DescriptorChannel
    private let errors: HelperErrorOutput
    /// The requests waiting for their answer, by id (0: the helper's first line).
    private var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
    private var nextID = 1
    /// Why no more answers come, once the helper has ended or been closed.
    private var ended: SMPTransportError?

    /// The default coordinator, as labgrid's clients take it: `127.0.0.1:20408`.
    public static let defaultAddress = "127.0.0.1:20408"

    /// The coordinator to use: `option` (a connection's `coordinator=`), else labgrid's
    /// `LG_COORDINATOR`, else ``defaultAddress``.
    public static func address(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        option ?? environment["LG_COORDINATOR"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultAddress
    }

    private static let sessions = Mutex<[String: Task<LabgridCoordinator, any Error>]>([:])

    /// The one session of this process with the coordinator at `address`, started when first asked for.
    public static func shared(address: String, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> LabgridCoordinator {
        let task = sessions.withLock { sessions in
            if let task = sessions[address] { return task }
            let task = Task { try await LabgridCoordinator(address: address, environment: environment) }
            sessions[address] = task
            return task
        }
        return try await task.value
    }

    /// Closes every shared session (``close()``): each releases what it acquired and its helper ends.
    public static func closeAll() async {
        let tasks = sessions.withLock { sessions in
            defer { sessions = [:] }
            return Array(sessions.values)
        }
        for task in tasks { await (try? task.value)?.close() }
    }

    /// Starts labgrid's client towards the coordinator at `address` and waits until it is connected.
    ///
    /// - Parameters:
    ///   - address: the coordinator, `HOST:PORT`.
    ///   - environment: where `SMPCTL_LABGRID_PYTHON` and `PATH` are read; the helper gets it.
    public init(address: String, environment: [String: String] = ProcessInfo.processInfo.environment) async throws {
        self.address = address
        let python = try LabgridPython.find(environment: environment)
        let child = try HelperProcess(python: python, arguments: ["-c", LabgridHelperScript.source, address], environment: environment)
        process = child.pid
        input = child.input
        errors = HelperErrorOutput(child.errors)
        let hello: JSONValue
        do {
            hello = try await withCheckedThrowingContinuation { hello in
                waiting[0] = hello
                Task { await self.readAnswers(child.output) }
            }
        } catch {
            await shutDown()
            throw error
        }
        guard hello["ready"] == .bool(true) else {
            await shutDown()
            let detail = hello["error"]?.text ?? "no answer"
            if hello["missing"] == .bool(true) {
                throw SMPTransportError(.notFound, "labgrid is not installed for \(python): \(detail)", hint: LabgridPython.installHint)
            }
            throw SMPTransportError(
                .unavailable, "the labgrid coordinator at \(address) cannot be reached: \(detail)",
                hint: "start labgrid-coordinator there, or name another with LG_COORDINATOR=HOST:PORT or ?coordinator=HOST:PORT")
        }
    }

    /// The places whose names match `pattern` (fnmatch: `*`, `?`, `[…]`), by name, without acquiring any.
    public func places(matching pattern: String) async throws -> [LabgridPlaceInfo] {
        let answer = try await request(["op": .string("places"), "pattern": .string(pattern)])
        guard case .array(let items)? = answer["places"] else { throw failure(answer, "listing places") }
        return items.compactMap { item in
            guard let name = item["name"]?.text else { return nil }
            let ports: [String]
            if case .array(let values)? = item["serial"] { ports = values.compactMap(\.text) } else { ports = [] }
            return LabgridPlaceInfo(name: name, holder: item["holder"]?.text, serialPorts: ports)
        }
    }

    /// Acquires `place` and returns its serial port, as its exporter publishes it once the place is acquired.
    ///
    /// - Throws: `SMPTransportError`: `refused` when someone else holds the place (the message names
    ///   them), `notFound` for an unknown place or one without a serial port, `unavailable` otherwise.
    public func acquire(_ place: String) async throws -> LabgridSerialPort {
        let answer = try await request(["op": .string("acquire"), "place": .string(place)])
        if let holder = answer["holder"]?.text {
            throw SMPTransportError(
                .refused, "place \(place) is acquired by \(holder)",
                hint: "see who holds it with labgrid-client -p \(place) show; they release it with labgrid-client -p \(place) release")
        }
        if answer["unknown"] == .bool(true) {
            throw SMPTransportError(.notFound, "the labgrid coordinator at \(address) has no place \(place)", hint: "list the places with labgrid-client places")
        }
        if answer["noSerial"] == .bool(true) {
            throw SMPTransportError(
                .notFound, "place \(place) has no serial port",
                hint: "add one to the place: labgrid-client -p \(place) add-match EXPORTER/GROUP/NetworkSerialPort")
        }
        guard let host = answer["host"]?.text, case .int(let port)? = answer["port"], case .int(let speed)? = answer["speed"] else {
            throw failure(answer, "acquiring place \(place)")
        }
        return LabgridSerialPort(host: host, port: Int(port), protocol: answer["protocol"]?.text ?? "rfc2217", speed: Int(speed))
    }

    /// Releases `place`, acquired by ``acquire(_:)``; a failure is not thrown (the helper releases it
    /// again when it ends).
    public func release(_ place: String) async {
        _ = try? await request(["op": .string("release"), "place": .string(place)])
    }

    /// Ends the session: the helper releases every place still acquired, then exits; returns once it has.
    public func close() async {
        guard ended == nil else { return }
        await shutDown()
    }

    private func shutDown() async {
        ended = ended ?? SMPTransportError(.closed, "the session with the labgrid coordinator at \(address) is closed")
        input.close()
        await input.closed()
        // The helper exits at the end of its input, after its releases: wait for it.
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 && errno == EINTR {}
    }

    /// Sends one request and returns its answer. Not cancelled with the calling task: a release
    /// after Ctrl-C must still be sent and answered.
    private func request(_ members: [String: JSONValue]) async throws -> JSONValue {
        if let ended { throw ended }
        let id = nextID
        nextID += 1
        var fields = members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        fields.append(("id", .int(Int64(id))))
        let line = Array((JSONValue.object(fields).serialized() + "\n").utf8)
        return try await withCheckedThrowingContinuation { answer in
            waiting[id] = answer
            Task { [input] in
                do {
                    try await input.write([line])
                } catch {
                    self.answer(id, with: .failure(self.helperEnded()))
                }
            }
        }
    }

    private func answer(_ id: Int, with result: Result<JSONValue, any Error>) {
        waiting.removeValue(forKey: id)?.resume(with: result)
    }

    /// Reads the helper's lines and hands each to the request of its id, until the helper ends.
    private func readAnswers(_ output: DescriptorChannel) async {
        var pending: [UInt8] = []
        do {
            for try await chunk in output.reads {
                pending += chunk.bytes
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    guard let value = try? JSONValue.parse(line) else {
                        let text = String(decoding: line, as: UTF8.self)
                        let failure = SMPTransportError(.io, "labgrid's client wrote \"\(text)\" where JSON was expected")
                        for id in waiting.keys { answer(id, with: .failure(failure)) }
                        continue
                    }
                    if case .int(let id)? = value["id"] { answer(Int(id), with: .success(value)) } else { answer(0, with: .success(value)) }
                }
            }
        } catch {
            // The helper closed its output: fail what waits, below.
        }
        output.close()
        let failure = ended ?? helperEnded()
        ended = failure
        for id in waiting.keys { answer(id, with: .failure(failure)) }
    }

    private func helperEnded() -> SMPTransportError {
        let said = errors.tail.trimmingWhitespace
        return SMPTransportError(
            .unavailable, "labgrid's client ended while talking to the coordinator at \(address)" + (said.isEmpty ? "" : ": \(said)"))
    }

    private func failure(_ answer: JSONValue, _ doing: String) -> SMPTransportError {
        SMPTransportError(.unavailable, "the labgrid coordinator at \(address) failed \(doing): \(answer["error"]?.text ?? answer.serialized())")
    }
}

/// A place as the coordinator lists it.
public struct LabgridPlaceInfo: Sendable, Hashable {
    /// The place's name.
    public var name: String
    /// Who holds it, `HOST/USER`, or nil when it is free.
    public var holder: String?
    /// The serial ports it matches, `EXPORTER/GROUP/NAME`.
    public var serialPorts: [String]

    /// Creates a place description.
    public init(name: String, holder: String?, serialPorts: [String]) {
        self.name = name
        self.holder = holder
        self.serialPorts = serialPorts
    }
}

/// The serial port of an acquired place, as its exporter publishes it (labgrid's `NetworkSerialPort`).
public struct LabgridSerialPort: Sendable, Hashable {
    /// The exporter's host.
    public var host: String
    /// The TCP port of its serial server (ser2net).
    public var port: Int
    /// `rfc2217` (ser2net's telnet with RFC 2217, what labgrid's exporter starts) or `raw`.
    public var `protocol`: String
    /// The line speed, baud.
    public var speed: Int

    /// Creates a port description.
    public init(host: String, port: Int, protocol: String, speed: Int) {
        self.host = host
        self.port = port
        self.protocol = `protocol`
        self.speed = speed
    }

    /// The connection to the port: `serial:rfc2217://HOST:PORT` or `serial:tcp://HOST:PORT`, at the
    /// port's speed unless `options` set a baud rate, with `options` (framing, pacing, timeout…).
    public func connection(options: ConnectionOptions) throws -> ConnectionString {
        let scheme = self.protocol == "raw" ? "tcp" : self.protocol
        let hostPart = host.contains(":") ? "[\(host)]" : host
        var items = options.queryItems.map { "\($0.0)=\($0.1)" }
        if !options.queryItems.contains(where: { $0.0 == "baud" }) { items.insert("baud=\(speed)", at: 0) }
        return try ConnectionString(parsing: "serial:\(scheme)://\(hostPart):\(port)?" + items.joined(separator: "&"))
    }
}

extension JSONValue {
    /// The string, when the value is one.
    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
