import CBOR
import SMP

extension OSGroup {
    /// Reset (cmd 5, write), as Zephyr with the reset hook and boot mode options: `force` (bool)
    /// and `boot_mode` (uint) are read, a payload that does not decode is ignored (defaults
    /// apply), a `boot_mode` above 255 is `MGMT_ERR_EINVAL`, and the reset hook may refuse. On
    /// success the answer is an empty map and the device resets after sending it.
    mutating func reset(_ request: SimulatedRequest, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try? request.fields(["force": .bool, "boot_mode": .unsigned])
        let force = fields?.bool("force") ?? false
        var bootMode: UInt8?
        if let requested = fields?.unsigned("boot_mode"), requested <= UInt32.max {
            guard let mode = UInt8(exactly: requested) else { throw .invalidValue }
            bootMode = mode
        }
        switch context.configuration.resetHook {
        case .none: break
        case .refuseUnlessForced(let error) where !force: throw error
        case .refuseUnlessForced: break
        case .refuse(let error): throw error
        }
        context.requestReset(force: force, bootMode: bootMode)
        return [:]
    }
}
