#if CBOR_FUZZING || SERIAL_FUZZING || IMAGE_FUZZING || PACKAGE_FUZZING || SUIT_FUZZING
// Compiled only in libFuzzer builds (`-sanitize=fuzzer` and the targets' `-D…_FUZZING`), where
// libFuzzer's driver is linked in.

/// libFuzzer's driver (`int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*cb)(const uint8_t *, size_t))`),
/// linked in by `-sanitize=fuzzer`. Only pointers and integers cross, which Swift passes as C does.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// What a fuzzer's entry point does instead of libFuzzer's `main`.
///
/// libFuzzer brings its own `main`, but SwiftPM links every executable target with
/// `--defsym main=<Target>_main` (so that tests can link executables), which replaces it; the
/// target's `<Target>_main` calls this to hand the arguments to libFuzzer's driver.
public func runLibFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return llvmFuzzerRunDriver(&argc, &argv, testOneInput)
}
#endif
