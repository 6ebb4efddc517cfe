import COpenSSL

/// The BIO between OpenSSL and the caller's socket: each write is one datagram to send, each read
/// hands over one received datagram, so datagram boundaries are kept and no socket is touched.
/// Its ctrl answers what DTLS asks of a datagram BIO.
enum DTLSDatagramBIO {
    /// A new BIO whose datagrams go to and come from `state` (held unretained).
    static func make(for state: DTLSSessionState) -> OpaquePointer? {
        guard let method = method.pointer, let bio = BIO_new(method) else { return nil }
        BIO_set_data(bio, Unmanaged.passUnretained(state).toOpaque())
        return bio
    }

    /// The BIO_METHOD, made once.
    private static let method = Method()

    private final class Method: @unchecked Sendable {
        // Written once in init, then only read: OpenSSL's BIO_METHOD is immutable once set up.
        let pointer: OpaquePointer?

        init() {
            guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "smp datagram") else {
                pointer = nil
                return
            }
            BIO_meth_set_write(method) { bio, data, length in
                guard let bio, let data, length >= 0, let state = DTLSSessionState.of(bio: bio) else { return -1 }
                smp_bio_clear_retry_flags(bio)
                state.outgoing.append(Array(UnsafeRawBufferPointer(start: data, count: Int(length))))
                return length
            }
            BIO_meth_set_read(method) { bio, buffer, capacity in
                guard let bio, let buffer, capacity >= 0, let state = DTLSSessionState.of(bio: bio) else { return -1 }
                smp_bio_clear_retry_flags(bio)
                guard !state.incoming.isEmpty else {
                    smp_bio_set_retry_read(bio)
                    return -1
                }
                let datagram = state.incoming.removeFirst()
                let count = min(datagram.count, Int(capacity))
                datagram.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: count) }
                }
                return Int32(count)
            }
            BIO_meth_set_ctrl(method) { _, command, _, _ in
                switch command {
                // Everything written is already handed over.
                case BIO_CTRL_FLUSH: 1
                // The MTU is set on the SSL (SSL_OP_NO_QUERY_MTU); nothing else is known here.
                default: 0
                }
            }
            BIO_meth_set_create(method) { bio in
                BIO_set_init(bio, 1)
                return 1
            }
            pointer = method
        }
    }
}
