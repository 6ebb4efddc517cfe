/// One upload of an upgrade, as its progress is shown: what is sent, a label for a progress bar,
/// and the members that name it in each JSON progress line.
public struct UpgradeUpload: Sendable {
    /// The file name of what is sent.
    public var fileName: String
    /// Its size in bytes.
    public var size: Int
    /// A short label for a progress bar (`image 1/2`, `app.bin`; empty: none).
    public var label: String
    /// The members that name the upload in a JSON progress line (`image`, `file`).
    public var fields: [UpgradeField]

    /// Creates an upload's description.
    public init(fileName: String, size: Int, label: String, fields: [UpgradeField]) {
        self.fileName = fileName
        self.size = size
        self.label = label
        self.fields = fields
    }
}
