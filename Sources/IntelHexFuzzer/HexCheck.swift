import FoundationEssentials
import FuzzingSupport
import SMPFirmware

/// The properties every input is checked against, shared by the libFuzzer entry point and the
/// replay driver. A violation stops the process, which libFuzzer reports as a crash with the
/// input saved.
///
/// For any bytes given as an Intel HEX file:
/// - the reader neither crashes nor hangs, and a refused file gets a message naming a line
///   within the file;
/// - what it accepts is sound: non-empty segments by increasing address, separated by gaps,
///   within 4 GiB, adding up to at most the limit;
/// - writing the segments out again (``IntelHex/text(segments:startAddress:recordSize:lineEnding:)``)
///   and reading that gives the same file back;
/// - CR LF line endings read as LF ones do, error for error;
/// - a limit one byte below the data refuses the file;
/// - ``IntelHexImage`` accepts one segment starting with the MCUboot magic, with its bytes, or a
///   padded image (later segments without the magic, filled between with 0xff), nothing else;
///   the package reader agrees with it.
enum HexCheck {
    static let limit = 1 << 20

    /// Checks one input; traps on a violated property.
    static func run(_ input: [UInt8]) {
        let result = Result { () throws(IntelHexError) in try IntelHex(text: input, maximumDataSize: limit) }
        checkLineEndings(input, result)
        switch result {
        case .failure(let error):
            fuzzRequire(!error.description.isEmpty, "a refused file has an empty message")
            checkLineNumber(error, input)
            checkImage(input, hex: nil)
        case .success(let hex):
            checkSegments(hex)
            checkRewrite(hex)
            checkLimit(input, hex)
            checkImage(input, hex: hex)
        }
    }

    private static func checkSegments(_ hex: IntelHex) {
        var previousEnd: UInt64?
        var total = 0
        for segment in hex.segments {
            fuzzRequire(!segment.bytes.isEmpty, "an empty segment at \(segment.address)")
            let start = UInt64(segment.address)
            if let previousEnd { fuzzRequire(start > previousEnd, "segment at \(start) touches or overlaps the one ending at \(previousEnd)") }
            let end = start + UInt64(segment.bytes.count)
            fuzzRequire(end <= 1 << 32, "a segment ends at \(end), past 4 GiB")
            previousEnd = end
            total += segment.bytes.count
        }
        fuzzRequire(total <= limit, "\(total) bytes accepted with a limit of \(limit)")
    }

    private static func checkRewrite(_ hex: IntelHex) {
        for (size, ending) in [(16, "\n"), (255, "\r\n"), (1, "\n")] where size > 1 || hex.segments.reduce(0, { $0 + $1.bytes.count }) <= 4096 {
            let text = IntelHex.text(segments: hex.segments, startAddress: hex.startAddress, recordSize: size, lineEnding: ending)
            let again = try? IntelHex(text: text, maximumDataSize: limit)
            fuzzRequire(again?.segments == hex.segments, "the rewritten file (\(size)-byte records) reads differently")
            fuzzRequire(again?.startAddress == hex.startAddress, "the rewritten file loses the start address")
        }
    }

    private static func checkLineEndings(_ input: [UInt8], _ result: Result<IntelHex, IntelHexError>) {
        guard !input.contains(0x0D) else { return }
        let crlf = input.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
        let again = Result { () throws(IntelHexError) in try IntelHex(text: crlf, maximumDataSize: limit) }
        switch (result, again) {
        case let (.success(lf), .success(crlfHex)):
            fuzzRequire(lf == crlfHex, "CR LF reads differently")
        case let (.failure(lf), .failure(crlfError)):
            fuzzRequire(lf == crlfError, "CR LF gives another error: \(crlfError) instead of \(lf)")
        default:
            fuzzRequire(false, "CR LF changes whether the file is accepted")
        }
    }

    private static func checkLineNumber(_ error: IntelHexError, _ input: [UInt8]) {
        let lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).count
        let line: Int?
        switch error {
        case .missingColon(let number), .notHexDigit(let number, _, _), .recordTooShort(let number, _),
            .lengthMismatch(let number, _, _, _), .checksumMismatch(let number, _, _), .unsupportedRecordType(let number, _),
            .malformedRecord(let number, _, _), .duplicateStartAddress(let number, _), .dataAfterEndOfFile(let number, _),
            .addressBeyond4GiB(let number, _, _), .overlap(let number, _, _), .tooMuchData(let number, _):
            line = number
        case .missingEndOfFile, .noData, .severalRanges, .notAnMCUbootImage, .paddedImageTooLarge:
            line = nil
        }
        if let line { fuzzRequire((1...max(1, lines)).contains(line), "error on line \(line) of a \(lines)-line file: \(error)") }
    }

    /// A padded image holds every segment at its place and 0xff between them.
    private static func checkPadded(_ image: IntelHexImage, _ hex: IntelHex) {
        var expected: [UInt8] = []
        for segment in hex.segments {
            let offset = Int(segment.address - image.baseAddress)
            fuzzRequire(offset >= expected.count, "segments out of order in a padded image")
            expected += [UInt8](repeating: 0xFF, count: offset - expected.count) + segment.bytes
        }
        fuzzRequire(image.bytes == expected, "the padded image is not the segments with 0xff between them")
    }

    private static func checkLimit(_ input: [UInt8], _ hex: IntelHex) {
        let total = hex.segments.reduce(0) { $0 + $1.bytes.count }
        guard total > 0 else { return }
        do {
            _ = try IntelHex(text: input, maximumDataSize: total - 1)
            fuzzRequire(false, "\(total) bytes accepted with a limit of \(total - 1)")
        } catch {
            guard case .tooMuchData = error else { fuzzRequire(false, "a tighter limit gives \(error)"); return }
        }
    }

    private static func checkImage(_ input: [UInt8], hex: IntelHex?) {
        let image = try? IntelHexImage(text: input, maximumSize: limit)
        if let hex, let segment = hex.segments.first, segment.bytes.starts(with: FirmwarePackage.mcubootMagic),
           hex.segments.count == 1 || !hex.segments.dropFirst().contains(where: { $0.bytes.starts(with: FirmwarePackage.mcubootMagic) }) {
            if hex.segments.count == 1 {
                fuzzRequire(image?.bytes == segment.bytes && image?.baseAddress == segment.address, "IntelHexImage differs from the one segment")
            } else if let image {
                checkPadded(image, hex)
            }
        } else {
            fuzzRequire(image == nil, "IntelHexImage accepts a file that is not one MCUboot image, padded or not")
        }
        guard IntelHex.looksLikeIntelHex(input) else { return }
        do {
            let package = try FirmwarePackage(data: Data(input), name: "fuzz.hex", limits: PackageLimits(maximumEntrySize: limit))
            fuzzRequire(package.images.first?.bytes == image?.bytes && package.kind == .mcubootImage, "the package reader differs")
            fuzzRequire(package.images.first?.loadAddress == image.map { UInt64($0.baseAddress) }, "the package loses the hex address")
        } catch {
            guard case .intelHex = error else { fuzzRequire(false, "the package reader gives \(error) for a .hex"); return }
            fuzzRequire(image == nil, "the package reader refuses what IntelHexImage accepts")
        }
    }
}
