import CBOR
import SMP

extension FileSystemGroup {
    /// Download (cmd 0, read): the chunk at `off`, with the length captured at open when `off` is 0.
    mutating func download(_ request: SimulatedRequest, context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["off": .unsigned, "name": .text])
        guard let offset = fields.unsigned("off") else { throw .invalidValue }
        let name = try validName(fields)
        if let current = openFile, current.name != name || current.direction != .download { openFile = nil }
        let file = try existingFile(name)
        var open = openFile
            ?? SimulatedOpenFile(name: name, direction: .download, offset: 0, length: UInt64(file.count), lastUsed: context.uptime)
        let length = open.length ?? UInt64(file.count)
        guard offset <= UInt64(file.count) else {
            openFile = nil
            throw .groupError(FileSystemGroupError.fileSeekFailed)
        }
        let chunk = configuration.chunkSize(bufferSize: context.configuration.bufferSize)
        let end = min(UInt64(file.count), length, offset + UInt64(chunk))
        let data = offset < end ? Array(file[Int(offset)..<Int(end)]) : []
        open.lastUsed = context.uptime
        openFile = end >= length ? nil : open
        var response: CBORMap = ["off": .unsigned(offset), "data": .bytes(data)]
        if offset == 0 { response["len"] = .unsigned(length) }
        return response
    }

    /// Upload (cmd 0, write), as Zephyr's fs_mgmt does it: the file stays open between requests
    /// (``openFile``). Another file, or a download, closes what was open; opening never truncates.
    /// Offset 0 needs `len` and truncates a file whose committed size is not 0 — but keeps the open
    /// file's offset counting, so that a new upload at 0 of a file still open from an interrupted
    /// one is answered with the stale offset plus the chunk. A later offset must be the expected
    /// one (the open file's, else the file's committed size), or the file is closed and the answer
    /// is `FILE_OFFSET_NOT_VALID` with `len`. Reaching the announced length closes the file (a
    /// length of 0 never does).
    mutating func upload(_ request: SimulatedRequest, context: SimulatedDeviceContext) throws(SimulatedError) -> CBORMap {
        let fields = try request.fields(["off": .unsigned, "name": .text, "data": .bytes, "len": .unsigned])
        guard let offset = fields.unsigned("off"), offset != 0 || fields.unsigned("len") != nil else { throw .invalidValue }
        var data = fields.bytes("data") ?? []
        if corruptionsLeft > 0, !data.isEmpty {
            corruptionsLeft -= 1
            data[0] ^= 0x01
        }
        // Zephyr's answers for paths it cannot open for writing (FileSystemGroup+Paths.swift).
        let name = try uploadPath(try validName(fields))
        var open: SimulatedOpenFile
        if let current = openFile, current.name == name, current.direction == .upload {
            open = current
        } else {
            openFile = nil
            if fileSystem.files[name] == nil { _ = fileSystem.write([], at: 0, to: name) }
            open = SimulatedOpenFile(
                name: name, direction: .upload, offset: 0, length: nil, lastUsed: context.uptime, committed: fileSystem.files[name] ?? [])
        }
        let committedSize = UInt64(open.committed?.count ?? 0)
        if offset == 0 {
            open.length = fields.unsigned("len")
        } else if open.offset == 0 {
            open.offset = committedSize
        }
        guard offset == 0 || offset == open.offset else {
            openFile = nil
            throw .groupError(FileSystemGroupError.fileOffsetNotValid, fields: ["len": .unsigned(open.offset)])
        }
        if !data.isEmpty {
            if offset == 0 && committedSize != 0 {
                fileSystem.truncate(name)
                open.position = 0
            } else if open.position != offset {
                open.position = UInt64(fileSystem.files[name]?.count ?? 0)
            }
            guard fileSystem.write(data, at: Int(open.position), to: name, held: open.committed?.count ?? 0) else {
                openFile = nil
                throw .groupError(FileSystemGroupError.fileWriteFailed)
            }
            open.position += UInt64(data.count)
            open.offset += UInt64(data.count)
        }
        open.lastUsed = context.uptime
        openFile = open.length.map { $0 > 0 && open.offset >= $0 } == true ? nil : open
        return ["off": .unsigned(open.offset)]
    }

    /// The file `name` as status, hash and downloads see it: while an upload holds it open, what
    /// was committed before (LittleFS shows an open file's writes only once it is closed).
    func visibleContent(_ name: String) -> [UInt8]? {
        if let open = openFile, open.name == name, open.direction == .upload, let committed = open.committed { return committed }
        return fileSystem.files[name]
    }
}
