#if SUIT_FUZZING
// The libFuzzer build:
// `swift build --product suit-fuzzer -Xswiftc -sanitize=fuzzer -Xswiftc -DSUIT_FUZZING`
// (Tests/Scripts/suit/fuzz-smoke.sh does it).
import FuzzingSupport

/// libFuzzer's per-input callback.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    EnvelopeCheck.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// The process entry point SwiftPM links in place of `main` (see ``runLibFuzzer(_:_:_:)``).
@_cdecl("SUITEnvelopeFuzzer_main")
public func suitFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv, fuzzerTestOneInput)
}
#endif
