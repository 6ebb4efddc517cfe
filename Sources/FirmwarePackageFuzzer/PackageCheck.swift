import FoundationEssentials
import FuzzingSupport
import SMPFirmware

/// The properties every input is checked against, shared by the libFuzzer entry point and the
/// replay driver. A violation stops the process, which libFuzzer reports as a crash with the
/// input saved.
///
/// For any bytes given as a firmware package file (the seeds are NCS-like `dfu_application.zip`
/// and `dfu_suit.zip` archives, read in memory as `smpctl` reads them):
/// - the reader neither crashes nor hangs nor exceeds its limits (libFuzzer's RSS limit catches a
///   bomb that is decompressed beyond them), and a rejected file gets a message;
/// - an accepted archive keeps to its manifest: one package file per manifest entry, each named
///   safely (relative, no `..`, no backslash), within the entry and total size limits; an MCUboot
///   package's images all carry the MCUboot magic and no (image, slot) twice, its DirectXIP pairs
///   are its own slot-0 and slot-1 images; a SUIT package has one envelope, decoded;
/// - the limits hold exactly: the same archive with a total limit one byte below what its files
///   hold is refused as too large;
/// - reading is deterministic.
///
/// The Nordic DFU readers are checked on the same input (``NordicPackageCheck``).
enum PackageCheck {
    /// The limits of the run: small, so that a bomb is refused quickly, and far below the RSS limit.
    static let limits = PackageLimits(
        maximumFileSize: 1 << 20, maximumEntrySize: 256 << 10, maximumTotalSize: 512 << 10, maximumEntryCount: 64)

    /// Checks one input; traps on a violated property.
    static func run(_ input: [UInt8]) {
        NordicPackageCheck.run(input, limits: limits)
        let data = Data(input)
        let package: FirmwarePackage
        do {
            package = try FirmwarePackage(data: data, name: "fuzz.zip", limits: limits)
        } catch {
            fuzzRequire(!error.description.isEmpty, "a rejected package has an empty message")
            return
        }
        fuzzRequire((try? FirmwarePackage(data: data, name: "fuzz.zip", limits: limits)) == package, "a second read differs")
        switch package.kind {
        case .mcubootImage, .suitEnvelope:
            fuzzRequire(package.manifest == nil && package.images.count == 1, "a single file with a manifest")
        case .mcubootPackage:
            checkArchive(package, data)
            checkMCUbootPackage(package)
        case .suitPackage:
            checkArchive(package, data)
            checkSUITPackage(package)
        }
    }

    private static func checkArchive(_ package: FirmwarePackage, _ data: Data) {
        guard let manifest = package.manifest else { fatalError("a \(package.kind) without a manifest") }
        let files = package.images + package.resources
        fuzzRequire(files.count == manifest.files.count, "\(files.count) files for \(manifest.files.count) manifest entries")
        var total = 0
        for file in files {
            fuzzRequire(isSafe(file.fileName), "unsafe name \(file.fileName.debugDescription) accepted")
            fuzzRequire(manifest.files.contains { $0.file == file.fileName }, "\(file.fileName) is not in the manifest")
            fuzzRequire(file.bytes.count <= limits.maximumEntrySize, "a \(file.bytes.count)-byte entry passed the limit")
            total += file.bytes.count
        }
        fuzzRequire(total <= limits.maximumTotalSize, "\(total) bytes passed the total limit")
        var tighter = limits
        tighter.maximumTotalSize = total - 1
        do {
            _ = try FirmwarePackage(data: data, name: "fuzz.zip", limits: tighter)
            fatalError("\(total) bytes read under a total limit of \(total - 1)")
        } catch {
            fuzzRequire(error == .archiveTooLarge(limit: total - 1), "a total limit of \(total - 1) gave \(error)")
        }
    }

    private static func checkMCUbootPackage(_ package: FirmwarePackage) {
        var seen = Set<String>()
        for image in package.images {
            fuzzRequire(image.bytes.starts(with: FirmwarePackage.mcubootMagic), "\(image.fileName) lacks the MCUboot magic")
            fuzzRequire(seen.insert("\(image.image)/\(image.slot.map(String.init) ?? "-")").inserted, "image \(image.image) twice")
            fuzzRequire(image.image >= 0 && image.slot.map { (0...1).contains($0) } ?? true, "image \(image.image) slot \(String(describing: image.slot))")
        }
        fuzzRequire(package.resources.isEmpty && package.suitEnvelope == nil, "SUIT parts in an MCUboot package")
        for pair in package.directXIPPairs {
            fuzzRequire(pair.slot0.slot == 0 && pair.slot1.slot == 1, "a DirectXIP pair with slots \(String(describing: pair.slot0.slot))/\(String(describing: pair.slot1.slot))")
            fuzzRequire(pair.slot0.image == pair.image && pair.slot1.image == pair.image, "a DirectXIP pair of two images")
            fuzzRequire(package.images.contains(pair.slot0) && package.images.contains(pair.slot1), "a DirectXIP pair from elsewhere")
        }
    }

    private static func checkSUITPackage(_ package: FirmwarePackage) {
        guard let envelope = package.suitEnvelope else { fatalError("a SUIT package without an envelope") }
        let envelopes = package.images.filter { $0.target == .suitEnvelope }
        fuzzRequire(envelopes.count == 1, "\(envelopes.count) envelopes sent")
        fuzzRequire(envelopes.first?.bytes == envelope.bytes, "the envelope sent is not the one decoded")
        for image in package.images {
            switch image.target {
            case .suitEnvelope, .suitCache: break
            default: fatalError("a \(image.target) file is sent in a SUIT package")
            }
        }
    }

    /// Relative, no `..` component, no backslash or NUL.
    private static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.contains("\\") && !name.contains("\0")
            && !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }
}
