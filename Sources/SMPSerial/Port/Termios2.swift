#if canImport(Glibc)
import Glibc
#endif

/// Linux's `struct termios2`, which carries the line speed as a number (`BOTHER`), so that any
/// rate the driver accepts can be set. Glibc does not export it to Swift, so it is kept as raw
/// bytes at the kernel's offsets rather than as a Swift struct whose layout is not guaranteed.
///
/// The layout and ioctl numbers are those of the asm-generic ABI (x86, ARM, RISC-V, LoongArch):
/// four `tcflag_t`, `c_line`, `c_cc[19]`, `c_ispeed`, `c_ospeed`; 44 bytes.
struct Termios2 {
    #if arch(x86_64) || arch(i386) || arch(arm64) || arch(arm) || arch(riscv64)
    /// Whether this architecture's layout is known.
    static let isSupported = true
    #else
    static let isSupported = false
    #endif

    static let size = 44
    /// `TCGETS2` = `_IOR('T', 0x2A, struct termios2)`.
    static let getRequest: UInt = 0x802C_542A
    /// `TCSETS2` = `_IOW('T', 0x2B, struct termios2)`.
    static let setRequest: UInt = 0x402C_542B
    /// The speed bits of `c_cflag`, and `BOTHER`: "the speed is in `c_ospeed`".
    static let speedMask: UInt32 = 0o010017
    static let otherSpeed: UInt32 = 0o010000
    /// Input speed bits sit this far above the output speed bits (`IBSHIFT`).
    static let inputSpeedShift: UInt32 = 16

    private static let controlFlagsOffset = 8
    private static let inputSpeedOffset = 36
    private static let outputSpeedOffset = 40

    private var bytes = [UInt8](repeating: 0, count: size)

    /// Reads the descriptor's settings; the `errno` value on failure.
    static func read(_ descriptor: Int32) -> Result<Termios2, Errno> {
        var settings = Termios2()
        let status = settings.bytes.withUnsafeMutableBytes { ioctl(descriptor, getRequest, $0.baseAddress!) }
        return status == 0 ? .success(settings) : .failure(Errno(errno))
    }

    /// Applies these settings to the descriptor; the `errno` value on failure.
    func write(to descriptor: Int32) -> Result<Void, Errno> {
        var copy = bytes
        let status = copy.withUnsafeMutableBytes { ioctl(descriptor, Self.setRequest, $0.baseAddress!) }
        return status == 0 ? .success(()) : .failure(Errno(errno))
    }

    var controlFlags: UInt32 {
        get { load(at: Self.controlFlagsOffset) }
        set { store(newValue, at: Self.controlFlagsOffset) }
    }

    var inputSpeed: UInt32 { load(at: Self.inputSpeedOffset) }
    var outputSpeed: UInt32 { load(at: Self.outputSpeedOffset) }

    /// Sets both directions to `rate` bits per second, as a number (`BOTHER`).
    mutating func setSpeed(_ rate: UInt32) {
        let bothDirections = Self.speedMask | (Self.speedMask << Self.inputSpeedShift)
        controlFlags = (controlFlags & ~bothDirections) | Self.otherSpeed | (Self.otherSpeed << Self.inputSpeedShift)
        store(rate, at: Self.inputSpeedOffset)
        store(rate, at: Self.outputSpeedOffset)
    }

    private func load(at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }

    private mutating func store(_ value: UInt32, at offset: Int) {
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: UInt32.self) }
    }
}

/// An `errno` value.
struct Errno: Error, Hashable {
    var code: Int32
    init(_ code: Int32) { self.code = code }
}
