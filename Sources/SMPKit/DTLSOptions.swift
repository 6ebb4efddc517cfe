import SMPUDP

/// The DTLS options of a UDP connection string (`udp:HOST?dtls=1&psk-id=ID&psk-file=PATH`):
/// whether the link runs DTLS 1.2 and with which credentials (docs/connection-strings.md, "DTLS").
///
/// DTLS is a security layer of the UDP transport, as pairing is of BLE: the transport stays `udp`,
/// so selectors, profiles and targets files take these options as they take `timeout`. Each
/// option is read on its own (``ConnectionOptions/set(_:to:transport:)``); how they combine is
/// checked by ``mistake``.
public struct DTLSOptions: Sendable, Hashable {
    /// Run DTLS (`dtls=1`).
    public var enabled: Bool?
    /// The PSK identity (`psk-id`), 1–128 bytes.
    public var pskIdentity: String?
    /// The PSK itself (`psk=HEX`); never printed.
    public var psk: Key?
    /// A file holding the PSK as hex text (`psk-file`).
    public var pskFile: String?
    /// PEM CA certificates that must sign the device's certificate (`ca`).
    public var caFile: String?
    /// The client's PEM certificate (`cert`).
    public var certificateFile: String?
    /// The client's PEM private key (`key`).
    public var keyFile: String?
    /// The name the device's certificate must carry (`server-name`).
    public var serverName: String?
    /// Whether the device's certificate is verified (`verify`; on unless `verify=0`).
    public var verify: Bool?

    /// No DTLS options.
    public init() {}

    /// Whether the link runs DTLS.
    public var isEnabled: Bool { enabled == true }

    /// Whether a PSK is given, in the string or in a file.
    public var hasPSK: Bool { psk != nil || pskFile != nil }

    /// A PSK as `psk=HEX` gives it: its bytes, which nothing prints (`description`,
    /// `debugDescription` and a dump all show `<hidden>`).
    public struct Key: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The key.
        public let bytes: [UInt8]

        /// The key of `psk=HEX`: hex digits (either case), 1 to 64 bytes; nil for anything else.
        init?(hex: String) {
            guard !hex.contains(where: \.isWhitespace), let key = try? DTLSPreSharedKey(identity: "psk", hexKey: hex) else { return nil }
            bytes = key.key
        }

        /// What a key must look like, for errors (which never quote the key).
        static let formProblem =
            "expected the key as hex digits, 1 to \(DTLSPreSharedKey.maximumKeyLength) bytes (2 to \(2 * DTLSPreSharedKey.maximumKeyLength) digits)"

