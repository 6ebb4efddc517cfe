import FoundationEssentials
import FuzzingSupport
import NordicDFU
import SMPFirmware

/// The properties of the Nordic DFU readers, checked on every input alongside ``PackageCheck``
/// (the seeds include nrfutil-like Secure and legacy packages):
/// - an input read as a package is refused with a message or accepted only as an nRF5 SDK
///   package (``NordicDFUPackage/isNordicDFUPackage(_:limits:)`` agrees), whose images are one
///   per manifest entry, in install order, within the limits, each matching its init packet
///   (SHA-256 or CRC-16, sizes), and a second read gives the same package;
/// - the same input read as a Secure DFU init packet and as a legacy one is refused with a
///   message, or accepted with the init command's bytes lying inside the input (what the
///   signature covers is never built anew) and the legacy layout's length accounted for exactly.
enum NordicPackageCheck {
    /// Checks one input; traps on a violated property.
    static func run(_ input: [UInt8], limits: PackageLimits) {
        checkPackage(Data(input), limits: limits)
        checkInitPackets(input)
        if input.count > SecureInitPacket.maximumSize {
            // Past the size limit everything is refused at once: read the first bytes alone too.
            checkInitPackets(Array(input.prefix(SecureInitPacket.maximumSize)))
        }
    }

    private static func checkPackage(_ data: Data, limits: PackageLimits) {
        let package: NordicDFUPackage
        do {
            package = try NordicDFUPackage(data: data, name: "fuzz.zip", limits: limits)
        } catch {
            fuzzRequire(!error.description.isEmpty, "a rejected Nordic package has an empty message")
            return
        }
        fuzzRequire(NordicDFUPackage.isNordicDFUPackage(data, limits: limits), "an accepted Nordic package is not recognised as one")
        fuzzRequire((try? NordicDFUPackage(data: data, name: "fuzz.zip", limits: limits)) == package, "a second read differs")
        guard let manifest = package.manifest else { fatalError("a Nordic package without a manifest") }
        fuzzRequire(package.images.count == manifest.entries.count, "\(package.images.count) images for \(manifest.entries.count) entries")
        fuzzRequire(package.images.map(\.type.installOrder) == package.images.map(\.type.installOrder).sorted(), "images out of install order")
        for image in package.images {
            fuzzRequire(image.firmware.count <= limits.maximumEntrySize, "a \(image.firmware.count)-byte image passed the limit")
            fuzzRequire(image.softDeviceSize + image.bootloaderSize + image.applicationSize == image.firmware.count, "sizes do not add up")
            switch image.initPacket {
            case .secure(let packet):
                fuzzRequire(package.kind == .secure, "a Secure init packet in a \(package.kind) package")
                fuzzRequire(packet.command.hash?.digest == image.sha256, "an image accepted with another hash")
            case .legacy(let packet):
                fuzzRequire(package.kind == .legacy, "a legacy init packet in a \(package.kind) package")
                switch packet.integrity {
                case .crc16(let crc): fuzzRequire(crc == image.crc16, "an image accepted with another CRC")
                case let .sha256(_, digest, _): fuzzRequire(digest == image.sha256, "an image accepted with another hash")
                }
            case .none:
                fatalError("an image of a package without an init packet")
            }
        }
    }

    private static func checkInitPackets(_ bytes: [UInt8]) {
        do {
            let packet = try SecureInitPacket(bytes: bytes)
            fuzzRequire(packet.bytes == bytes, "the packet's bytes differ from the input")
            let command = packet.initCommandBytes
            fuzzRequire(command.isEmpty || bytes.firstRange(of: command) != nil, "the init command's bytes are not part of the input")
            fuzzRequire((try? SecureInitPacket(bytes: bytes)) == packet, "a second decoding differs")
        } catch {
            fuzzRequire(!error.description.isEmpty, "a rejected init packet has an empty message")
        }
        do {
            let packet = try LegacyInitPacket(bytes: bytes)
            var expected = 10 + 2 * packet.softDeviceRequirements.count + (packet.extendedPacketID == nil ? 0 : 4)
            switch packet.integrity {
            case .crc16: expected += 2
            case let .sha256(_, digest, signature): expected += 4 + digest.count + (signature?.count ?? 0)
            }
            fuzzRequire(expected == bytes.count, "a \(bytes.count)-byte legacy init packet decoded as \(expected) bytes")
        } catch {
            fuzzRequire(!error.description.isEmpty, "a rejected legacy init packet has an empty message")
        }
    }
}
