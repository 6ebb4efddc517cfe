/// An image upload (docs/protocol/images.md §4.3) that ends verified wherever the device checks uploads, and restarts
/// only when told to or when the check fails.
///
/// Zephyr's img_mgmt keeps one upload in RAM (lost at a reset, cleared when it completes, fails,
/// or the slot is erased): a first chunk whose `sha` equals that upload's is answered with its
/// offset (a resume, nothing written); any other first chunk starts a new upload. With
/// `CONFIG_IMG_ENABLE_IMAGE_CHECK` the device hashes the slot after the last chunk and answers
/// `match` (docs/upgrade.md). A `match: false` makes the upload start again once from offset 0
/// (a first chunk without `sha` clears the device's state), then it fails with
/// ``TransferVerificationError/imageMismatch(attempts:)``.
///
/// MCUboot's serial recovery keeps no upload state: every upload it takes starts at offset 0,
/// and the first chunk overwrites the primary slot (``interruptedRecoveryUpload``).
public struct ImageUpload: Sendable {
    /// What an upload that MCUboot's serial recovery took leaves when it is cut short, for people.
    public static let interruptedRecoveryUpload =
        "MCUboot's serial recovery does not resume an upload: the primary slot is now incomplete and holds no application to boot, "
        + "so do not reset the device; run the same command to write the image again from the start"

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
    ///
    /// `imageHash` (the image's SHA-256 TLV) adds a check where the device answers no `match`:
    /// MCUboot's serial recovery lists only images that validate, so after the upload slot 0 of
    /// the image must be listed with that hash; if not, the upload is done once more from offset 0
    /// (a raw UART link carries no checksum), then it fails with
    /// ``TransferVerificationError/recoveryRefused(attempts:)``.
    public func upload(
        from source: some UploadSource, sha: [UInt8], imageHash: [UInt8]? = nil, progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Result {
        var options = options
        var attempt = 0
        while true {
            attempt += 1
            let failure: TransferVerificationError
            do {
                let uploader = ChunkedUploader(client: client, target: target, options: options)
                let result = Result(upload: try await uploader.upload(from: source, sha: sha, progress: progress), attempts: attempt)
                guard result.upload.match == nil, let imageHash, try await !recoveryHolds(imageHash) else { return result }
                failure = .recoveryRefused(attempts: attempt)
            } catch ChunkedUploadError.hashMismatch {
                failure = .imageMismatch(attempts: attempt)
            }
            guard attempt < 2 else { throw failure }
            options.restart = true
        }
    }

    /// False when MCUboot's serial recovery answers and does not list the image with `imageHash`
    /// in slot 0 (it lists only images that validate; an empty list means nothing validates, as an
    /// application always lists the image it runs); true otherwise, including devices that list
    /// no hashes.
    private func recoveryHolds(_ imageHash: [UInt8]) async throws -> Bool {
        let images: [ImageSlotState]
        do {
            images = try await client.send(ImageState()).images
        } catch {
            if SMPClient.isNotSupported(error) { return true }
            throw error
        }
        let recovery = images.isEmpty || ServerRecognition.decide(ServerRecognition.Observations(images: images))?.isSerialRecovery == true
        guard recovery else { return true }
        guard let slot = images.first(where: { $0.image == (target.image ?? 0) && $0.slot == 0 }) else { return false }
        return slot.hash.map { $0 == imageHash } ?? true
    }
}
