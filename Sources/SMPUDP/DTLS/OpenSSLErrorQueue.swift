import COpenSSL

/// OpenSSL's per-thread error queue.
enum OpenSSLErrorQueue {
    /// The reason of the most recent error (e.g. "no start line", "certificate verify failed"),
    /// and empties the queue; nil when it holds none.
    static func takeReason() -> String? {
        let code = ERR_peek_last_error()
        ERR_clear_error()
        guard code != 0 else { return nil }
        if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
        return "OpenSSL error \(code)"
    }
}
