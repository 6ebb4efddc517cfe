import SMPLocalFiles

extension OrderedStreamSink {
    /// Standard output as a ``DownloadSink`` (`fs get REMOTE -`), written through
    /// ``StandardStream`` (a closed or full standard output ends the download with its error).
    static func standardOutput() -> OrderedStreamSink {
        OrderedStreamSink { bytes in
            guard StandardStream.standardOutput.write(bytes: bytes[...]) else { throw StandardStream.standardOutput.writeError }
        }
    }
}
