import FoundationEssentials
import SMP
import SMPFirmware
import Synchronization

/// The progress of the resources a SUIT device asks for, one after the other: a spinner while the
/// device is polled until it asks for the first, then a bar (or JSON progress events) per resource.
final class SUITResourceProgress: Sendable {
    private let output: Output
    /// The file whose bar is under way, and its bar.
    private let current = Mutex<(file: String, renderer: TransferProgressRenderer)?>(nil)
    private let polling: WaitSpinner?

    init(output: Output) {
        self.output = output
        polling = output.json ? nil : WaitSpinner("polling the device for the resources it needs")
    }

    /// Shows the progress of `file`'s upload, starting its bar on its first report.
    func show(_ progress: UploadProgress, of file: SUITUpgradeFile) {
        polling?.stop()
        let renderer = current.withLock { current in
            if current?.file != file.fileName {
                current?.renderer.finish()
                current = (file.fileName, TransferProgressRenderer(
                    output: output, label: file.fileName, context: [("file", .string(file.fileName))]))
            }
            return current?.renderer
        }
        renderer?.show(progress)
    }

    /// Ends the bar under way.
    func finish() {
        polling?.stop()
        current.withLock { current in
            current?.renderer.finish()
            current = nil
        }
    }
}
