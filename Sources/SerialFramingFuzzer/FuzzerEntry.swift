#if SERIAL_FUZZING
// The libFuzzer build:
// `swift build --product serial-fuzzer -Xswiftc -sanitize=fuzzer -Xswiftc -DSERIAL_FUZZING`
// (Tests/Scripts/serial/fuzz-smoke.sh does it).

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else {
        FramingCheck.run([])
        return 0
    }
    FramingCheck.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's driver (`int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *, size_t))`),
/// linked in by `-sanitize=fuzzer`. Only pointers and integers cross, which Swift passes as C does.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The process entry point.
///
/// libFuzzer brings its own `main`, but SwiftPM links every executable target with
/// `--defsym main=SerialFramingFuzzer_main` (so that tests can link executables), which replaces
/// it and needs this symbol. It does what libFuzzer's `main` does: hand the arguments to the driver.
@_cdecl("SerialFramingFuzzer_main")
public func serialFramingFuzzerMain(
    _ argc: CInt,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
) -> CInt {
    var argc = argc
    var argv = argv
    return llvmFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput)
}
#endif
