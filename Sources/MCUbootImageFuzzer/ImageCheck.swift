import Crypto
import FoundationEssentials
import FuzzingSupport
import SMPFirmware

/// The properties every input is checked against, shared by the libFuzzer entry point and the
/// replay driver. A violation stops the process, which libFuzzer reports as a crash with the
/// input saved.
///
/// For any bytes given as an MCUboot image file:
/// - the parser neither crashes nor hangs, and a rejected file gets a message;
/// - everything a parsed image reports lies within the file: the body after the header, the
///   protected area right after the body with the size the header declares, the unprotected area
///   right after that, every TLV inside its area, the trailer after the image;
/// - every hash check holds the digest recomputed here over header, body and protected area, its
///   status says whether it equals the TLV, and `verifyHash()` fails exactly on a mismatch;
/// - padding does not matter: the image cut to its `totalSize` parses to the same image, only
///   without a trailer;
/// - the package reader sees the same file as one MCUboot image with the header's version.
enum ImageCheck {
    /// Checks one input; traps on a violated property.
    static func run(_ input: [UInt8]) {
        let image: MCUbootImage
        do {
            image = try MCUbootImage(bytes: input)
        } catch {
            fuzzRequire(!error.description.isEmpty, "a rejected image has an empty message")
            checkPackageReader(input, image: nil)
            return
        }
        checkLayout(image, input)
        checkHashes(image, input)
        checkPaddingIgnored(image, input)
        checkPackageReader(input, image: image)
    }

    private static func checkLayout(_ image: MCUbootImage, _ input: [UInt8]) {
        let header = image.header
        fuzzRequire(image.fileSize == input.count, "fileSize \(image.fileSize) for \(input.count) bytes")
        fuzzRequire(header.headerSize >= MCUbootImageHeader.size, "header size \(header.headerSize) accepted")
        let bodyEnd = header.headerSize + header.imageSize
        fuzzRequire(bodyEnd <= input.count, "the body ends at \(bodyEnd), past the \(input.count)-byte file")
        var hashedEnd = bodyEnd
        if let area = image.protectedArea {
            fuzzRequire(header.protectedTLVSize != 0, "a protected area although ih_protect_tlv_size is 0")
            fuzzRequire(area.offset == bodyEnd, "the protected area at \(area.offset), the body ends at \(bodyEnd)")
            fuzzRequire(area.totalSize == header.protectedTLVSize, "protected area size \(area.totalSize) ≠ \(header.protectedTLVSize)")
            checkArea(area, input)
            hashedEnd += area.totalSize
        } else {
            fuzzRequire(header.protectedTLVSize == 0, "ih_protect_tlv_size \(header.protectedTLVSize) but no protected area")
        }
        let unprotected = image.unprotectedArea
        fuzzRequire(unprotected.offset == hashedEnd, "the unprotected area at \(unprotected.offset), expected \(hashedEnd)")
        checkArea(unprotected, input)
        fuzzRequire(image.totalSize == hashedEnd + unprotected.totalSize, "totalSize \(image.totalSize)")
        fuzzRequire(image.totalSize <= input.count, "totalSize \(image.totalSize) > file size \(input.count)")
        fuzzRequire(image.tlvs.count == (image.protectedArea?.entries.count ?? 0) + unprotected.entries.count, "tlvs count")
        if let trailer = image.trailer {
            fuzzRequire(trailer.magicOffset == input.count - 16, "trailer magic at \(trailer.magicOffset)")
            fuzzRequire(trailer.magicOffset >= image.totalSize, "the trailer overlaps the image")
            fuzzRequire(trailer.maxAlign > 0, "trailer alignment \(trailer.maxAlign)")
        }
        for signature in image.signatures {
            fuzzRequire(unprotected.entries.contains { $0.offset == signature.offset && $0.value == signature.value }, "a signature not in the area")
        }
    }

    private static func checkArea(_ area: MCUbootTLVArea, _ input: [UInt8]) {
        let end = area.offset + area.totalSize
        fuzzRequire(area.totalSize >= 4 && end <= input.count, "\(area.kind) area \(area.offset)+\(area.totalSize) outside the file")
        fuzzRequire(Int(input[area.offset]) | Int(input[area.offset + 1]) << 8 == Int(area.kind.magic), "\(area.kind) area magic")
        var position = area.offset + 4
        for entry in area.entries {
            fuzzRequire(entry.offset == position, "a TLV at \(entry.offset), expected \(position)")
            let valueStart = entry.offset + 4
            fuzzRequire(valueStart + entry.value.count <= end, "a TLV at \(entry.offset) runs past its area")
            fuzzRequire(Array(input[valueStart..<(valueStart + entry.value.count)]) == entry.value, "a TLV value differs from the file")
            position = valueStart + entry.value.count
        }
        fuzzRequire(position == end, "the \(area.kind) area's entries end at \(position), the area at \(end)")
    }

    private static func checkHashes(_ image: MCUbootImage, _ input: [UInt8]) {
        let hashed = input[..<(image.unprotectedArea.offset)]
        var mismatch = false
        for check in image.hashChecks {
            let digest: [UInt8]
            switch check.algorithm {
            case .sha256: digest = Array(SHA256.hash(data: hashed))
            case .sha384: digest = Array(SHA384.hash(data: hashed))
            case .sha512: digest = Array(SHA512.hash(data: hashed))
            }
            fuzzRequire(check.computed == digest, "the \(check.algorithm) recomputed differs")
            fuzzRequire(check.expected.count == check.algorithm.digestSize, "a \(check.expected.count)-byte \(check.algorithm) TLV")
            switch check.status {
            case .valid: fuzzRequire(check.expected == digest, "a mismatching \(check.algorithm) called valid")
            case .mismatch:
                fuzzRequire(check.expected != digest, "a matching \(check.algorithm) called a mismatch")
                mismatch = true
            case .encrypted: fuzzRequire(image.header.flags.isEncrypted, "encrypted status without the flag")
            }
        }
        let verified = (try? image.verifyHash()) != nil
        fuzzRequire(verified == !mismatch, "verifyHash() \(verified ? "passes" : "fails") with mismatch \(mismatch)")
        if let hash = image.imageHash {
            fuzzRequire(hash.count == 32 && image.imageHashHex?.count == 64, "image hash of \(hash.count) bytes")
        }
    }

    private static func checkPaddingIgnored(_ image: MCUbootImage, _ input: [UInt8]) {
        guard image.totalSize < input.count else { return }
        do {
            let cut = try MCUbootImage(bytes: Array(input[..<image.totalSize]))
            fuzzRequire(cut.trailer == nil, "a trailer in an image without padding")
            var expected = image
            expected.trailer = nil
            expected.fileSize = image.totalSize
            fuzzRequire(cut == expected, "cutting the padding changed the image")
        } catch {
            fatalError("the image cut to its \(image.totalSize) bytes does not parse: \(error)")
        }
    }

    private static func checkPackageReader(_ input: [UInt8], image: MCUbootImage?) {
        guard let package = try? FirmwarePackage(data: Data(input), name: "fuzz.bin") else {
            fuzzRequire(image == nil, "the package reader refuses a valid image")
            return
        }
        guard input.starts(with: FirmwarePackage.mcubootMagic) else { return }
        fuzzRequire(package.kind == .mcubootImage && package.images.count == 1, "an image read as \(package.kind)")
        fuzzRequire(package.images.first?.bytes == input, "the package holds other bytes")
        if let image {
            fuzzRequire(package.images.first?.mcubootVersion == image.header.version.description, "the package's version differs")
        }
    }
}
