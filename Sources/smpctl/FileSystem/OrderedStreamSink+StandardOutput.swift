import Foundation
import SMP

extension OrderedStreamSink {
    /// Standard output as a ``DownloadSink`` (`fs get REMOTE -`).
    static func standardOutput() -> OrderedStreamSink {
        OrderedStreamSink { try FileHandle.standardOutput.write(contentsOf: $0) }
    }
}
