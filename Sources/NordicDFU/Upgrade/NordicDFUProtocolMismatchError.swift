/// A package for one Nordic DFU protocol and a bootloader that speaks the other: refused before
/// anything is sent.
public struct NordicDFUProtocolMismatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The protocol the package is for.
    public var package: NordicDFUProtocol
    /// The protocol the bootloader speaks.
    public var device: NordicDFUProtocol
    /// The link, for people.
    public var link: String

    /// Creates an error.
    public init(package: NordicDFUProtocol, device: NordicDFUProtocol, link: String) {
        self.package = package
        self.device = device
        self.link = link
    }

    /// `the device on serial /dev/ttyACM0 runs a Nordic legacy DFU bootloader; the package is for Nordic Secure DFU`.
    public var description: String {
        "the device on \(link) runs a \(device.name) bootloader (\(device.sdkRange)); the package is for \(package.name) (\(package.sdkRange))"
    }

    /// What to do.
    public var hint: String {
        switch device {
        case .legacy: "build a legacy package for it (adafruit-nrfutil dfu genpkg, nrfutil 0.5 or older), or update its bootloader first"
        case .secure: "build a Secure DFU package for it (nrfutil pkg generate), signed with the key its bootloader holds"
        }
    }
}

extension NordicDFUProtocol {
    /// `nRF5 SDK 12–17`, `nRF5 SDK 11 or older`.
    var sdkRange: String {
        switch self {
        case .secure: "nRF5 SDK 12–17"
        case .legacy: "nRF5 SDK 11 or older"
        }
    }
}
