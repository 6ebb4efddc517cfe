#if canImport(Glibc)
import Glibc
#endif
import SMP
import SMPLocalFiles

/// The LOCAL of `fs get`, resolved and, for a stream, opened before the device is asked for
/// anything: a destination that cannot be written fails at once (exit 65).
final class FSLocalDestination: Sendable {
    /// The path written (the remote name inside a directory, a link's target), or `-`.
    let path: String
    /// Where the bytes go for standard output, a character device or a FIFO; nil for a regular
    /// file (written through a ``PartialDownloadFile``).
    let stream: OrderedStreamSink?
    /// Whether the bytes go to this process's standard output (`-`, or `/dev/stdout`): no
    /// summary is printed there then.
    let isStandardOutput: Bool
    private let descriptor: Int32?

    private init(path: String, stream: OrderedStreamSink?, isStandardOutput: Bool, descriptor: Int32?) {
        self.path = path
        self.stream = stream
        self.isStandardOutput = isStandardOutput
        self.descriptor = descriptor
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// Resolves `local` (``DownloadDestination``); `verify` needs a regular file to read back.
    static func open(_ local: String, remoteName: String, verify: Bool) throws(CLIError) -> FSLocalDestination {
        let destination: DownloadDestination
        do {
            destination = try DownloadDestination.resolve(local, remoteName: remoteName)
        } catch {
            throw FSLocalFile.cliError(error)
        }
        switch destination {
        case .standardOutput:
            return FSLocalDestination(path: "-", stream: .standardOutput(), isStandardOutput: true, descriptor: nil)
        case .file(let path):
            return FSLocalDestination(path: path, stream: nil, isStandardOutput: false, descriptor: nil)
        case .stream(let path, let kind):
            guard !verify else {
                throw CLIError(.usage, "--verify needs a regular local file: \(path) is \(kind.rawValue), which cannot be read back")
            }
            let descriptor: Int32
            do {
                descriptor = try DownloadDestination.openStream(path, kind: kind)
            } catch {
                throw FSLocalFile.cliError(error)
            }
            let toStandardOutput = isSameFile(descriptor, STDOUT_FILENO)
            return FSLocalDestination(
                path: path, stream: OrderedStreamSink(descriptor: descriptor, path: path), isStandardOutput: toStandardOutput, descriptor: descriptor)
        }
    }

    private static func isSameFile(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        return fstat(first, &a) == 0 && fstat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
