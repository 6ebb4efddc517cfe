import JSON
import SMP
import SMPFirmware

/// What `smpctl image info` prints about an image: aligned lines and a TLV table, or one JSON document.
struct ImageInfoReport {
    let file: String
    let image: MCUbootImage
    /// The address an Intel HEX file places the image at; nil for a binary file.
    var hexAddress: UInt32?

    /// The human-readable report.
    var text: String {
        let header = image.header
        var lines: [(String, String)] = [
            ("file", file),
            ("version", header.version.description),
            ("image hash", image.imageHashHex ?? "none (no SHA-256 TLV: devices will not list this image)"),
        ]
        lines += image.hashChecks.map { ("\($0.algorithm.rawValue) check", Self.statusText($0)) }
        lines += [
            ("flags", header.flags.description + " (\(MCUbootHex.literal(header.flags.rawValue, width: 8)))"),
            ("load address", MCUbootHex.literal(header.loadAddress, width: 8)),
        ]
        if let hexAddress { lines.append(("hex address", MCUbootHex.literal(hexAddress, width: 8) + " (where the .hex places the image)")) }
        lines += [
            ("header size", "\(header.headerSize) bytes (\(MCUbootHex.literal(header.headerSize)))"),
            ("image size", "\(header.imageSize) bytes"),
            ("protected TLVs", "\(header.protectedTLVSize) bytes"),
            ("total size", "\(image.totalSize) bytes"),
            ("file size", "\(image.fileSize) bytes"),
            ("signature", image.signatures.isEmpty ? "none" : image.signatures.map(\.type.rawValue).joined(separator: ", ")),
        ]
        lines += image.signingKeys.map(Self.keyLine)
        if image.isPureSignature { lines.append(("pure signature", "yes (signed over the image, no hash TLV)")) }
        if let trailer = image.trailer {
            let state = trailer.isConfirmed ? "confirmed" : "not confirmed"
            lines.append(("trailer", "\(state) (image OK \(MCUbootHex.literal(trailer.imageOK, width: 2)), max align \(trailer.maxAlign))"))
        }
        var table = Table(["AREA", "OFFSET", "TYPE", "LEN", "VALUE"], alignments: [.left, .right, .left, .right, .left])
        for (area, tlv) in areaEntries {
            let shown = tlv.value.count > 24 ? Array(tlv.value.prefix(24)) : tlv.value
            let value = Hex.string(shown) + (shown.count < tlv.value.count ? "…" : "")
            table.add([area.rawValue, MCUbootHex.literal(tlv.offset), Self.typeText(tlv.type), "\(tlv.value.count)", value])
        }
        return keyValueLines(lines) + "\n\n" + table.rendered
    }

    /// The `--json` document.
    var json: JSONValue {
        let header = image.header
        return .object([
            ("file", .string(file)),
            ("version", .object([
                ("major", .uint(UInt64(header.version.major))), ("minor", .uint(UInt64(header.version.minor))),
                ("revision", .uint(UInt64(header.version.revision))), ("build", .uint(UInt64(header.version.build))),
                ("text", .string(header.version.description)),
            ])),
            ("imageHash", image.imageHashHex.map(JSONValue.string) ?? .null),
            ("hashValid", .bool(!image.hashChecks.contains { $0.status == .mismatch })),
            ("hashes", .array(image.hashChecks.map { check in
                .object([
                    ("algorithm", .string(check.algorithm.rawValue)), ("offset", .uint(UInt64(check.offset))),
                    ("value", .string(Hex.string(check.expected))), ("computed", .string(Hex.string(check.computed))),
                    ("status", .string(check.status.rawValue)),
                ])
            })),
            ("header", .object([
                ("loadAddress", .uint(UInt64(header.loadAddress))), ("headerSize", .uint(UInt64(header.headerSize))),
                ("protectedTLVSize", .uint(UInt64(header.protectedTLVSize))), ("imageSize", .uint(UInt64(header.imageSize))),
                ("flags", .uint(UInt64(header.flags.rawValue))), ("flagNames", .array(header.flags.names.map(JSONValue.string))),
            ])),
            ("totalSize", .uint(UInt64(image.totalSize))),
            ("fileSize", .uint(UInt64(image.fileSize))),
            ("hexAddress", hexAddress.map { .uint(UInt64($0)) } ?? .null),
            ("signatures", .array(image.signatures.map { signature in
                .object([
                    ("type", .string(signature.type.rawValue)), ("offset", .uint(UInt64(signature.offset))),
                    ("length", .uint(UInt64(signature.value.count))),
                ])
            })),
            ("keys", .array(image.signingKeys.map { key in
                switch key {
                case .keyHash(let hash): .object([("kind", .string("keyHash")), ("value", .string(Hex.string(hash)))])
                case .publicKey(let bytes): .object([("kind", .string("publicKey")), ("value", .string(Hex.string(bytes)))])
                }
            })),
            ("pureSignature", .bool(image.isPureSignature)),
            ("tlvs", .array(areaEntries.map { area, tlv in
                .object([
                    ("area", .string(area.rawValue)), ("offset", .uint(UInt64(tlv.offset))),
                    ("type", .uint(UInt64(tlv.type.rawValue))), ("name", tlv.type.name.map(JSONValue.string) ?? .null),
                    ("length", .uint(UInt64(tlv.value.count))), ("value", .string(Hex.string(tlv.value))),
                ])
            })),
            ("trailer", image.trailer.map { trailer in
                .object([
                    ("maxAlign", .uint(UInt64(trailer.maxAlign))), ("imageOK", .uint(UInt64(trailer.imageOK))),
                    ("confirmed", .bool(trailer.isConfirmed)),
                ])
            } ?? .null),
        ])
    }

    /// Every TLV with the area that holds it, in file order.
    private var areaEntries: [(MCUbootTLVArea.Kind, MCUbootTLV)] {
        [image.protectedArea, image.unprotectedArea].compactMap { $0 }.flatMap { area in area.entries.map { (area.kind, $0) } }
    }

    private static func statusText(_ check: MCUbootHashCheck) -> String {
        switch check.status {
        case .valid: return "valid"
        case .mismatch: return "MISMATCH: the file hashes to \(Hex.string(check.computed))"
        case .encrypted: return "not checked (encrypted body; the hash covers the plaintext)"
        }
    }

    private static func keyLine(_ key: MCUbootSigningKey) -> (String, String) {
        switch key {
        case .keyHash(let hash): return ("key hash", Hex.string(hash))
        case .publicKey(let bytes): return ("public key", "\(bytes.count) bytes")
        }
    }

    private static func typeText(_ type: MCUbootTLVType) -> String {
        type.name.map { "\($0) (\(MCUbootHex.literal(type.rawValue)))" } ?? MCUbootHex.literal(type.rawValue, width: 4)
    }
}
