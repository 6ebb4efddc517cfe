import FoundationEssentials
import NordicDFU
import SMPFirmware

/// A firmware file as the commands read it, told by its content: what an SMP device installs
/// (an MCUboot image or package, a SUIT envelope or package) or an nRF5 SDK Nordic DFU package
/// (a ZIP whose manifest has a `manifest` object). The file is read once.
enum FirmwareFile {
    /// Firmware for an SMP device.
    case smp(FirmwarePackage)
    /// A package for a Nordic DFU bootloader.
    case nordicDFU(NordicDFUPackage)

    /// Reads and decodes the file at `path`.
    ///
    /// - Throws: a ``CLIError`` with status 65 for a file that cannot be read or decoded.
    static func read(_ path: String) throws(CLIError) -> FirmwareFile {
        do {
            let data = Data(try FirmwarePackage.readFile(path, limits: PackageLimits()))
            if NordicDFUPackage.isNordicDFUPackage(data) { return .nordicDFU(try NordicDFUPackage(data: data, name: path)) }
            return .smp(try FirmwarePackage(data: data, name: path))
        } catch let error as FirmwarePackageError {
            throw CLIError(.dataError, error.description)
        } catch let error as NordicDFUPackageError {
            throw CLIError(.dataError, error.description)
        } catch {
            throw CLIError(.dataError, "\(error)")
        }
    }
}
