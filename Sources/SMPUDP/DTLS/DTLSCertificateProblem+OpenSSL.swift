#if canImport(Glibc)
import Glibc
#endif
import COpenSSL

extension DTLSCertificateProblem {
    /// The failed check OpenSSL's verification reports in `store`, about the certificate it was
    /// checking.
    init(failedCheckIn store: OpaquePointer) {
        let code = X509_STORE_CTX_get_error(store)
        let certificate = X509_STORE_CTX_get_current_cert(store)
        self.init(
            check: Self.check(code),
            reason: X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)",
            subject: Self.name(certificate.flatMap { X509_get_subject_name($0) }),
            issuer: Self.name(certificate.flatMap { X509_get_issuer_name($0) }),
            notBefore: Self.time(certificate.flatMap { X509_get0_notBefore($0) }),
            notAfter: Self.time(certificate.flatMap { X509_get0_notAfter($0) }))
    }

    private static func check(_ code: Int32) -> Check {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED: .expired
        case X509_V_ERR_CERT_NOT_YET_VALID: .notYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
            X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED:
            .untrusted
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: .nameMismatch
        default: .other
        }
    }

    /// RFC 2253 text of a name, e.g. `CN=smp-device`.
    private static func name(_ name: OpaquePointer?) -> String {
        guard let name else { return "unknown" }
        var buffer = [CChar](repeating: 0, count: 512)
        let length = Int(smp_x509_name_text(name, &buffer, Int32(buffer.count)))
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `2026-11-29 10:00:00 UTC`.
    private static func time(_ time: UnsafePointer<ASN1_TIME>?) -> String {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return "unknown" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}
