import FoundationEssentials
import SMP
import SMPFirmware
import Synchronization

/// The progress of the resources a SUIT device asks for, one after the other: a bar (or JSON
/// progress events) per resource.
final class SUITResourceProgress: Sendable {
    private let json: Bool
    /// The file whose bar is under way, and its bar.
    private let current = Mutex<(file: String, renderer: TransferProgressRenderer)?>(nil)

    init(json: Bool) { self.json = json }

    /// Shows the progress of `file`'s upload, starting its bar on its first report.
    func show(_ progress: UploadProgress, of file: SUITUpgradeFile) {
        let renderer = current.withLock { current in
            if current?.file != file.fileName {
                current?.renderer.finish()
                current = (file.fileName, TransferProgressRenderer(
                    json: json, announcement: nil, label: file.fileName, context: [("file", .string(file.fileName))]))
            }
            return current?.renderer
        }
        renderer?.show(progress)
    }

    /// Ends the bar under way.
    func finish() {
        current.withLock { current in
            current?.renderer.finish()
            current = nil
        }
    }
}
