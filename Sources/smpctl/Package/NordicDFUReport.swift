import JSON
import NordicDFU
import SMP
import SMPFirmware

/// What `package info` shows for a Nordic DFU package: each image with its init packet, and the
/// signature checks when a public key was given.
struct NordicDFUReport {
    let package: NordicDFUPackage
    /// The package file as given.
    let file: String
    /// The `--key` path, if given.
    let key: String?
    /// Each image's signature check, in image order; empty without a key.
    let checks: [DFUSignatureCheck]

    init(package: NordicDFUPackage, file: String, key: String?, publicKey: DFUPublicKey?) {
        self.package = package
        self.file = file
        self.key = key
        checks = publicKey.map { key in package.images.map { $0.signatureCheck(with: key) } } ?? []
    }

    /// Why the signature check fails (an image unsigned, not verified or not checkable); nil
    /// without a key or when every image verifies.
    var signatureFailure: String? {
        let failures = zip(package.images, checks).filter { !$0.1.isVerified }
        guard let key, !failures.isEmpty else { return nil }
        let list = failures.map { image, check in "\(image.type) \(image.datFile ?? image.binFile): \(check)" }.joined(separator: "; ")
        return "signature check with \(key) failed: \(list)"
    }

    /// The `package info --json` document.
    var jsonDocument: JSONValue {
        .object([
            ("file", .string(file)),
            ("kind", .string(package.kind.rawValue)),
            ("dfuVersion", package.manifest?.dfuVersion.map(JSONValue.string) ?? .null),
            ("images", .array(package.images.indices.map(imageJSON))),
            ("signatureKey", key.map(JSONValue.string) ?? .null),
            ("signaturesVerified", key == nil ? .null : .bool(signatureFailure == nil)),
        ])
    }

