import Foundation
import SMP
import SMPFirmware

/// The progress of the resources a SUIT device asks for, one after the other: a bar (or JSON
/// progress events) per resource.
final class SUITResourceProgress: @unchecked Sendable {
    private let json: Bool
    private let lock = NSLock()
    private var current: (file: String, renderer: TransferProgressRenderer)?

    init(json: Bool) { self.json = json }

    /// Shows the progress of `file`'s upload, starting its bar on its first report.
    func show(_ progress: UploadProgress, of file: SUITUpgradeFile) {
        let renderer = lock.withLock {
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
        lock.withLock {
            current?.renderer.finish()
            current = nil
        }
    }
}
