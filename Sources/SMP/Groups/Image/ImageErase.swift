import CBOR

/// Erases a slot (image command 5, write). Never retried, and given a long timeout: erasing a
/// large slot or external flash takes seconds.
public struct ImageErase: SMPCommand {
    /// The **absolute** slot index (image × 2 + slot); nil lets the device pick the slot
    /// opposite the running one (normally 1).
    public var slot: UInt64?

    /// How long the device may take to answer.
    public static let timeout: Duration = .seconds(30)

    /// Creates the request.
    public init(slot: UInt64? = nil) { self.slot = slot }

    public var request: SMPRequest {
        SMPRequest(
            group: .image, command: ImageCommandID.erase, operation: .write,
            payload: slot.map { ["slot": .unsigned($0)] } ?? [:], isRetrySafe: false, timeout: Self.timeout,
            name: "image erase")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
