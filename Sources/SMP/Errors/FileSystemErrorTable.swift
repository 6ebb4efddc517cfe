extension SMPErrorTable {
    /// File system group (8), Zephyr `enum fs_mgmt_err_code_t`; v1 translation from `fs_mgmt.c`.
    static let fileSystem = SMPErrorTable(group: 8, prefix: "FS_MGMT_ERR_", title: "file system", entries: [
        .init(0, "OK", "success: the file system group reported no error", .ok),
        .init(1, "UNKNOWN",
              "the file system group reported an unspecified error (Zephyr: also a path that ends in / or goes through "
              + "a file, or an upload to a directory); check the path and the device's log output", .unknown),
        .init(2, "FILE_INVALID_NAME",
              "the file name is empty or too long (MCUMGR_GRP_FS_PATH_LEN); give an absolute path such as "
              + "/lfs1/file.txt", .invalidValue),
        .init(3, "FILE_NOT_FOUND",
              "the file does not exist; check the path, including its mount point (e.g. /lfs1/…)", .noEntry),
        .init(4, "FILE_IS_DIRECTORY", "the path names a directory, not a file", .unknown),
        .init(5, "FILE_OPEN_FAILED",
              "the device could not open the file (missing directory, or too many open files?)", .unknown),
        .init(6, "FILE_SEEK_FAILED",
              "seeking in the file failed; the offset may be past the end of the file", .unknown),
        .init(7, "FILE_READ_FAILED", "reading the file failed on the device", .unknown),
        .init(8, "FILE_TRUNCATE_FAILED",
              "the device could not truncate the existing file before writing it", .unknown),
        .init(9, "FILE_DELETE_FAILED",
              "the device could not delete the existing file before writing it", .unknown),
        .init(10, "FILE_WRITE_FAILED",
              "writing the file failed on the device; the file system may be full", .unknown),
        .init(11, "FILE_OFFSET_NOT_VALID",
              "the upload offset is not the one the device expects; resume at the `len` it returned, or "
              + "restart at offset 0", .unknown),
        .init(12, "FILE_OFFSET_LARGER_THAN_FILE", "the requested offset is past the end of the file", .unknown),
        .init(13, "CHECKSUM_HASH_NOT_FOUND",
              "the device does not support that hash or checksum type; ask it for the supported types "
              + "(usually crc32, sha256)", .invalidValue),
        .init(14, "MOUNT_POINT_NOT_FOUND",
              "no file system is mounted at the path's mount point, or (Zephyr, on upload) the file's directory "
              + "does not exist; check the mount point (e.g. /lfs1) and the directory",
              .noEntry),
        .init(15, "READ_ONLY_FILESYSTEM", "the file system is mounted read-only", .unknown),
        .init(16, "FILE_EMPTY", "the file is empty, so there is nothing to hash", .unknown),
        .init(17, "FILE_CLOSE_FAILED", "closing the file failed on the device", .unknown),
    ])
}
