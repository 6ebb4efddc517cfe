import CBOR

/// Resets the device (OS command 5). Never retried: a lost answer usually means it worked.
public struct OSReset: SMPCommand {
    /// Ask an application reset hook to reset even if it would refuse.
    public var force: Bool
    /// Boot mode for the next boot (Zephyr ≥ 4.2): 0 normal, 1 bootloader; others are application specific.
    public var bootMode: UInt8?

    /// The boot mode that starts the bootloader (MCUboot's serial recovery) instead of the application.
    public static let bootloaderBootMode: UInt8 = 1

    /// Creates the request.
    public init(force: Bool = false, bootMode: UInt8? = nil) {
        self.force = force
        self.bootMode = bootMode
    }

    public var request: SMPRequest {
        var payload: CBORMap = [:]
        if force { payload["force"] = .bool(true) }
        if let bootMode { payload["boot_mode"] = .unsigned(UInt64(bootMode)) }
        return SMPRequest(group: .os, command: OSCommandID.reset, operation: .write, payload: payload, isRetrySafe: false, name: "os reset")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) {}
}