        public var description: String { ConnectionSecrets.hidden }
        public var debugDescription: String { ConnectionSecrets.hidden }
        public var customMirror: Mirror { Mirror(self, children: []) }
    }

    /// The option names, in the grammar's order.
    public static let names = ["dtls", "psk-id", "psk", "psk-file", "ca", "cert", "key", "server-name", "verify"]

    /// Connection strings showing each way to give credentials, for hints.
    public static let examples = """
        udp:192.0.2.1?dtls=1&psk-id=ID&psk-file=key.hex  udp:device.local?dtls=1&ca=ca.pem  \
        udp:192.0.2.1?dtls=1&ca=ca.pem&server-name=NAME
        """

    /// A combination of DTLS options that does not work: which option, what is wrong, what to write.
    public struct Mistake: Sendable, Hashable {
        /// The option at fault (`psk-id`).
        public var option: String
        /// What is wrong.
        public var problem: String
        /// What to write instead.
        public var hint: String
    }

    /// What is wrong with the options together, or nil when they make sense: credentials without
    /// `dtls=1`, a PSK without its identity (or the other way round), the key given twice, a
    /// certificate without its key, DTLS without credentials, or two kinds of credentials.
    public var mistake: Mistake? {
        let given = givenNames
        guard isEnabled else {
            guard let first = given.first(where: { $0 != "dtls" }) else { return nil }
            return Mistake(option: first, problem: "\(first)= is a DTLS option: add dtls=1", hint: Self.examples)
        }
        if psk != nil && pskFile != nil {
            return Mistake(option: "psk", problem: "the PSK is given twice: keep psk= or psk-file=, not both", hint: Self.examples)
        }
        if pskIdentity != nil && !hasPSK {
            return Mistake(option: "psk-id", problem: "psk-id= needs its key: add psk-file=PATH (or psk=HEX)", hint: Self.examples)
        }
        if hasPSK && pskIdentity == nil {
            let option = psk != nil ? "psk" : "psk-file"
            return Mistake(option: option, problem: "\(option)= needs the identity that goes with it: add psk-id=ID", hint: Self.examples)
        }
        if (certificateFile == nil) != (keyFile == nil) {
            let (option, missing) = certificateFile == nil ? ("key", "cert") : ("cert", "key")
            return Mistake(option: option, problem: "\(option)= needs \(missing)=: the client certificate and its key go together", hint: Self.examples)
        }
        let certificateOptions = ["ca", "cert", "key", "server-name", "verify"].filter(given.contains)
        if pskIdentity != nil, let first = certificateOptions.first {
            return Mistake(
                option: first, problem: "\(first)= is a certificate option and psk-id= gives a PSK: use one kind of credentials",
                hint: Self.examples)
        }
        if verify == false && caFile != nil {
            return Mistake(option: "ca", problem: "ca= is not used with verify=0: keep one of them", hint: Self.examples)
        }
        if pskIdentity == nil && caFile == nil && verify != false {
            return Mistake(
                option: "dtls",
                problem: "dtls=1 needs credentials: a PSK (psk-id= with psk-file= or psk=) or the CA that signed the device's certificate (ca=)",
                hint: Self.examples + "\nverify=0 instead of ca= accepts any certificate (anyone on the path can pose as the device)")
        }
        return nil
    }

    /// The names of the options that are set, in the grammar's order.
    private var givenNames: [String] { queryItems.map(\.0) }

    /// The options that are set, as name/value pairs in the grammar's order; the PSK as `<hidden>`.
    var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if let enabled { items.append(("dtls", enabled ? "1" : "0")) }
        if let pskIdentity { items.append(("psk-id", pskIdentity)) }
        if psk != nil { items.append(("psk", ConnectionSecrets.hidden)) }
        if let pskFile { items.append(("psk-file", pskFile)) }
        if let caFile { items.append(("ca", caFile)) }
        if let certificateFile { items.append(("cert", certificateFile)) }
        if let keyFile { items.append(("key", keyFile)) }
        if let serverName { items.append(("server-name", serverName)) }
        if let verify { items.append(("verify", verify ? "1" : "0")) }
        return items
    }

    /// The grammar's definitions of the DTLS options (UDP only).
    static let definitions: [ConnectionOptions.Definition] = [
        Definition(name: "dtls", transports: [.udp], help: "0 or 1") { options, value in
            guard let on = ConnectionOptions.flag(value) else { return "expected 0 or 1" }
            options.dtls.enabled = on
            return nil
        },
        Definition(name: "psk-id", transports: [.udp], help: "the PSK identity, 1–\(DTLSPreSharedKey.maximumIdentityLength) bytes") { options, value in
            guard (1...DTLSPreSharedKey.maximumIdentityLength).contains(value.utf8.count) else { return "expected an identity of 1 to \(DTLSPreSharedKey.maximumIdentityLength) bytes" }
            options.dtls.pskIdentity = value
            return nil
        },
        Definition(name: "psk", transports: [.udp], help: "the key as hex digits, 1–\(DTLSPreSharedKey.maximumKeyLength) bytes; psk-file=PATH keeps it out of the command line") {
            options, value in
            guard let key = Key(hex: value) else { return Key.formProblem }
            options.dtls.psk = key
            return nil
        },
        path("psk-file", help: "a file holding the PSK as hex digits", \.pskFile),
        path("ca", help: "PEM file of the CA certificates that sign the device's certificate", \.caFile),
        path("cert", help: "PEM file of the client certificate", \.certificateFile),
        path("key", help: "PEM file of the client certificate's private key", \.keyFile),
        Definition(name: "server-name", transports: [.udp], help: "the name the device's certificate carries, e.g. server-name=device.local") {
            options, value in
            let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }
            guard !value.isEmpty, value.utf8.count <= 253, allowed else { return "expected a host name or address, e.g. device.local" }
            options.dtls.serverName = value
            return nil
        },
        Definition(name: "verify", transports: [.udp], help: "1 (the default) or 0: accept any certificate of the device") { options, value in
            guard let on = ConnectionOptions.flag(value) else { return "expected 0 or 1" }
            options.dtls.verify = on
            return nil
        },
    ]

    private typealias Definition = ConnectionOptions.Definition

    /// An option naming a file, stored at `keyPath`.
    private static func path(_ name: String, help: String, _ keyPath: WritableKeyPath<DTLSOptions, String?> & Sendable) -> Definition {
        Definition(name: name, transports: [.udp], help: help) { options, value in
            guard !value.isEmpty else { return "expected a file path" }
            options.dtls[keyPath: keyPath] = value
            return nil
        }
    }
}
