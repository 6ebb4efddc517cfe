/// File system group (8), Zephyr `enum fs_mgmt_err_code_t`; v1 translation from `fs_mgmt.c`.
///
/// Each case names one `err.rc` value; ``SMPGroupErrorCode/name`` gives Zephyr's enumerator name.
public enum FileSystemGroupError: Int64, SMPGroupErrorCode {
    /// `FS_MGMT_ERR_OK` (0).
    case ok = 0
    /// `FS_MGMT_ERR_UNKNOWN` (1).
    case unknown = 1
    /// `FS_MGMT_ERR_FILE_INVALID_NAME` (2).
    case fileInvalidName = 2
    /// `FS_MGMT_ERR_FILE_NOT_FOUND` (3).
    case fileNotFound = 3
    /// `FS_MGMT_ERR_FILE_IS_DIRECTORY` (4).
    case fileIsDirectory = 4
    /// `FS_MGMT_ERR_FILE_OPEN_FAILED` (5).
    case fileOpenFailed = 5
    /// `FS_MGMT_ERR_FILE_SEEK_FAILED` (6).
    case fileSeekFailed = 6
    /// `FS_MGMT_ERR_FILE_READ_FAILED` (7).
    case fileReadFailed = 7
    /// `FS_MGMT_ERR_FILE_TRUNCATE_FAILED` (8).
    case fileTruncateFailed = 8
    /// `FS_MGMT_ERR_FILE_DELETE_FAILED` (9).
    case fileDeleteFailed = 9
    /// `FS_MGMT_ERR_FILE_WRITE_FAILED` (10).
    case fileWriteFailed = 10
    /// `FS_MGMT_ERR_FILE_OFFSET_NOT_VALID` (11).
    case fileOffsetNotValid = 11
    /// `FS_MGMT_ERR_FILE_OFFSET_LARGER_THAN_FILE` (12).
    case fileOffsetLargerThanFile = 12
    /// `FS_MGMT_ERR_CHECKSUM_HASH_NOT_FOUND` (13).
    case checksumHashNotFound = 13
    /// `FS_MGMT_ERR_MOUNT_POINT_NOT_FOUND` (14).
    case mountPointNotFound = 14
    /// `FS_MGMT_ERR_READ_ONLY_FILESYSTEM` (15).
    case readOnlyFilesystem = 15
    /// `FS_MGMT_ERR_FILE_EMPTY` (16).
    case fileEmpty = 16
    /// `FS_MGMT_ERR_FILE_CLOSE_FAILED` (17).
    case fileCloseFailed = 17

    public static let group = SMPGroup.fileSystem
    public static let prefix = "FS_MGMT_ERR_"

    public var info: SMPGroupErrorInfo {
        switch self {
        case .ok: .init("OK", "success: the file system group reported no error", .ok)
        case .unknown:
            .init(
                "UNKNOWN",
                "the file system group reported an unspecified error (Zephyr: also a path that ends in / or goes through "
                    + "a file, or an upload to a directory); check the path and the device's log output",
                .unknown)
        case .fileInvalidName:
            .init(
                "FILE_INVALID_NAME",
                "the file name is empty or too long (MCUMGR_GRP_FS_PATH_LEN); give an absolute path such as "
                    + "/lfs1/file.txt",
                .invalidValue)
        case .fileNotFound:
            .init(
                "FILE_NOT_FOUND",
                "the file does not exist; check the path, including its mount point (e.g. /lfs1/…)",
                .noEntry)
        case .fileIsDirectory: .init("FILE_IS_DIRECTORY", "the path names a directory, not a file", .unknown)
        case .fileOpenFailed:
            .init(
                "FILE_OPEN_FAILED",
                "the device could not open the file (missing directory, or too many open files?)",
                .unknown)
        case .fileSeekFailed:
            .init(
                "FILE_SEEK_FAILED",
                "seeking in the file failed; the offset may be past the end of the file",
                .unknown)
        case .fileReadFailed: .init("FILE_READ_FAILED", "reading the file failed on the device", .unknown)
        case .fileTruncateFailed:
            .init("FILE_TRUNCATE_FAILED", "the device could not truncate the existing file before writing it", .unknown)
        case .fileDeleteFailed:
            .init("FILE_DELETE_FAILED", "the device could not delete the existing file before writing it", .unknown)
        case .fileWriteFailed:
            .init("FILE_WRITE_FAILED", "writing the file failed on the device; the file system may be full", .unknown)
        case .fileOffsetNotValid:
            .init(
                "FILE_OFFSET_NOT_VALID",
                "the upload offset is not the one the device expects; resume at the `len` it returned, or "
                    + "restart at offset 0",
                .unknown)
        case .fileOffsetLargerThanFile:
            .init("FILE_OFFSET_LARGER_THAN_FILE", "the requested offset is past the end of the file", .unknown)
        case .checksumHashNotFound:
            .init(
                "CHECKSUM_HASH_NOT_FOUND",
                "the device does not support that hash or checksum type; ask it for the supported types "
                    + "(usually crc32, sha256)",
                .invalidValue)
        case .mountPointNotFound:
            .init(
                "MOUNT_POINT_NOT_FOUND",
                "no file system is mounted at the path's mount point, or (Zephyr, on upload) the file's directory "
                    + "does not exist; check the mount point (e.g. /lfs1) and the directory",
                .noEntry)
        case .readOnlyFilesystem: .init("READ_ONLY_FILESYSTEM", "the file system is mounted read-only", .unknown)
        case .fileEmpty: .init("FILE_EMPTY", "the file is empty, so there is nothing to hash", .unknown)
        case .fileCloseFailed: .init("FILE_CLOSE_FAILED", "closing the file failed on the device", .unknown)
        }
    }
}

extension SMPGroupError {
    /// The error a device reports for `code`, e.g. `.fs(.fileNotFound)`; also a pattern that matches it
    /// (`case .groupError(.fs(.fileNotFound))`).
    public static func fs(_ code: FileSystemGroupError) -> SMPGroupError { SMPGroupError(code) }
}
