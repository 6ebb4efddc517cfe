#if canImport(Glibc)
import Glibc
#endif

/// A DTLS pre-shared key: the identity both ends know it by, and the key bytes.
///
/// Its description, debug description and reflection (`dump`) show the identity only: the key is
/// never printed.
public struct DTLSPreSharedKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The longest identity DTLS carries, in bytes.
    public static let maximumIdentityLength = 128
    /// The longest key accepted, in bytes.
    public static let maximumKeyLength = 64

    /// The identity (1–128 bytes of UTF-8).
    public let identity: String
    /// The key (1–64 bytes).
    public let key: [UInt8]

    /// A key and its identity; throws when either is empty or too long.
    public init(identity: String, key: [UInt8]) throws(DTLSCredentialsError) {
        let identityLength = identity.utf8.count
        guard (1...Self.maximumIdentityLength).contains(identityLength) else {
            throw DTLSCredentialsError(path: nil, problem: .identityLength(identityLength))
        }
        guard (1...Self.maximumKeyLength).contains(key.count) else {
            throw DTLSCredentialsError(path: nil, problem: .keyLength(key.count))
        }
        self.identity = identity
        self.key = key
    }

    /// A key given as hex digits (whitespace ignored), e.g. `00112233…`.
    public init(identity: String, hexKey: String) throws(DTLSCredentialsError) {
        try self.init(identity: identity, key: Self.bytes(hex: hexKey, path: nil))
    }

    /// A key read from a file holding it as hex digits (whitespace, including line ends, ignored);
    /// errors name the file and never show its contents.
    public init(identity: String, hexKeyFile path: String) throws(DTLSCredentialsError) {
        let text = try DTLSCredentialsError.readText(path)
        do {
            try self.init(identity: identity, key: Self.bytes(hex: text, path: path))
        } catch {
            throw DTLSCredentialsError(path: path, problem: error.problem)
        }
    }

    /// `identity "ID", key hidden`.
    public var description: String { "identity \"\(identity)\", key hidden" }
    /// Same as ``description``.
    public var debugDescription: String { description }
    /// The identity only.
    public var customMirror: Mirror { Mirror(self, children: ["identity": identity], displayStyle: .struct) }

    private static func bytes(hex text: String, path: String?) throws(DTLSCredentialsError) -> [UInt8] {
        let digits = text.unicodeScalars.filter { !$0.properties.isWhitespace }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for scalar in digits {
            guard scalar.isASCII, let value = UInt8(String(scalar), radix: 16) else {
                throw DTLSCredentialsError(path: path, problem: .notHex)
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else { throw DTLSCredentialsError(path: path, problem: .oddHexDigits) }
        return bytes
    }
}

/// A certificate and its private key, as PEM files (the certificate file may hold the chain after
/// the certificate). The key must not be encrypted.
public struct DTLSCertificateFiles: Sendable, Equatable {
    /// The PEM certificate (chain) file.
    public var certificate: String
    /// The PEM private key file.
    public var privateKey: String

    /// A certificate file and its key file.
    public init(certificate: String, privateKey: String) {
        self.certificate = certificate
        self.privateKey = privateKey
    }
}

/// How a client checks the server's certificate.
public struct DTLSPeerVerification: Sendable, Equatable {
    /// A PEM file with the certificate authorities that must sign the peer's certificate.
    public var certificateAuthorities: String
    /// The DNS name or IP address (literal) the peer's certificate must carry. A DNS name is also
    /// sent as the server name indication.
    public var peerName: String

    /// Verification against `certificateAuthorities`, expecting `peerName`.
    public init(certificateAuthorities: String, peerName: String) {
        self.certificateAuthorities = certificateAuthorities
        self.peerName = peerName
    }
}

/// What a DTLS client authenticates with.
public enum DTLSClientCredentials: Sendable, Equatable, CustomStringConvertible {
    /// A pre-shared key.
    case preSharedKey(DTLSPreSharedKey)
    /// Certificates: the server's is checked by `verification` (nil: not checked at all, which lets
    /// anyone on the path pose as the server); `clientCertificate` is sent when the server asks.
    case certificate(verification: DTLSPeerVerification?, clientCertificate: DTLSCertificateFiles?)

    /// What kind of credential, without secrets: `pre-shared key (identity "ID", key hidden)`,
    /// `certificate (CA FILE, name NAME)`.
    public var description: String {
        switch self {
        case .preSharedKey(let key): "pre-shared key (\(key))"
        case .certificate(let verification, let client):
            "certificate ("
                + (verification.map { "CA \($0.certificateAuthorities), name \($0.peerName)" } ?? "not verified")
                + (client.map { ", client certificate \($0.certificate)" } ?? "") + ")"
        }
    }
}

/// What a DTLS server authenticates with.
public enum DTLSServerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// A pre-shared key: clients must present its identity and prove they know the key.
    case preSharedKey(DTLSPreSharedKey)
    /// The server's certificate; with `clientCertificateAuthorities` (a PEM file), every client
    /// must present a certificate those authorities signed.
    case certificate(DTLSCertificateFiles, clientCertificateAuthorities: String?)

    /// What kind of credential, without secrets: `pre-shared key (identity "ID", key hidden)`,
    /// `certificate FILE`, `certificate FILE, client certificates from CA FILE`.
    public var description: String {
        switch self {
        case .preSharedKey(let key): "pre-shared key (\(key))"
        case .certificate(let files, let authorities):
            "certificate \(files.certificate)" + (authorities.map { ", client certificates signed by \($0)" } ?? "")
        }
    }
}

