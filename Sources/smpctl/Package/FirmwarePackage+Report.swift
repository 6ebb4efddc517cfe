import JSON
import SMP
import SMPFirmware

extension FirmwarePackage.Kind {
    /// How `package info` names the kind in text.
    var title: String {
        switch self {
        case .mcubootImage: return "MCUboot image"
        case .mcubootPackage: return "MCUboot package (manifest.json + images)"
        case .suitEnvelope: return "SUIT envelope"
        case .suitPackage: return "SUIT package (manifest.json + envelope)"
        }
    }
}

extension PackageTarget {
    /// The target's name in JSON output.
    var jsonName: String {
        switch self {
        case .application: return "application"
        case .networkCore: return "network-core"
        case .mcuboot: return "mcuboot"
        case .suitEnvelope: return "suit-envelope"
        case .suitCache: return "suit-cache"
        case .suitResource: return "suit-resource"
        case .other(let type): return type
        }
    }
}

extension FirmwarePackage {
    /// The `package info --json` document.
    func jsonDocument(file: String) -> JSONValue {
        .object([
            ("file", .string(file)),
            ("kind", .string(kind.rawValue)),
            ("images", .array(images.map(\.json))),
            ("directXIPPairs", .array(directXIPPairs.map { pair in
                .object([("image", .int(Int64(pair.image))), ("slot0", .string(pair.slot0.fileName)), ("slot1", .string(pair.slot1.fileName))])
            })),
            ("resources", .array(resources.map(\.json))),
            ("suit", suitEnvelope.map(\.json) ?? .null),
        ])
    }

    /// The `package info` text.
    func humanReport(file: String) -> String {
        var sections = [keyValueLines([("file", file), ("kind", kind.title)])]
        sections.append("images:\n" + Self.table(images))
        if !directXIPPairs.isEmpty {
            sections.append("DirectXIP pairs:\n" + directXIPPairs.map { pair in
                "  image \(pair.image): slot 0 \(pair.slot0.fileName), slot 1 \(pair.slot1.fileName)"
            }.joined(separator: "\n"))
        }
        if !resources.isEmpty { sections.append("resources (sent when the device asks for file://NAME):\n" + Self.table(resources)) }
        if let suitEnvelope { sections.append("SUIT envelope:\n" + suitEnvelope.humanReport) }
        return sections.joined(separator: "\n\n")
    }

    private static func table(_ images: [PackageImage]) -> String {
        var table = Table(["IMAGE", "TARGET", "SLOT", "VERSION", "SIZE", "FILE"], alignments: [.right, .left, .right, .left, .right, .left])
        for image in images {
            table.add([
                String(image.image), image.target.description, image.slot.map(String.init) ?? "-", image.mcubootVersion ?? "-",
                String(image.bytes.count), image.fileName,
            ])
        }
        return table.rendered
    }
}

extension PackageImage {
    fileprivate var json: JSONValue {
        .object([
            ("image", .int(Int64(image))),
            ("target", .string(target.jsonName)),
            ("slot", slot.map { .int(Int64($0)) } ?? .null),
            ("version", mcubootVersion.map(JSONValue.string) ?? .null),
            ("size", .int(Int64(bytes.count))),
            ("file", .string(fileName)),
            ("loadAddress", loadAddress.map(JSONValue.uint) ?? .null),
            ("board", board.map(JSONValue.string) ?? .null),
        ])
    }
}

extension SUITEnvelope {
    fileprivate var json: JSONValue {
        .object([
            ("sha256", .string(Hex.string(sha256))),
            ("manifestDigest", manifestDigest.map { digest in
                .object([
                    ("algorithm", .int(digest.algorithm)), ("name", digest.algorithmName.map(JSONValue.string) ?? .null),
                    ("digest", .string(Hex.string(digest.bytes))),
                ])
            } ?? .null),
            ("sequenceNumber", sequenceNumber.map(JSONValue.uint) ?? .null),
            ("components", .array(componentIDs.map { .array($0.map { .string(Hex.string($0)) }) })),
        ])
    }

    fileprivate var humanReport: String {
        var lines = [("file SHA-256", Hex.string(sha256))]
        if let manifestDigest {
            let name = manifestDigest.algorithmName ?? "algorithm \(manifestDigest.algorithm)"
            lines.append(("manifest digest", "\(Hex.string(manifestDigest.bytes)) (\(name))"))
        }
        if let sequenceNumber { lines.append(("sequence number", String(sequenceNumber))) }
        for (index, component) in componentIDs.enumerated() {
            lines.append(("component \(index)", component.map { Hex.string($0) }.joined(separator: " / ")))
        }
        return keyValueLines(lines).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    }
}
