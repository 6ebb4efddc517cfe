import FoundationEssentials
import NordicDFU
import SMPFirmware

/// A firmware file as the commands read it, told by its content: what an SMP device installs
/// (an MCUboot image or package, a SUIT envelope or package) or an nRF5 SDK Nordic DFU package
/// (a ZIP whose manifest has a `manifest` object), or, when the command is told so, a bare
/// application for a Nordic DFU bootloader (never guessed: a `.bin` is otherwise an MCUboot
/// image). The file is read once.
enum FirmwareFile {
    /// Firmware for an SMP device.
    case smp(FirmwarePackage)
    /// A package for a Nordic DFU bootloader.
    case nordicDFU(NordicDFUPackage)

    /// Reads and decodes the file at `path`; with `bare`, as a bare application (`.bin`, or
    /// `.hex` with one range) for a Nordic DFU bootloader that takes no init packet.
    ///
    /// - Throws: a ``CLIError`` with status 65 for a file that cannot be read or decoded, 64 for
    ///   `bare` with a package.
    static func read(_ path: String, bare: Bool = false) throws(CLIError) -> FirmwareFile {
        do {
            let data = Data(try FirmwarePackage.readFile(path, limits: PackageLimits()))
            if bare {
                guard !data.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
                    throw CLIError(.usage, "--bare takes an application's .bin or .hex, and \(path) is a ZIP package", hint: "leave out --bare: a package says what it holds")
                }
                return .nordicDFU(try NordicDFUPackage(bareApplication: Array(data), name: path))
            }
            if NordicDFUPackage.isNordicDFUPackage(data) { return .nordicDFU(try NordicDFUPackage(data: data, name: path)) }
            return .smp(try FirmwarePackage(data: data, name: path))
        } catch let error as CLIError {
            throw error
        } catch let error as FirmwarePackageError {
            throw CLIError(.dataError, error.description)
        } catch let error as NordicDFUPackageError {
            throw CLIError(.dataError, error.description)
        } catch {
            throw CLIError(.dataError, "\(error)")
        }
    }
}
