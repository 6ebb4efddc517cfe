import Logging

extension FrameInbox {
    /// The next Secure DFU answer to `opCode` within `timeout`; frames that are not answers
    /// (line noise) and late answers to other requests are passed over. `endpoint` names the
    /// link in errors (`serial:/dev/ttyACM0`, `ble:C0:FF:EE:00:00:01`).
    func answer(to opCode: SecureDFUOpCode, timeout: Duration, endpoint: String, logger: Logger) async throws -> SecureDFUResponse {
        let deadline = ContinuousClock.now + timeout
        while true {
            let frame: [UInt8]
            do {
                frame = try await next(timeout: max(.zero, deadline - .now))
            } catch is FrameInbox.Timeout {
                throw SecureDFUError(
                    .noResponse, "\(endpoint): no answer to \(opCode) within \(timeout)",
                    hint: "the bootloader stopped answering: it may have reset or timed out (nRF5 SDK bootloaders leave DFU mode after "
                        + "a few minutes without activity); run the update again, it resumes", request: opCode)
            }
            guard frame.first == SecureDFUOpCode.response.rawValue else {
                logger.debug("\(endpoint): passed over a frame that is no answer (\(frame.count) bytes)")
                continue
            }
            switch SecureDFUResponse.parse(frame) {
            case .success(let answer) where answer.request == opCode:
                return answer
            case .success(let answer):
                logger.debug("\(endpoint): passed over a late answer to \(answer.request)")
            case .failure(let failure):
                throw SecureDFUError.malformed("\(failure)", request: opCode)
            }
        }
    }

    /// The next packet receipt notification (an answer in the CRC's form) within `timeout`.
    func receiptNotification(timeout: Duration, endpoint: String, logger: Logger) async throws -> SecureDFUChecksum {
        let answer = try await answer(to: .calculateChecksum, timeout: timeout, endpoint: endpoint, logger: logger)
        if let failure = answer.failure(object: .data, offset: nil) { throw failure }
        return try answer.checksum()
    }
}
