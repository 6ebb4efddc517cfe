import SMP

/// Legacy DFU over Bluetooth LE (docs/protocol/nordic-legacy-dfu.md §23): requests written to the
/// Control Point (`00001531-…`) with response, responses and receipt notifications from its
/// notifications, 20-byte packets written to the Packet characteristic (`00001532-…`) without
/// response.
///
/// ```swift
/// let transport = LegacyDFUBLETransport(link: link, dfuVersion: 0x0008)
/// let bootloader = LegacyDFUBootloader(transport: transport)
/// ```
public final class LegacyDFUBLETransport: LegacyDFUTransport {
    /// The characteristics.
    public let link: any DFUGATTLink
    public let dfuVersion: UInt16?
    /// How long a response or receipt notification may take.
    public let responseTimeout: Duration
    public var linkDescription: String { link.linkDescription }

    private let inbox = FrameInbox()
    private let reader: Task<Void, Never>

    /// Speaks legacy DFU over `link` to a bootloader whose Version characteristic read
    /// `dfuVersion` (nil: it has none); notifications are read from now on.
    public init(link: any DFUGATTLink, dfuVersion: UInt16?, responseTimeout: Duration = .seconds(10)) {
        self.link = link
        self.dfuVersion = dfuVersion
        self.responseTimeout = responseTimeout
        let inbox = inbox
        reader = Task {
            do {
                for try await notification in link.controlPointNotifications { inbox.deliver(notification) }
                inbox.finish(LegacyDFUError(.disconnected, "\(link.linkDescription): the connection was closed"))
            } catch {
                let (message, hint) = link.describe(error)
                inbox.finish(LegacyDFUError(.disconnected, message, hint: hint))
            }
        }
    }

    /// Writes `request`; Reset is written even by a cancelled task (it runs in a task of its own).
    public func writeControlPoint(_ request: LegacyDFURequest) async throws {
        let link = link
        let bytes = request.bytes
        do {
            if request == .reset {
                try await Task { try await link.writeControlPoint(bytes) }.value
            } else {
                try await link.writeControlPoint(bytes)
            }
        } catch {
            throw disconnected(error, request: request.opCode)
        }
    }

    public func writePacket(_ bytes: [UInt8]) async throws {
        do {
            try await link.writeData(bytes)
        } catch {
            throw disconnected(error, request: nil)
        }
    }

    public func notification() async throws -> LegacyDFUNotification {
        let frame: [UInt8]
        do {
            frame = try await inbox.next(timeout: responseTimeout)
        } catch is FrameInbox.Timeout {
            throw LegacyDFUError(
                .noResponse, "\(link.linkDescription): no notification from the bootloader within \(responseTimeout)",
                hint: "the bootloader stopped answering: it may have reset or left DFU mode; run the update again")
        }
        return try LegacyDFUNotification.parse(frame).get()
    }

    /// Ends the link.
    public func close() async {
        reader.cancel()
        await link.close()
    }

    /// Ends the link once the device has dropped it (at most `limit` from now).
    public func closeWhenDropped(within limit: Duration) async {
        reader.cancel()
        await link.closeWhenDropped(within: limit)
    }

    private func disconnected(_ error: any Error, request: LegacyDFUOpCode?) -> any Error {
        if error is CancellationError { return error }
        let (message, hint) = link.describe(error)
        return LegacyDFUError(.disconnected, message, hint: hint, request: request)
    }
}