/// A DTLS credential that cannot be used: which file (when one is involved) and what is wrong.
/// Never holds key material.
public struct DTLSCredentialsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// The file cannot be read (the system's reason).
        case unreadable(String)
        /// The key text has something other than hex digits and whitespace.
        case notHex
        /// The key text has an odd number of hex digits.
        case oddHexDigits
        /// The key is empty or longer than 64 bytes (its length).
        case keyLength(Int)
        /// The identity is empty or longer than 128 bytes (its length).
        case identityLength(Int)
        /// The file is not a PEM certificate (OpenSSL's reason).
        case notCertificate(String)
        /// The file is not an unencrypted PEM private key (OpenSSL's reason).
        case notPrivateKey(String)
        /// The private key does not belong to this certificate file.
        case keyDoesNotMatch(certificate: String)
        /// The file holds no PEM certificate authority (OpenSSL's reason).
        case noCertificateAuthority(String)
        /// OpenSSL could not set up DTLS (its reason); not about a file.
        case openSSL(String)
    }

    /// The file concerned, if any.
    public var path: String?
    /// What is wrong.
    public var problem: Problem

    /// An error about `path`.
    public init(path: String?, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// `FILE: what is wrong`, or what is wrong when no file is involved.
    public var description: String {
        let what: String =
            switch problem {
            case .unreadable(let reason): "cannot read the file: \(reason)"
            case .notHex: "the pre-shared key must be hex digits (0-9, a-f)"
            case .oddHexDigits: "the pre-shared key has an odd number of hex digits"
            case .keyLength(let count):
                "the pre-shared key must be 1 to \(DTLSPreSharedKey.maximumKeyLength) bytes (it has \(count))"
            case .identityLength(let count):
                "the pre-shared key identity must be 1 to \(DTLSPreSharedKey.maximumIdentityLength) bytes (it has \(count))"
            case .notCertificate(let reason): "not a PEM certificate (\(reason))"
            case .notPrivateKey(let reason): "not an unencrypted PEM private key (\(reason))"
            case .keyDoesNotMatch(let certificate): "this private key does not belong to the certificate \(certificate)"
            case .noCertificateAuthority(let reason): "holds no PEM CA certificate (\(reason))"
            case .openSSL(let reason): "OpenSSL cannot set up DTLS: \(reason)"
            }
        return path.map { "\($0): \(what)" } ?? what
    }

    /// The text of a file; errors name it.
    static func readText(_ path: String) throws(DTLSCredentialsError) -> String {
        let file = try openForReading(path)
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[..<count]
            if count < chunk.count { break }
        }
        if ferror(file) != 0 { throw unreadable(path) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws when `path` cannot be opened for reading (missing, no permission).
    static func checkReadable(_ path: String) throws(DTLSCredentialsError) {
        let file = try openForReading(path)
        fclose(file)
    }

    private static func openForReading(_ path: String) throws(DTLSCredentialsError) -> UnsafeMutablePointer<FILE> {
        guard let file = fopen(path, "r") else { throw unreadable(path) }
        return file
    }

    private static func unreadable(_ path: String) -> DTLSCredentialsError {
        DTLSCredentialsError(path: path, problem: .unreadable(String(cString: strerror(errno))))
    }
}
