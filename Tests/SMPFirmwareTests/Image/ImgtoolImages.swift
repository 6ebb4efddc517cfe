import Foundation
import SMPTestSupport
import XCTest

/// Real MCUboot images made by imgtool with `Tests/Scripts/image/make_images.py`, once per test run,
/// and the script's manifest of what each should contain.
struct ImgtoolImages: Decodable, Sendable {
    /// One image and what imgtool and Python say about it.
    struct Entry: Decodable, Sendable {
        var name: String
        var file: String
        var version: String
        var flags: [String]
        var flagsValue: UInt32
        var headerSize: Int
        var imageSize: Int
        var protectedTLVSize: Int
        var loadAddress: UInt32
        var totalSize: Int
        var fileSize: Int
        var hashAlgorithm: String
        var hash: String
        var sha256: String?
        var signature: String?
        var keyTLV: String?
        var dumpinfo: DumpInfo
        /// The same image signed again as Intel HEX, for the deterministic cases; nil otherwise.
        var hexFile: String?
        /// The address the `.hex` places the image at.
        var hexAddress: UInt32?

        /// The file's bytes.
        func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) }
    }

    /// `imgtool dumpinfo -f json` (snake_case keys decoded as camelCase).
    struct DumpInfo: Decodable, Sendable {
        struct Header: Decodable, Sendable {
            var magic: UInt32
            var loadAddr: UInt32
            var hdrSize: Int
            var protectedTlvSize: Int
            var imgSize: Int
            var flags: UInt32
            var version: String
        }

        struct TLV: Decodable, Sendable {
            var type: UInt16
            var len: Int
            var data: String
        }

        /// An area's info header; dumpinfo writes `{}` for a missing protected area.
        struct AreaHeader: Decodable, Sendable {
            var magic: UInt16?
            var tlvTot: Int?
        }

        struct Areas: Decodable, Sendable {
            var tlvHdrProt: AreaHeader?
            var tlvsProt: [TLV]?
            var tlvHdr: AreaHeader
            var tlvs: [TLV]
        }

        var header: Header
        var tlvArea: Areas
    }

    var imgtool: String
    var images: [Entry]

    /// The image named `name`.
    func image(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Entry {
        try XCTUnwrap(images.first { $0.name == name }, "make_images.py made no \(name)", file: file, line: line)
    }

    /// The images (skips locally without imgtool, fails in CI).
    static func load() throws -> ImgtoolImages {
        try ExternalTool.requirePythonModules(["imgtool"])
        return try made.get()
    }

    private static let made = Result { () throws -> ImgtoolImages in
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ImgtoolImages.self, from: ImgtoolImageSet.make())
    }
}
