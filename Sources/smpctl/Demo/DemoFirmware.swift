import SMP
import SMPFirmware
import SMPSimulator

/// The firmware `smpctl demo` installs on its virtual device: a valid MCUboot image made in
/// memory (header, a body, and the SHA-256 TLV over both), newer than the device's 1.0.0.
enum DemoFirmware {
    /// The file name the demo shows.
    static let fileName = "app-v2.0.0.bin"

    /// The image, `size` bytes of body.
    static func image(size: Int = 256 * 1024) throws -> MCUbootUpgradeImage {
        let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let version: (UInt8, UInt8, UInt16, UInt32) = (2, 0, 0, 0)
        let file = SimulatedImageHeader.soundImageFile(version: version, body: body)
        return try MCUbootUpgradeImage(PackageImage(image: 0, target: .application, fileName: fileName, bytes: file))
    }
}
