import CBOR

/// Starts processing an envelope uploaded with `defer_install` (SUIT command 2 with
/// `off 0, len 0`, write). Not resent on a lost answer: the poll that follows shows whether
/// processing started.
public struct SUITProcessEnvelope: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(
            group: .suit, command: SUITCommandID.envelopeUpload, operation: .write,
            payload: ["off": .unsigned(0), "len": .unsigned(0)], isRetrySafe: false, name: "suit process envelope")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
