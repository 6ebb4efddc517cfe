import ArgumentParser
import FoundationEssentials
import SMP
import SMPSimulator

/// `smpctl simulate`'s file system group options: preloaded files, capacity, mount point.
struct FSSimulateOptions: ParsableArguments {
    @Option(name: .customLong("fs-file"), help: ArgumentHelp("Preload a file: REMOTE=LOCAL, e.g. /lfs1/log.txt=./log.txt (repeatable).", valueName: "remote=local"))
    var files: [String] = []

    @Option(name: .customLong("fs-capacity"), help: ArgumentHelp("Bytes the file system holds.", valueName: "bytes"))
    var capacity: Int = 1 << 20

    @Option(name: .customLong("fs-mount"), help: ArgumentHelp("The mount point.", valueName: "path"))
    var mountPoint: String = "/lfs1"

    @Flag(name: .customLong("no-fs"), help: "Leave the file system group (8) out (its requests answer rc 8).")
    var disabled = false

    func validate() throws {
        try NumericRange.fsCapacity.check(capacity)
        guard mountPoint.hasPrefix("/"), mountPoint.count > 1, !mountPoint.hasSuffix("/") else {
            throw ValidationError("--fs-mount must be an absolute path such as /lfs1, not \(mountPoint)")
        }
        for file in files { _ = try Self.split(file) }
    }

    /// Sets `configuration`'s file system group, reading the preloaded files.
    func apply(to configuration: inout VirtualDeviceConfiguration) throws {
        guard !disabled else {
            configuration.fileSystem = nil
            return
        }
        var contents: [String: [UInt8]] = [:]
        for file in files {
            let (remote, local) = try Self.split(file)
            // A regular file only (a FIFO would block), no larger than the file system.
            let bytes: [UInt8]
            do {
                let source = try FileUploadSource(path: local)
                guard source.count <= capacity else {
                    throw ValidationError("--fs-file \(file): \(local) has \(source.count) bytes, more than --fs-capacity (\(capacity))")
                }
                bytes = try source.read(offset: 0, length: source.count)
            } catch let error as FileAccessError {
                throw ValidationError("--fs-file \(file): \(error)")
            }
            contents[remote] = bytes
        }
        configuration.fileSystem = SimulatedFileSystemConfiguration(mountPoints: [mountPoint], capacity: capacity, files: contents)
    }

    private static func split(_ file: String) throws -> (remote: String, local: String) {
        guard let equals = file.firstIndex(of: "="), file.hasPrefix("/") else {
            throw ValidationError("--fs-file takes REMOTE=LOCAL with an absolute REMOTE path, e.g. /lfs1/a.txt=a.txt; got \(file)")
        }
        return (String(file[..<equals]), String(file[file.index(after: equals)...]))
    }
}
