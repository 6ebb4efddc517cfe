#if CBOR_FUZZING
// The libFuzzer build: `swift build --product cbor-fuzzer -Xswiftc -sanitize=fuzzer -Xswiftc -DCBOR_FUZZING`.
import FuzzingSupport

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    RoundTripCheck.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// The process entry point SwiftPM links in place of `main` (see ``runLibFuzzer(_:_:_:)``).
@_cdecl("CBORFuzzer_main")
public func cborFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzerTestOneInput)
}
#endif
