import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Why a file operation of FoundationEssentials (`FileManager`, `Data.write`) failed, in the
/// system's words: `Permission denied`, `No such file or directory`.
///
/// - Returns: the `strerror` text of the POSIX error under `error` when there is one, else the
///   error as it describes itself.
func fileErrorReason(_ error: any Error) -> String {
    let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError
    guard let posix else { return "\(error)" }
    return String(cString: strerror(posix.code.rawValue))
}
