#if !SUIT_FUZZING
import FuzzingSupport

/// The normal build of `suit-fuzzer`: `suit-fuzzer FILE_OR_DIRECTORY...` replays inputs through
/// the fuzzer's check (see ``FuzzReplay``).
@main
struct ReplayDriver {
    static func main() {
        FuzzReplay.run(tool: "suit-fuzzer", check: EnvelopeCheck.run)
    }
}
#endif
