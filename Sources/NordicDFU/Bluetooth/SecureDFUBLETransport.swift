import Logging
import SMP

/// Secure DFU over Bluetooth LE (docs/protocol/nordic-secure-dfu.md §22): requests written to
/// the control point (`8EC90001-…`) with response, answers and packet receipt notifications
/// from its notifications, object data written to the data characteristic (`8EC90002-…`)
/// without response, MTU − 3 bytes a write.
///
/// ```swift
/// let transport = SecureDFUBLETransport(link: link)
/// let bootloader = SecureDFUBootloader(transport: transport)
/// ```
public final class SecureDFUBLETransport: SecureDFUTransport {
    /// How long to wait for answers, and the pause before each data object.
    public struct Options: Sendable, Hashable {
        /// How long an answer may take.
        public var responseTimeout: Duration
        /// The pause after a data object's Create: nRF5 SDK 15–17 bootloaders erase the page then
        /// and lose data written meanwhile (Nordic's libraries wait 0.4 s).
        public var objectPreparationDelay: Duration

        /// Creates options: answers within 10 s, 0.4 s before each data object.
        public init(responseTimeout: Duration = .seconds(10), objectPreparationDelay: Duration = .milliseconds(400)) {
            self.responseTimeout = responseTimeout
            self.objectPreparationDelay = objectPreparationDelay
        }
    }

    /// The characteristics.
    public let link: any DFUGATTLink
    /// The timeouts and the pause before each data object.
    public let options: Options
    public var linkDescription: String { link.linkDescription }
    public var maximumWriteSize: Int { max(1, link.mtu - 3) }
    public var objectPreparationDelay: Duration { options.objectPreparationDelay }

    private let inbox = FrameInbox()
    private let reader: Task<Void, Never>
    private let logger: Logger

    /// Speaks Secure DFU over `link`; notifications are read from now on.
    public init(link: any DFUGATTLink, options: Options = Options(), logger: Logger = Logger(label: "nordic.dfu.ble")) {
        self.link = link
        self.options = options
        self.logger = logger
        let inbox = inbox
        reader = Task {
            do {
                for try await notification in link.controlPointNotifications { inbox.deliver(notification) }
                inbox.finish(SecureDFUError(.disconnected, "\(link.linkDescription): the connection was closed"))
            } catch {
                let (message, hint) = link.describe(error)
                inbox.finish(SecureDFUError(.disconnected, message, hint: hint))
            }
        }
    }

    public func request(_ request: SecureDFURequest) async throws -> SecureDFUResponse {
        let stale = inbox.discardKept()
        if stale > 0 { logger.debug("\(link.linkDescription): dropped \(stale) answers nobody waited for") }
        do {
            try await link.writeControlPoint(request.bytes)
        } catch {
            throw disconnected(error, request: request.opCode)
        }
        return try await inbox.answer(to: request.opCode, timeout: options.responseTimeout, endpoint: link.linkDescription, logger: logger)
    }

    /// Writes `bytes` (at most ``maximumWriteSize``) to the data characteristic.
    public func writeData(_ bytes: [UInt8]) async throws {
        do {
            try await link.writeData(bytes)
        } catch {
            throw disconnected(error, request: .write)
        }
    }

    /// Waits up to ``Options/responseTimeout`` for the notification that follows the n-th write.
    public func receiptNotification() async throws -> SecureDFUChecksum {
        try await inbox.receiptNotification(timeout: options.responseTimeout, endpoint: link.linkDescription, logger: logger)
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

    private func disconnected(_ error: any Error, request: SecureDFUOpCode) -> any Error {
        if error is CancellationError { return error }
        let (message, hint) = link.describe(error)
        return SecureDFUError(.disconnected, message, hint: hint, request: request)
    }
}
