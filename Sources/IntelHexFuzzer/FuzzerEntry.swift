#if HEX_FUZZING
// The libFuzzer build:
// `swift build --product intel-hex-fuzzer -Xswiftc -sanitize=fuzzer -Xswiftc -DHEX_FUZZING`
// (Tests/Scripts/hex/fuzz-smoke.sh does it).
import FuzzingSupport

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    HexCheck.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// The process entry point SwiftPM links in place of `main` (see ``runLibFuzzer(_:_:_:)``).
@_cdecl("IntelHexFuzzer_main")
public func intelHexFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzerTestOneInput)
}
#endif
