#if canImport(Glibc)
import Glibc
#endif
import Logging
import SMP

/// A serial port opened for SMP: raw 8N1 at the requested rate, exclusive to this process,
/// with its input flushed.
///
/// It is opened non-blocking, without becoming the controlling terminal and closed on exec.
/// Exclusivity is both `TIOCEXCL` (other opens fail with EBUSY, except for root) and an
/// advisory `flock`, which also stops a second smpctl run as root, and pyserial-based tools.
/// DTR and RTS are asserted where the driver supports it; pseudo-terminals do not, and that is
/// not an error.
///
/// ```swift
/// let port = try SerialPort.open(path: "/dev/ttyACM0", options: SerialPortOptions(baudRate: 1_000_000))
/// ```
public struct SerialPort: Sendable {
    /// The path it was opened with (possibly a link such as `/dev/serial/by-id/…`).
    public let path: String
    /// The device node behind ``path`` (links resolved).
    public let devicePath: String
    /// The open descriptor; owned by whoever calls ``close()`` or takes it over.
    public let descriptor: Int32
    /// The baud rate in force, as the driver reports it back.
    public let baudRate: Int

    /// Opens and sets up the port, or throws an error that says what is wrong and what to do:
    /// a missing port lists the ports present; a refused one names the owning group and the udev
    /// rule; a busy one names the process holding it; a path that is no terminal says what it is.
    public static func open(
        path: String, options: SerialPortOptions = SerialPortOptions(), logger: Logger = Logger(label: "smp.serial")
    ) throws(SMPTransportError) -> SerialPort {
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SerialPortFailure.opening(path, code: errno) }
        let devicePath = FileSystem.canonicalPath(path) ?? path
        do throws(SMPTransportError) {
            var settings = termios()
            guard tcgetattr(descriptor, &settings) == 0 else {
                let code = errno
                throw code == ENOTTY || code == EINVAL
                    ? SerialPortFailure.notATerminal(path, kind: SerialPortFailure.kind(of: path))
                    : SerialPortFailure.io(path, "reading the line settings", code: code)
            }
            try lockExclusively(descriptor, path: path, devicePath: devicePath)
            let baudRate = try configure(descriptor, settings: settings, options: options, path: path, logger: logger)
            assertModemLines(descriptor, path: path, logger: logger)
            tcflush(descriptor, TCIFLUSH)
            // After the flush: scanning /proc takes a while, and what the device sends meanwhile
            // (a prompt, an answer to an early request) must not be discarded.
            let others = PortHolders.others(holding: devicePath)
            if !others.isEmpty {
                logger.warning(
                    "\(path) is also open in \(others.map(\.description).joined(separator: ", ")), which may read the device's answers before this program does")
            }
            logger.debug("opened \(path) (\(devicePath)) at \(baudRate) baud\(options.hardwareFlowControl ? ", RTS/CTS" : "")")
            return SerialPort(path: path, devicePath: devicePath, descriptor: descriptor, baudRate: baudRate)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    /// Gives up exclusivity and closes the descriptor (unless it was handed over).
    public func close() {
        releaseExclusivity()
        Glibc.close(descriptor)
    }

    /// Drops the bytes written but not yet sent on the line (`TCOFLUSH`).
    func discardUnsentOutput() {
        tcflush(descriptor, TCOFLUSH)
    }

    /// Lets other processes open the port again (`TIOCNXCL`); the descriptor stays open. The
    /// `flock` goes with the last descriptor of this open.
    public func releaseExclusivity() {
        _ = ioctl(descriptor, UInt(TIOCNXCL))
    }

    private static func lockExclusively(_ descriptor: Int32, path: String, devicePath: String) throws(SMPTransportError) {
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK else { throw SerialPortFailure.io(path, "locking", code: code) }
            throw SerialPortFailure.busy(path, holders: PortHolders.holding(devicePath, exceptDescriptor: descriptor))
        }
        _ = ioctl(descriptor, UInt(TIOCEXCL))
    }

    /// Raw 8N1, receiver on, modem status ignored, reads that return what is there; then the rate.
    private static func configure(
        _ descriptor: Int32, settings current: termios, options: SerialPortOptions, path: String, logger: Logger
    ) throws(SMPTransportError) -> Int {
        var settings = current
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~tcflag_t(CSTOPB)
        if options.hardwareFlowControl {
            settings.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            settings.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        // VMIN 1 / VTIME 0: with O_NONBLOCK a read returns what is buffered or EAGAIN, and poll
        // reports readable as soon as one byte is there (VMIN 0 would make an empty read look like EOF).
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        let standard = LineSpeed.standard[options.baudRate]
        let speed = standard ?? speed_t(B38400)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw SerialPortFailure.unsupportedSettings(path, baudRate: options.baudRate, code: errno)
        }
        if standard != nil { return options.baudRate }
        switch LineSpeed.setCustom(options.baudRate, on: descriptor) {
        case .success(let actual):
            if actual != options.baudRate {
                logger.notice("\(path): asked for \(options.baudRate) baud, the driver set \(actual)")
            }
            return actual
        case .failure(let error):
            throw SerialPortFailure.unsupportedSettings(path, baudRate: options.baudRate, code: error.code)
        }
    }

    /// Raises DTR and RTS: many USB serial devices (Zephyr's CDC ACM among them) only send while
    /// DTR is set. Pseudo-terminals and some drivers do not have the lines (ENOTTY, EINVAL).
    private static func assertModemLines(_ descriptor: Int32, path: String, logger: Logger) {
        var lines = Int32(TIOCM_DTR | TIOCM_RTS)
        if ioctl(descriptor, UInt(TIOCMBIS), &lines) != 0 {
            let code = errno
            if code != ENOTTY && code != EINVAL {
                logger.debug("\(path): cannot raise DTR/RTS: \(errorText(code))")
            }
        }
    }
}
