/// The version in an MCUboot image header: `major.minor.revision+build`.
public struct MCUbootImageVersion: Sendable, Hashable, CustomStringConvertible {
    /// `iv_major`.
    public var major: UInt8
    /// `iv_minor`.
    public var minor: UInt8
    /// `iv_revision`.
    public var revision: UInt16
    /// `iv_build_num`.
    public var build: UInt32

    /// A version from its four parts.
    public init(major: UInt8, minor: UInt8, revision: UInt16, build: UInt32) {
        self.major = major
        self.minor = minor
        self.revision = revision
        self.build = build
    }

    /// imgtool's form, `1.2.3+4` (the build always shown, as `imgtool dumpinfo` does).
    public var description: String { "\(major).\(minor).\(revision)+\(build)" }

    /// The form devices report in the image-state list: `1.2.3`, or `1.2.3.4` when the build is not 0.
    public var deviceString: String {
        "\(major).\(minor).\(revision)" + (build == 0 ? "" : ".\(build)")
    }
}
