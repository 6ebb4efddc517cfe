#if canImport(Glibc)
import Glibc
#endif
import SMP

/// The errors a serial port reports, each with a message that names the port and a hint that
/// says what to do.
enum SerialPortFailure {
    /// Where the udev rule of this package lives.
    static let udevRule = "udev/60-smpctl.rules"

    /// The path does not exist: list the ports that do.
    static func notFound(_ path: String, present: [String]) -> SMPTransportError {
        let hint = present.isEmpty
            ? "no serial ports are present (/dev/ttyACM*, /dev/ttyUSB*, /dev/serial/by-id/*): check that the device is plugged in and powered"
            : "serial ports present: \(present.joined(separator: ", "))"
        return SMPTransportError(.notFound, "serial:\(path): no such serial port", hint: hint, nextStep: .listSerialPorts)
    }

    /// Opening was refused: say who may open the node (owner, group, mode) and what to do,
    /// from the node as it is (``SerialPortAccess``).
    static func permissionDenied(_ path: String, access: SerialPortAccess?) -> SMPTransportError {
        guard let access else {
            return SMPTransportError(
                .permissionDenied, "serial:\(path): permission denied",
                hint: "check who may open it with `ls -l \(path)`; the udev rule \(udevRule) gives the logged-in user access")
        }
        return SMPTransportError(
            .permissionDenied, "serial:\(path): permission denied (\(access.summary))",
            hint: access.advice(path: path, udevRule: udevRule))
    }

    /// Another process (or another open in this one) has the port.
    static func busy(_ path: String, holders: [PortHolder]) -> SMPTransportError {
        let who = holders.isEmpty ? "another program" : holders.map(\.description).joined(separator: ", ")
        return SMPTransportError(
            .io, "serial:\(path): the port is in use by \(who)",
            hint: "close the other program (a terminal such as minicom, screen or picocom, or another copy of this program) and try again")
    }

    /// The path is not a terminal device.
    static func notATerminal(_ path: String, kind: String) -> SMPTransportError {
        SMPTransportError(
            .notFound, "serial:\(path): not a serial port (\(kind))",
            hint: "give a serial device such as /dev/ttyACM0 or a /dev/serial/by-id/… link", nextStep: .listSerialPorts)
    }

    /// The device went away: unplugged, reset, or re-enumerated by USB.
    static func disappeared(_ path: String, detail: String? = nil) -> SMPTransportError {
        SMPTransportError(
            .closed, "serial:\(path): the device disappeared" + (detail.map { " (\($0))" } ?? ""),
            hint: "it was unplugged, reset or re-enumerated; reconnect it (a USB device may come back under another name)",
            nextStep: .listSerialPorts)
    }

    /// The driver refused the line settings (usually the baud rate).
    static func unsupportedSettings(_ path: String, baudRate: Int, code: Int32) -> SMPTransportError {
        SMPTransportError(
            .unsupportedSetting, "serial:\(path): the port does not accept \(baudRate) baud: \(errorText(code))",
            hint: "choose a rate the adapter supports, e.g. ?baud=115200 (the device's UART must use the same rate)")
    }

    /// Any other failure of a system call on the port.
    static func io(_ path: String, _ operation: String, code: Int32) -> SMPTransportError {
        SMPTransportError(.io, "serial:\(path): \(operation) failed: \(errorText(code))")
    }

    /// The error for a failed `open(2)`.
    static func opening(_ path: String, code: Int32) -> SMPTransportError {
        switch code {
        case ENOENT, ENOTDIR:
            return notFound(path, present: SerialPortListing.present())
        case EACCES, EPERM:
            return permissionDenied(path, access: SerialPortAccess(path: path))
        case EBUSY:
            return busy(path, holders: FileSystem.canonicalPath(path).map { PortHolders.holding($0) } ?? [])
        case EISDIR:
            return notATerminal(path, kind: "a directory")
        case ENXIO, ENODEV:
            return disappeared(path, detail: "no device behind the node")
        default:
            return io(path, "opening", code: code)
        }
    }

    /// What a path that is not a terminal is, in words.
    static func kind(of path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "not a terminal device" }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        case S_IFBLK: return "a block device"
        default: return "not a terminal device"
        }
    }
}
