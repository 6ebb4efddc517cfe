import CBOR
import SMP

extension ImageGroup {
    /// Upload (cmd 1) to the image's inactive slot (none where the application of a firmware-loader
    /// device answers: `NO_FREE_SLOT`): first chunk inspection in Zephyr's order,
    /// resume by `sha`, the image check (a slot that already holds the file answers at once),
    /// wrong offsets answered with the expected one, `match` on the last chunk (docs/protocol/images.md §4.3). Erases
    /// and writes cost device time as ``SimulatedImageConfiguration/flashTiming`` says. With a
    /// ``SimulatedImageConfiguration/writeAlignment`` above 1 a chunk is stored only in whole
    /// units, as MCUboot's serial recovery does: the answer's offset then falls short of the
    /// chunk's end. Any error abandons the upload.
    mutating func receiveChunk(
        _ request: SimulatedRequest, context: inout SimulatedDeviceContext
    ) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields([
            "image": .unsigned, "len": .unsigned, "off": .unsigned, "sha": .bytes, "data": .bytes, "upgrade": .bool,
        ])
        do {
            return try write(fields, context: &context)
        } catch {
            upload = nil
            throw error
        }
    }

    private mutating func write(_ fields: SimulatedFields, context: inout SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        guard let offset = fields.unsigned("off") else { throw .groupError(ImageGroupError.invalidOffset) }
        let data = fields.bytes("data") ?? []
        if offset == 0 {
            if let answer = try start(fields, data: data, mode: context.configuration.bootloaderMode) { return answer }
            context.spend(configuration.flashTiming.eraseTime(bytes: upload?.length ?? 0))
        } else {
            guard var current = upload, offset == UInt64(current.offset) else { return ["off": .integer(upload?.offset ?? 0)] }
            guard current.offset + data.count <= current.length else { throw .groupError(ImageGroupError.invalidImageDataOverrun) }
            let kept = storedLength(of: data.count, at: current.offset, total: current.length)
            images[current.image].slots[current.slot] += data.prefix(kept)
            current.offset += kept
            upload = current
        }
        context.spend(configuration.flashTiming.writeTime(bytes: data.count))
        return finishChunk()
    }

    /// How far the upload has come: the received fraction of the one in progress, 1 once the
    /// `completed`-th upload has finished, nil when neither.
    func uploadProgress(completedBefore completed: Int) -> Double? {
        if let upload, upload.length > 0 { return Double(upload.offset) / Double(upload.length) }
        return completedUploads > completed ? 1 : nil
    }

    /// Inspects a first chunk and starts the upload with it; returns the answer instead when
    /// nothing is to be written: `sha` matches the upload in progress (resume), or the target
    /// slot already holds the file (image check).
    private mutating func start(_ fields: SimulatedFields, data: [UInt8], mode: MCUbootMode) throws(SimulatedError) -> CBORMap? {
        if rejectsUploads { throw .groupError(ImageGroupError.invalidImageHeaderMagic) }
        guard data.count >= 32 else { throw .groupError(ImageGroupError.invalidImageHeader) }
        guard let length = fields.unsigned("len") else { throw .groupError(ImageGroupError.invalidLength) }
        guard let header = SimulatedImageHeader(data) else { throw .groupError(ImageGroupError.invalidImageHeaderMagic) }
        let sha = fields.bytes("sha")
        if let sha, sha.count > 32 { throw .groupError(ImageGroupError.invalidHash) }
        if let sha, !sha.isEmpty, let current = upload, current.sha == sha { return ["off": .integer(current.offset)] }
        guard let image = Int(exactly: fields.unsigned("image") ?? 0), images.indices.contains(image),
              !images[image].isReverting, !refusesWrites(image: image, mode: mode)
        else { throw .groupError(ImageGroupError.noFreeSlot) }
        let slot = images[image].inactive
        guard length <= UInt64(configuration.slotSize) else { throw .groupError(ImageGroupError.invalidImageTooLarge) }
        guard data.count <= Int(length) else { throw .groupError(ImageGroupError.invalidImageDataOverrun) }
        if mode.isDirectXIP, header.romFixed, UInt64(header.loadAddress) != configuration.slotAddress(image: image, slot: slot) {
            throw .groupError(ImageGroupError.invalidFlashAddress)
        }
        if fields.bool("upgrade") == true, let running = images[image].header(slot: images[image].active),
           header.comparableVersion <= running.comparableVersion {
            throw .groupError(ImageGroupError.currentVersionIsNewer)
        }
        upload = nil
        if let sha, sha.count == 32, images[image].slots[slot].count == Int(length),
           SHA256Hash.digest(images[image].slots[slot]) == sha {
            return ["off": .integer(Int(length)), "match": true]
        }
        let kept = storedLength(of: data.count, at: 0, total: Int(length))
        images[image].slots[slot] = Array(data.prefix(kept))
        images[image].next = .none
        upload = SimulatedUpload(image: image, slot: slot, length: Int(length), sha: sha, offset: kept)
        return nil
    }

    /// How much of `count` bytes at `offset` is stored: whole write units only, unless the chunk
    /// ends the image.
    private func storedLength(of count: Int, at offset: Int, total: Int) -> Int {
        let unit = configuration.writeAlignment
        guard unit > 1, offset + count < total else { return count }
        return (offset + count) / unit * unit - offset
    }

    /// The answer to a written chunk; the last one ends the upload and carries `match` when a
    /// full `sha` was given.
    private mutating func finishChunk() -> CBORMap {
        guard let current = upload else { return ["off": 0] }
        var answer: CBORMap = ["off": .integer(current.offset)]
        if current.offset == current.length {
            if let sha = current.sha, sha.count == 32 {
                answer["match"] = .bool(SHA256Hash.digest(images[current.image].slots[current.slot]) == sha)
            }
            upload = nil
            completedUploads += 1
        }
        return answer
    }
}
