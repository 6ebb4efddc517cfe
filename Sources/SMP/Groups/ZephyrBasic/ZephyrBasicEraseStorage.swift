import CBOR

/// Erases the application's settings storage partition (Zephyr basic group 63, command 0, write;
/// docs/protocol/groups.md §13). Upgrades send it after the upload and before the reset when asked to start the new
/// firmware with clean settings. Never retried.
public struct ZephyrBasicEraseStorage: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .zephyrBasic, command: 0, operation: .write, isRetrySafe: false, name: "erase storage")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
