extension FileSystemUpload {
    /// `result`, with ``Result/emptyFileConfirmed`` set when `source` is empty.
    func finished(_ result: Result, _ source: some UploadSource) async throws -> Result {
        guard source.count == 0 else { return result }
        var result = result
        result.emptyFileConfirmed = try await confirmEmpty()
        return result
    }

    /// After an empty file was put: whether the remote file is empty now. Zephyr's fs_mgmt cuts a
    /// file only when the first chunk carries data, so an empty upload leaves the old content in
    /// place (and it has no delete command).
    ///
    /// Throws ``TransferVerificationError/notEmptied(path:size:)`` when the file still holds bytes;
    /// returns false when the device did not report the size (whether it is empty is not
    /// known), true when it reported 0 bytes. Only a lost link or an interruption throws otherwise.
    func confirmEmpty() async throws -> Bool {
        switch try await RemotePathState.query(client, path: name) {
        case .file(let size) where size > 0:
            throw TransferVerificationError.notEmptied(path: name, size: size)
        case .file:
            return true
        case .directory, .missing, .unknown:
            return false
        }
    }
}
