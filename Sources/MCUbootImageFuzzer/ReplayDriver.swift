#if !IMAGE_FUZZING
import FuzzingSupport

/// The normal build of `image-fuzzer`: `image-fuzzer FILE_OR_DIRECTORY...` replays inputs
/// through the fuzzer's check (see ``FuzzReplay``).
@main
struct ReplayDriver {
    static func main() {
        FuzzReplay.run(tool: "image-fuzzer", check: ImageCheck.run)
    }
}
#endif
