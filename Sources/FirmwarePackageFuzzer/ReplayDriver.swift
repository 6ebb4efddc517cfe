#if !PACKAGE_FUZZING
import FuzzingSupport

/// The normal build of `package-fuzzer`: `package-fuzzer FILE_OR_DIRECTORY...` replays inputs
/// through the fuzzer's check (see ``FuzzReplay``).
@main
struct ReplayDriver {
    static func main() {
        FuzzReplay.run(tool: "package-fuzzer", check: PackageCheck.run)
    }
}
#endif
