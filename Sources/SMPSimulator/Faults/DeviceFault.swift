/// A fault of one virtual device, for runs over many devices where some misbehave: unlike
/// ``FaultInjection`` (random faults on the link), each is deterministic and belongs to the device.
public enum DeviceFault: Sendable, Hashable {
    /// The device stops answering for good once this fraction (0…1) of an image upload has
    /// arrived: the chunk that reaches it is stored, but neither it nor anything after is answered.
    case dieMidUpload(fraction: Double)
    /// The device spends this long on every request, so each answer comes at least this late
    /// and requests queue behind each other (a device busy with other work, a slow link).
    case slow(Duration)
    /// Every image upload is refused at its first chunk with `IMG_MGMT_ERR_INVALID_IMAGE_HEADER_MAGIC`
    /// (image group rc 23), what Zephyr's img_mgmt answers when the first chunk is not an MCUboot
    /// image it accepts.
    case rejectImage
    /// After its next reset the device never answers again (a device that does not come back
    /// from an upgrade).
    case noReturn

    /// The default fraction of ``dieMidUpload(fraction:)``.
    public static let defaultDieFraction = 0.5
    /// The default delay of ``slow(_:)``.
    public static let defaultSlowDelay = Duration.milliseconds(200)

    /// The kinds as written on the command line (`die-mid-upload`, `slow`, `reject-image`, `no-return`).
    public static let kindNames = ["die-mid-upload", "slow", "reject-image", "no-return"]

    /// Parses `KIND[=VALUE]`: `die-mid-upload[=FRACTION]`, `slow[=MS]`, `reject-image`, `no-return`.
    /// The error text says what is wrong and what is accepted.
    public init(parsing text: String) throws(DeviceFaultParseError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let kind = String(parts[0])
        let value = parts.count > 1 ? String(parts[1]) : nil
        switch kind {
        case "die-mid-upload":
            guard let value else { self = .dieMidUpload(fraction: Self.defaultDieFraction); return }
            guard let fraction = Double(value), (0...1).contains(fraction) else {
                throw DeviceFaultParseError("die-mid-upload=\(value): the fraction must be a number from 0 to 1, e.g. die-mid-upload=0.5")
            }
            self = .dieMidUpload(fraction: fraction)
        case "slow":
            guard let value else { self = .slow(Self.defaultSlowDelay); return }
            guard let milliseconds = Int(value), (0...60_000).contains(milliseconds) else {
                throw DeviceFaultParseError("slow=\(value): the delay must be whole milliseconds from 0 to 60000, e.g. slow=200")
            }
            self = .slow(.milliseconds(milliseconds))
        case "reject-image", "no-return":
            if let value { throw DeviceFaultParseError("\(kind)=\(value): \(kind) takes no value; write just \(kind)") }
            self = kind == "no-return" ? .noReturn : .rejectImage
        default:
            throw DeviceFaultParseError("unknown fault kind '\(kind)'; use one of \(Self.kindNames.joined(separator: ", "))")
        }
    }
}

extension DeviceFault: CustomStringConvertible {
    /// The fault as written on the command line, e.g. `slow=200`.
    public var description: String {
        switch self {
        case .dieMidUpload(let fraction): "die-mid-upload=\(fraction)"
        case .slow(let delay): "slow=\(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000)"
        case .rejectImage: "reject-image"
        case .noReturn: "no-return"
        }
    }
}

/// Why a ``DeviceFault`` could not be parsed.
public struct DeviceFaultParseError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what is accepted.
    public let description: String

    init(_ description: String) { self.description = description }
}
