/// Why a legacy DFU transfer failed: what happened, at which request, and what to do.
///
/// Legacy DFU cannot resume: whatever failed, the next run starts the image over.
public struct LegacyDFUError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The bootloader refused a request with this status.
        case refused(LegacyDFUStatus)
        /// The bootloader received other bytes than were sent: a receipt notification's count (or
        /// the count it reported when a notification did not come) differs from what was sent.
        case packetsLost
        /// The bootloader was in the middle of an earlier, interrupted update; it was reset so
        /// that the next run starts over.
        case interruptedUpdate
        /// The bootloader answered something that is not a valid answer.
        case malformedResponse
        /// The bootloader did not answer in time.
        case noResponse
        /// The link ended: the device went away (reset, out of range) or the adapter failed.
        case disconnected
        /// The image cannot be sent as it is (empty, too large for a u32 size).
        case invalidInput
        /// A serial bootloader restarted during the transfer: it acknowledged a packet and then
        /// no longer knew the sequence, which is how it refuses a packet (it has no answers).
        case restarted
        /// The port answers in another protocol (a Secure DFU bootloader).
        case otherProtocol
    }

    /// Whether running the same transfer again can succeed: true when the link failed, bytes
    /// were lost or an earlier update was in the way; false when the bootloader refused what was
    /// sent (a rerun meets the same refusal), or the image cannot be sent as it is. A rerun
    /// always starts over: legacy DFU keeps nothing of an interrupted transfer.
    public var isTransient: Bool {
        switch kind {
        case .packetsLost, .interruptedUpdate, .noResponse, .disconnected: return true
        case .refused(let status): return status == .crcError || status == .invalidState
        case .malformedResponse, .invalidInput, .restarted, .otherProtocol: return false
        }
    }

    /// The kind of failure.
    public var kind: Kind
    /// What happened, where.
    public var message: String
    /// What to try.
    public var hint: String?
    /// The request that failed, if one did.
    public var request: LegacyDFUOpCode?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, hint: String? = nil, request: LegacyDFUOpCode? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.request = request
    }

    /// The message, then the hint.
    public var description: String { hint.map { "\(message) (\($0))" } ?? message }

    /// The bootloader refused `response`'s request.
    static func refused(_ response: LegacyDFUResponse, detail: String? = nil) -> LegacyDFUError {
        LegacyDFUError(
            .refused(response.status), "the bootloader refused \(response.request)\(detail.map { " \($0)" } ?? ""): \(response.status)",
            hint: response.status.hint, request: response.request)
    }

    /// A bare application (no init packet) for a bootloader that stores nothing without one: the
    /// bootloader `when`, e.g. "took Start with a mode (nRF5 SDK 7–11)".
    static func initPacketRequired(_ image: DFUUpgradeImage, when: String) -> LegacyDFUError {
        LegacyDFUError(
            .invalidInput, "\(image.fileName) is a bare application (no init packet), and the bootloader \(when): it takes no image without an init packet",
            hint: "a bare application goes to bootloaders of nRF5 SDK 6 and older only; for this one, make a package with an init packet "
                + "(nrfutil dfu genpkg --application \(image.fileName) …, or adafruit-nrfutil dfu genpkg)")
    }

    /// An answer that does not parse or does not fit its request.
    static func malformed(_ detail: String, request: LegacyDFUOpCode?) -> LegacyDFUError {
        LegacyDFUError(
            .malformedResponse, "the bootloader's answer makes no sense: \(detail)",
            hint: "check that the device runs a legacy DFU bootloader (nRF5 SDK 11 or older, the Adafruit bootloader) and that no other client is connected to it",
            request: request)
    }
}
