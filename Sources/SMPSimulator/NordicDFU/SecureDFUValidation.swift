import Crypto
import NordicDFU

/// The checks an nRF5 SDK Secure DFU bootloader makes (`nrf_dfu_validation.c`), for the virtual
/// bootloader: the init packet is decoded (``SecureInitPacket``); its signature must verify with
/// the bootloader's public key when it has one; its hardware version and SoftDevice requirement
/// must fit the device; an application must not be older than the one installed (unless the
/// package is a debug one); the complete image must have the init packet's SHA-256.
public struct SecureDFUValidation: Sendable, Hashable {
    /// The public key signatures are checked with (its X9.63 bytes); nil: unsigned packages are
    /// accepted and signatures not checked (a bootloader built without signing).
    public var publicKey: [UInt8]?
    /// The device's hardware version (`hw_version`: 52 for nRF52).
    public var hardwareVersion: UInt32
    /// The SoftDevice the device runs (its firmware ID: 0xB7 is S132 6.1.1, 0x101 S132 7.2.0).
    public var softDeviceID: UInt32

    /// `sd_req` value that accepts any SoftDevice.
    public static let anySoftDevice: UInt32 = 0xFFFE

    /// Creates the checks of a bootloader.
    public init(publicKey: P256.Signing.PublicKey? = nil, hardwareVersion: UInt32 = 52, softDeviceID: UInt32 = 0xB7) {
        self.publicKey = publicKey.map { Array($0.x963Representation) }
        self.hardwareVersion = hardwareVersion
        self.softDeviceID = softDeviceID
    }

    /// A virtual bootloader configuration that makes these checks.
    public func configuration(faults: SecureDFUTargetFaults = SecureDFUTargetFaults()) -> SecureDFUTarget.Configuration {
        SecureDFUTarget.Configuration(
            faults: faults, firmwareCheck: { initPacket, firmware in Self.checkImage(firmware, against: initPacket) },
            initPacketCheck: { [self] initPacket, installed in check(initPacket, installed: installed) })
    }

    /// Judges an init packet as the SDK's bootloader does when its command object is executed.
    public func check(_ bytes: [UInt8], installed: [SecureDFUTarget.InstalledImage]) -> SecureDFUTarget.InitPacketVerdict {
        guard let packet = try? SecureInitPacket(bytes: bytes) else { return .refuse(.extended(.initCommandInvalid)) }
        let command = packet.command
        if let publicKey {
            guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey) else { return .refuse(.extended(.verificationFailed)) }
            switch packet.signatureCheck(with: DFUPublicKey(key)) {
            case .verified: break
            case .unsigned: return .refuse(.extended(.signatureMissing))
            case .notChecked: return .refuse(.extended(.wrongSignatureType))
            case .failed: return .refuse(.extended(.verificationFailed))
            }
        }
        if let hardware = command.hardwareVersion, hardware != hardwareVersion, !command.isDebug {
            return .refuse(.extended(.hardwareVersionMismatch))
        }
        let requirements = command.softDeviceRequirements
        if !command.isDebug, !requirements.isEmpty, !requirements.contains(Self.anySoftDevice), !requirements.contains(softDeviceID) {
            return .refuse(.extended(.softDeviceVersionMismatch))
        }
        if command.type == .application, !command.isDebug, let version = command.firmwareVersion,
           let current = Self.installedApplicationVersion(installed), version < current {
            return .refuse(.extended(.firmwareVersionTooLow))
        }
        guard command.hash?.type == .sha256 else { return .refuse(.extended(.wrongHashType)) }
        let size: UInt32
        switch command.type {
        case .application, .externalApplication: size = command.applicationSize
        case .softDevice: size = command.softDeviceSize
        case .bootloader: size = command.bootloaderSize
        case .softDeviceBootloader: size = command.softDeviceSize &+ command.bootloaderSize
        }
        guard size > 0 else { return .refuse(.extended(.initCommandInvalid)) }
        return .accept(firmwareSize: Int(size))
    }

    /// The complete image must have the init packet's SHA-256.
    static func checkImage(_ firmware: [UInt8], against bytes: [UInt8]) -> SecureDFURefusal? {
        guard let packet = try? SecureInitPacket(bytes: bytes), let hash = packet.command.hash else { return .extended(.initCommandInvalid) }
        return Array(SHA256.hash(data: firmware)) == hash.digest ? nil : .extended(.verificationFailed)
    }

    /// The firmware version of the application installed last, if any.
    static func installedApplicationVersion(_ installed: [SecureDFUTarget.InstalledImage]) -> UInt32? {
        installed.reversed().lazy.compactMap { image -> UInt32? in
            guard let command = try? SecureInitPacket(bytes: image.initPacket).command, command.type == .application else { return nil }
            return command.firmwareVersion
        }.first
    }
}
