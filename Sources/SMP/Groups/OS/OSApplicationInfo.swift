import CBOR

/// OS/application info (OS command 7), like `uname`: each format character selects a field —
/// s kernel, n node, r release, v version, b build date, m machine, p processor, i platform,
/// o operating system, a all. The device answers in the fixed order s n r v b m p i o.
public struct OSApplicationInfo: SMPCommand {
    /// The format characters; nil lets the device choose (`s`).
    public var format: String?

    /// Creates the request.
    public init(format: String? = nil) { self.format = format }

    /// The characters Zephyr knows.
    public static let formatCharacters: [(Character, String)] = [
        ("s", "kernel name"), ("n", "node name"), ("r", "kernel release"), ("v", "kernel version"),
        ("b", "build date and time"), ("m", "machine"), ("p", "processor"), ("i", "hardware platform"),
        ("o", "operating system"), ("a", "all of the above"),
    ]

    public var request: SMPRequest {
        SMPRequest(
            group: .os, command: OSCommandID.info, operation: .read,
            payload: format.map { ["format": .text($0)] } ?? [:], name: "os info")
    }

    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> String {
        try payload.text("output")
    }
}
