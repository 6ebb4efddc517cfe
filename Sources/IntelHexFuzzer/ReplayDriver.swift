#if !HEX_FUZZING
import FuzzingSupport

/// The normal build of `intel-hex-fuzzer`: `intel-hex-fuzzer FILE_OR_DIRECTORY...` replays
/// inputs through the fuzzer's check (see ``FuzzReplay``).
@main
struct ReplayDriver {
    static func main() {
        FuzzReplay.run(tool: "intel-hex-fuzzer", check: HexCheck.run)
    }
}
#endif
