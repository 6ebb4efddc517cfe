/// An image upload (§4.3) that ends verified wherever the device checks uploads, and restarts
/// only when told to or when the check fails.
///
/// Zephyr's img_mgmt keeps one upload in RAM (lost at a reset, cleared when it completes, fails,
/// or the slot is erased): a first chunk whose `sha` equals that upload's is answered with its
/// offset (a resume, nothing written); any other first chunk starts a new upload. With
/// `CONFIG_IMG_ENABLE_IMAGE_CHECK` the device hashes the slot after the last chunk and answers
/// `match` (docs/upgrade.md). A `match: false` makes the upload start again once from offset 0
/// (a first chunk without `sha` clears the device's state), then it fails with
/// ``TransferVerificationError/imageMismatch(attempts:)``.
public struct ImageUpload: Sendable {
    /// What the upload did.
    public struct Result: Sendable, Hashable {
        /// The last upload run.
        public var upload: UploadResult
        /// How many uploads it took (2: the first did not match and was done again from 0).
        public var attempts: Int

        /// Whether the device checked the whole upload against the file's SHA-256 and found it equal.
        public var isVerified: Bool { upload.match == true }
        /// Whether the upload continued a partial one or met answers out of order without a check by
        /// the device: only a hash of the slot could show what it holds.
        public var isUnverifiedResume: Bool { upload.isIrregular && upload.match == nil }
    }

    /// The connection to the device.
    public let client: SMPClient
    /// The image number and upgrade-only flag.
    public let target: ImageUploadTarget
    /// Window, alignment, restart.
    public let options: ChunkedUploadOptions

    /// Creates an upload.
    public init(client: SMPClient, target: ImageUploadTarget, options: ChunkedUploadOptions = ChunkedUploadOptions()) {
        self.client = client
        self.target = target
        self.options = options
    }

    /// Uploads `source` whose SHA-256 is `sha`, calling `progress` after every acknowledged chunk.
    public func upload(from source: some UploadSource, sha: [UInt8], progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) async throws -> Result {
        var options = options
        var attempt = 0
        while true {
            attempt += 1
            do {
                let uploader = ChunkedUploader(client: client, target: target, options: options)
                return Result(upload: try await uploader.upload(from: source, sha: sha, progress: progress), attempts: attempt)
            } catch ChunkedUploadError.hashMismatch {
                guard attempt < 2 else { throw TransferVerificationError.imageMismatch(attempts: attempt) }
                options.restart = true
            }
        }
    }
}
