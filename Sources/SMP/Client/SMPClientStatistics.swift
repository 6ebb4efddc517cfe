/// Counters a client keeps about its link: what it sent, and every frame it discarded and why.
public struct SMPClientStatistics: Sendable, Hashable {
    /// Why a received frame (or part of one) was not delivered.
    public enum DiscardReason: String, Sendable, Hashable, CaseIterable {
        /// Fewer than 8 bytes where a header was expected.
        case truncatedHeader = "truncated header"
        /// Undefined operation bits.
        case invalidOperation = "invalid operation"
        /// The header declares more payload than arrived.
        case lengthMismatch = "length mismatch"
        /// The payload is not valid CBOR or not a map.
        case invalidPayload = "invalid payload"
        /// A request operation where a response was expected.
        case notAResponse = "not a response"
        /// No request is waiting for this sequence number (late, duplicate or foreign).
        case unmatchedSequence = "unmatched sequence number"
        /// The sequence number matches but group, command or operation do not.
        case mismatchedResponse = "mismatched group, command or operation"
    }

    /// Requests sent, first attempts only.
    public var requests = 0
    /// Responses delivered to a waiting request.
    public var responses = 0
    /// Requests sent again (timeout, invalid response or version fallback).
    public var retransmissions = 0
    /// Requests that failed with a timeout.
    public var timeouts = 0
    /// Requests found lost on a link that answers in order (a later request was answered first),
    /// and sent again at once.
    public var lost = 0
    /// Discarded frames by reason.
    public var discarded: [DiscardReason: Int] = [:]

    /// All discarded frames.
    public var totalDiscarded: Int { discarded.values.reduce(0, +) }

    /// Creates empty statistics.
    public init() {}
}
