#if canImport(Glibc)
import Glibc
#endif

/// Baud rates: the standard `B…` constants, and custom rates set through ``Termios2``.
enum LineSpeed {
    /// Every standard rate with its constant, up to 4 Mbaud.
    static let standard: [Int: speed_t] = [
        50: speed_t(B50), 75: speed_t(B75), 110: speed_t(B110), 134: speed_t(B134), 150: speed_t(B150),
        200: speed_t(B200), 300: speed_t(B300), 600: speed_t(B600), 1200: speed_t(B1200), 1800: speed_t(B1800),
        2400: speed_t(B2400), 4800: speed_t(B4800), 9600: speed_t(B9600), 19_200: speed_t(B19200),
        38_400: speed_t(B38400), 57_600: speed_t(B57600), 115_200: speed_t(B115200), 230_400: speed_t(B230400),
        460_800: speed_t(B460800), 500_000: speed_t(B500000), 576_000: speed_t(B576000), 921_600: speed_t(B921600),
        1_000_000: speed_t(B1000000), 1_152_000: speed_t(B1152000), 1_500_000: speed_t(B1500000),
        2_000_000: speed_t(B2000000), 2_500_000: speed_t(B2500000), 3_000_000: speed_t(B3000000),
        3_500_000: speed_t(B3500000), 4_000_000: speed_t(B4000000),
    ]

    /// Sets a rate that is not standard on an already configured descriptor and returns the rate
    /// the driver reports back (drivers round to what their clock can make).
    static func setCustom(_ rate: Int, on descriptor: Int32) -> Result<Int, Errno> {
        guard Termios2.isSupported else { return .failure(Errno(ENOTSUP)) }
        guard let bitsPerSecond = UInt32(exactly: rate) else { return .failure(Errno(EINVAL)) }
        var settings: Termios2
        switch Termios2.read(descriptor) {
        case .success(let current): settings = current
        case .failure(let error): return .failure(error)
        }
        settings.setSpeed(bitsPerSecond)
        if case .failure(let error) = settings.write(to: descriptor) { return .failure(error) }
        return Termios2.read(descriptor).map { Int($0.outputSpeed) }
    }
}
