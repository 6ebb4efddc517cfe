#if !CBOR_FUZZING
import FuzzingSupport

/// The normal build of `cbor-fuzzer`: `cbor-fuzzer FILE_OR_DIRECTORY...` replays inputs through
/// the fuzzer's check (see ``FuzzReplay``).
@main
struct ReplayDriver {
    static func main() {
        FuzzReplay.run(tool: "cbor-fuzzer", check: RoundTripCheck.run)
    }
}
#endif
