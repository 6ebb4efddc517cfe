extension MCUbootImageVersion {
    /// Reads a version as devices list it (`1.2.3`, `1.2.3.4`) or as imgtool writes it
    /// (`1.2.3+4`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        let numbers = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard (3...4).contains(numbers.count), !(numbers.count == 4 && parts.count == 2),
              let major = UInt8(numbers[0]), let minor = UInt8(numbers[1]), let revision = UInt16(numbers[2])
        else { return nil }
        let buildText = parts.count == 2 ? parts[1] : (numbers.count == 4 ? numbers[3] : "0")
        guard let build = UInt32(buildText) else { return nil }
        self.init(major: major, minor: minor, revision: revision, build: build)
    }

    /// Whether this version is newer than `other` as MCUboot compares them by default:
    /// major, minor and revision; the build number is ignored.
    public func isNewer(than other: MCUbootImageVersion) -> Bool {
        (major, minor, revision) > (other.major, other.minor, other.revision)
    }
}
