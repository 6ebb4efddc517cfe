import SMP

/// An open port and what reads and writes it.
struct SerialConnection: Sendable {
    /// The tty or TCP stream.
    var port: any SerialByteStream
    /// The reader and writer over the port's descriptor.
    var io: SerialIO
    /// Which opening of the port this is; events of an older one are ignored.
    var generation: Int
}

/// Everything about a serial link that changes, kept behind one lock.
struct SerialLinkState: Sendable {
    /// Where the link is in its life.
    enum Phase: Sendable {
        /// Being set up by `open`.
        case opening
        /// Open and working.
        case open(SerialConnection)
        /// The device disappeared; waiting for it to come back.
        case relocating
        /// Closed by us or failed for good; sends fail with this error.
        case closed(SMPTransportError)
    }

    var phase = Phase.opening
    /// How fast lines go out now, and whether that is known for this device.
    var pacing: LinePacing
    var pacingIsSettled: Bool
    /// The path of the port now (it changes when the device comes back elsewhere).
    var path: String
    /// Reassembles packets across reads (and keeps its statistics across reopenings).
    var decoder: any SerialMessageDecoding
    var statistics = SerialLinkStatistics()
    /// The number of the latest opening of the port.
    var generation = 0
    /// The opening that was lost when relocation began.
    var lostGeneration = 0
    /// Set when the port opened during relocation went away before it was installed.
    var endedDuringRelocation: String?
    /// Sends waiting for the device to come back.
    var waiters: [CheckedContinuation<Result<SerialConnection, SMPTransportError>, Never>] = []
    /// The task bringing the device back.
    var relocation: Task<Void, Never>?
    /// Connections whose device went away: their descriptors stay open until the transport
    /// closes (a pseudo-terminal's number, for one, is not handed out again meanwhile).
    var lost: [SerialConnection] = []

    /// What closing leaves to be done outside the lock.
    struct Ending {
        var connection: SerialConnection?
        var waiters: [CheckedContinuation<Result<SerialConnection, SMPTransportError>, Never>] = []
        var relocation: Task<Void, Never>?
        var lost: [SerialConnection] = []
    }

    /// Marks the link closed (unless it already is); returns the connections to shut, the sends
    /// to fail and the relocation to cancel.
    mutating func close(with error: SMPTransportError) -> Ending {
        defer { lost = [] }
        if case .closed = phase { return Ending(lost: lost) }
        defer {
            phase = .closed(error)
            waiters = []
            relocation = nil
        }
        return Ending(connection: connection, waiters: waiters, relocation: relocation, lost: lost)
    }

    /// The open connection, if any.
    var connection: SerialConnection? {
        if case .open(let connection) = phase { return connection }
        return nil
    }

    /// The statistics with the decoder's current counts.
    var snapshot: SerialLinkStatistics {
        var snapshot = statistics
        snapshot.framing = decoder.statistics
        return snapshot
    }
}