    /// The `package info` text.
    var humanReport: String {
        var sections = [keyValueLines([("file", file), ("kind", package.kind.title)])]
        sections.append("images (in the order they are sent):\n" + package.images.indices.map(imageText).joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }

    private func imageJSON(_ index: Int) -> JSONValue {
        let image = package.images[index]
        let details = InitPacketDetails(image.initPacket)
        return .object([
            ("type", .string(image.type.manifestKey)),
            ("file", .string(image.binFile)),
            ("initPacket", image.datFile.map(JSONValue.string) ?? .null),
            ("size", .int(Int64(image.firmware.count))),
            ("softDeviceSize", .int(Int64(image.softDeviceSize))),
            ("bootloaderSize", .int(Int64(image.bootloaderSize))),
            ("applicationSize", .int(Int64(image.applicationSize))),
            ("sha256", .string(Hex.string(image.sha256))),
            ("crc16", details.checksCRC16 ? .int(Int64(image.crc16)) : .null),
            ("firmwareVersion", details.firmwareVersion.map { .int(Int64($0)) } ?? .null),
            ("hardwareVersion", details.hardwareVersion.map { .int(Int64($0)) } ?? .null),
            ("deviceType", details.device.map { .int(Int64($0.type)) } ?? .null),
            ("deviceRevision", details.device.map { .int(Int64($0.revision)) } ?? .null),
            ("softDeviceRequirements", .array(details.softDeviceRequirements.map { id in
                .object([("id", .int(Int64(id))), ("name", SoftDeviceFirmwareID.name(id).map(JSONValue.string) ?? .null)])
            })),
            ("debug", details.isDebug.map(JSONValue.bool) ?? .null),
            ("signature", details.signature.map(JSONValue.string) ?? .null),
            ("signatureCheck", checks.indices.contains(index) ? .string(checks[index].jsonName) : .null),
        ])
    }

    private func imageText(_ index: Int) -> String {
        let image = package.images[index]
        let details = InitPacketDetails(image.initPacket)
        var lines = [("file", "\(image.binFile) (\(image.firmware.count) bytes)")]
        if image.type == .softDeviceBootloader {
            lines.append(("parts", "SoftDevice \(image.softDeviceSize) bytes, bootloader \(image.bootloaderSize) bytes"))
        }
        lines.append(("init packet", image.datFile ?? "none"))
        if let version = details.firmwareVersion { lines.append((details.device == nil ? "firmware version" : "application version", Self.version(version))) }
        if let version = details.hardwareVersion { lines.append(("hardware version", Self.version(version))) }
        if let device = details.device {
            lines.append(("device type", Self.version(UInt32(device.type))))
            lines.append(("device revision", Self.version(UInt32(device.revision))))
        }
        if !details.softDeviceRequirements.isEmpty {
            lines.append(("SoftDevice required", details.softDeviceRequirements.map { id in
                "0x" + String(id, radix: 16, uppercase: true) + (SoftDeviceFirmwareID.name(id).map { " (\($0))" } ?? "")
            }.joined(separator: ", ")))
        }
        let matches = image.datFile == nil ? "" : " (matches the init packet)"
        lines.append(("SHA-256", Hex.string(image.sha256) + (details.checksCRC16 ? "" : matches)))
        if details.checksCRC16 { lines.append(("CRC-16", MCUbootHex.literal(image.crc16, width: 4) + matches)) }
        if let isDebug = details.isDebug { lines.append(("debug", isDebug ? "yes (the bootloader skips the version check)" : "no")) }
        if image.datFile != nil { lines.append(("signature", details.signature ?? "none")) }
        if let key, checks.indices.contains(index) { lines.append(("signature check", "\(checks[index]) (\(key))")) }
        let body = keyValueLines(lines).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        return "  \(image.type):\n" + body
    }

    /// 0xFFFFFFFF and 0xFFFF mean "any" in init packets.
    private static func version(_ value: UInt32) -> String {
        value == 0xFFFF_FFFF || value == 0xFFFF ? "\(value) (any)" : String(value)
    }
}

/// The fields of an init packet the report shows, the same for Secure DFU and legacy packets.
private struct InitPacketDetails {
    var firmwareVersion: UInt32?
    var hardwareVersion: UInt32?
    var device: (type: UInt16, revision: UInt16)?
    var softDeviceRequirements: [UInt32] = []
    var isDebug: Bool?
    var signature: String?
    var checksCRC16 = false

    init(_ packet: NordicDFUImage.InitPacket) {
        switch packet {
        case .secure(let secure):
            firmwareVersion = secure.command.firmwareVersion
            hardwareVersion = secure.command.hardwareVersion
            softDeviceRequirements = secure.command.softDeviceRequirements
            isDebug = secure.command.isDebug
            signature = secure.signature?.type.description
        case .legacy(let legacy):
            firmwareVersion = legacy.applicationVersion
            device = (legacy.deviceType, legacy.deviceRevision)
            softDeviceRequirements = legacy.softDeviceRequirements.map(UInt32.init)
            switch legacy.integrity {
            case .crc16: checksCRC16 = true
            case let .sha256(_, _, signature): self.signature = signature == nil ? nil : "legacy ECDSA P-256 (DFU 0.8)"
            }
        case .none:
            break
        }
    }
}

extension NordicDFUPackage.Kind {
    /// How `package info` names the kind in text.
    var title: String {
        switch self {
        case .secure: return "Nordic Secure DFU package (nRF5 SDK 12+, manifest.json + init packets)"
        case .legacy: return "Nordic legacy DFU package (nRF5 SDK 7–11, manifest.json + extended init packets)"
        case .bareApplication: return "Nordic DFU bare application (no init packet)"
        }
    }
}

extension DFUSignatureCheck {
    /// The check's name in JSON output.
    var jsonName: String {
        switch self {
        case .verified: return "verified"
        case .failed: return "failed"
        case .unsigned: return "unsigned"
        case .notChecked: return "not-checked"
        }
    }
}
