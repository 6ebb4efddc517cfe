/// The SMP protocol version carried in header bits 3–4.
public enum SMPProtocolVersion: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// The original protocol (version bits 0): errors only as `rc`.
    case v1 = 0
    /// SMP version 2 (version bits 1, Zephyr ≥ 3.4): group errors as `err {group, rc}`.
    case v2 = 1

    public var description: String { self == .v1 ? "SMP v1" : "SMP v2" }
}
