/// What Zephyr's terse answers to an upload mean. Its fs_mgmt answers `MOUNT_POINT_NOT_FOUND`
/// whenever the file cannot be created for lack of its directory (a missing directory as well as
/// a missing mount point) and `UNKNOWN` when a component of the path is a file: file status of
/// the path's ancestors tells which.
public struct RemotePathDiagnosis: Sendable, Hashable {
    /// What is wrong with the path.
    public enum Problem: Sendable, Hashable {
        /// The directory `missing` does not exist; `existing` is the closest folder above it that does.
        case missingDirectory(missing: String, existing: String)
        /// `path`, a folder of the file's path, is a file.
        case notADirectory(String)
        /// The path names a file at the top level (`/name`), where only mount points are.
        case notInMountPoint
        /// No file system is mounted at `path`, the path's top folder.
        case noMountPoint(String)
    }

    /// What is wrong with the path.
    public var problem: Problem
    /// The device's answer that was explained.
    public var groupError: SMPGroupError

    /// Creates a diagnosis.
    public init(problem: Problem, groupError: SMPGroupError) {
        self.problem = problem
        self.groupError = groupError
    }

    /// Explains `error`, the failure of creating or writing the file `path` (an upload), by
    /// asking the device about the path's folders; nil when it is not such a failure or the
    /// folders tell nothing.
    public static func diagnose(_ error: any Error, path: String, client: SMPClient) async -> RemotePathDiagnosis? {
        guard case SMPError.device(let deviceError, _) = error, case .groupError(let groupError) = deviceError,
              let code = RemotePathState.fileSystemCode(deviceError),
              code == .mountPointNotFound || code == .unknown
        else { return nil }
        var missing: String?
        var folder = RemoteFilePath.parent(of: path)
        // Up from the file's folder to the first one that exists: the one below it is missing.
        while folder != "/" {
            switch try? await RemotePathState.query(client, path: folder) {
            case .directory?:
                guard let missing else { return nil }
                return RemotePathDiagnosis(problem: .missingDirectory(missing: missing, existing: folder), groupError: groupError)
            case .missing?:
                missing = folder
                folder = RemoteFilePath.parent(of: folder)
            case .file?:
                return RemotePathDiagnosis(problem: .notADirectory(folder), groupError: groupError)
            case .unknown?, nil:
                return nil
            }
        }
        guard let missing else {
            guard code == .mountPointNotFound else { return nil }
            return RemotePathDiagnosis(problem: .notInMountPoint, groupError: groupError)
        }
        return RemotePathDiagnosis(problem: .noMountPoint(missing), groupError: groupError)
    }
}
