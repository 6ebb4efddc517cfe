import Foundation
import SMPTestSupport

/// `packages.json` of ``NordicDFUPackageSet``: what the independent encoder put in each package.
struct GeneratedNordicPackages: Decodable {
    /// One image as the script describes it.
    struct Image: Decodable {
        var type: Int
        var binFile: String
        var datFile: String
        var size: Int
        var sha256: String
        var sdReq: [UInt32]
        var initPacket: String
        /// Secure DFU only.
        var fwVersion: UInt32?
        var hwVersion: UInt32?
        var isDebug: Bool?
        var signed: Bool?
        var initCommand: String?
        /// Legacy DFU only.
        var crc16: UInt16?
        var appVersion: UInt32?
    }

    /// One package.
    struct Package: Decodable {
        var kind: String
        var dfuVersion: String?
        var images: [Image]
    }

    /// The folder the packages are in.
    let folder: URL
    /// The packages by file name.
    let packages: [String: Package]

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs (or reuses) the script and reads its description.
    static func load() throws -> GeneratedNordicPackages {
        let folder = try NordicDFUPackageSet.folder()
        let data = try Data(contentsOf: folder.appendingPathComponent("packages.json"))
        return GeneratedNordicPackages(folder: folder, packages: try JSONDecoder().decode([String: Package].self, from: data))
    }

    private init(folder: URL, packages: [String: Package]) {
        self.folder = folder
        self.packages = packages
    }

    /// Lower-case hex to bytes (the script writes only valid hex).
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), let byte = UInt8(hex[index..<next], radix: 16) {
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
