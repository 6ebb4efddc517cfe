#if !SERIAL_FUZZING
import FuzzingSupport

/// The normal build of `serial-fuzzer`: `serial-fuzzer FILE_OR_DIRECTORY...` replays inputs
/// through the fuzzer's check (see ``FuzzReplay``).
@main
struct ReplayDriver {
    static func main() {
        FuzzReplay.run(tool: "serial-fuzzer", check: FramingCheck.run)
    }
}
#endif
