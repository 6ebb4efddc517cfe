import CBOR

/// Erases the DFU partition and the caches (SUIT command 6, write).
public struct SUITCleanup: SMPCommand {
    /// How long the device may take: it erases flash.
    public static let timeout: Duration = .seconds(30)

    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(
            group: .suit, command: SUITCommandID.cleanup, operation: .write, payload: [:], isRetrySafe: true, timeout: Self.timeout,
            name: "suit cleanup")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
