import SMPSerial

/// The links found in the link folders, read once per discovery and only when some port lacks
/// `DEVLINKS`.
final class LinkFolderIndex {
    private lazy var links: [String] = DeviceLinks.scannedDirectories.flatMap { directory in
        FileSystem.entries(of: directory).sorted().map { "\(directory)/\($0)" }
    }

    /// The links in the folders that resolve to `devnode`.
    func links(to devnode: String) -> [String] {
        links.filter { DeviceLinks.sameDevice($0, devnode) }
    }
}
