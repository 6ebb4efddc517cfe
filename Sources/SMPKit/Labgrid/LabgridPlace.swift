import SMP

/// A labgrid place a connection names (`labgrid:PLACE[?coordinator=HOST:PORT]`): reaching its device
/// means acquiring the place first (``LabgridCoordinator``), which gives its serial port.
public struct LabgridPlace: Sendable, Hashable, CustomStringConvertible {
    /// The place's name.
    public var name: String
    /// The coordinator, `HOST[:PORT]`, when the connection names one; else ``LabgridCoordinator/address(option:environment:)``
    /// decides (`LG_COORDINATOR`, then the default).
    public var coordinator: String?

    /// Creates a place reference.
    public init(name: String, coordinator: String? = nil) {
        self.name = name
        self.coordinator = coordinator
    }

    /// `labgrid:NAME`, with `?coordinator=` when one is named.
    public var description: String { "labgrid:\(name)" + (coordinator.map { "?coordinator=\($0)" } ?? "") }

    /// A place's connection is opened once the place is acquired, through its port's connection.
    var notAcquired: SMPTransportError {
        SMPTransportError(
            .unavailable, "\(self) is a labgrid place: its serial port is known once the place is acquired",
            hint: "open it through LabgridCoordinator.withDevice(of:), which acquires and releases the place")
    }
}

extension LabgridCoordinator {
    /// Runs `body` with the connection of `connection`'s device: for a labgrid place, the place is
    /// acquired first and released after `body`, however it ends (a thrown error, a cancelled
    /// task); any other connection is passed on as it is.
    ///
    /// - Throws: what acquiring throws (`SMPTransportError`: a place held by someone else is
    ///   `refused`), or what `body` throws.
    public static func withDevice<Value: Sendable>(
        of connection: ConnectionString, _ body: (ConnectionString) async throws -> Value
    ) async throws -> Value {
        guard case .labgridPlace(let place) = connection.target else { return try await body(connection) }
        let lab = try await shared(address: address(option: place.coordinator))
        let port = try await lab.acquire(place.name)
        do {
            let result = try await body(try port.connection(options: connection.options))
            await lab.release(place.name)
            return result
        } catch {
            await lab.release(place.name)
            throw error
        }
    }
}
