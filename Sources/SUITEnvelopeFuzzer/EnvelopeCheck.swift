import CBOR
import Crypto
import FoundationEssentials
import FuzzingSupport
import SMPFirmware

/// The properties every input is checked against, shared by the libFuzzer entry point and the
/// replay driver. A violation stops the process, which libFuzzer reports as a crash with the
/// input saved.
///
/// For any bytes given as a SUIT envelope file:
/// - the decoder neither crashes nor hangs, and a rejected envelope gets a message;
/// - an accepted envelope keeps the file's bytes and their SHA-256 (the upload's `sha`), and a
///   trailing byte makes it invalid;
/// - only the content counts, not its outer encoding: the envelope re-encoded in shortest form and
///   with indefinite-length containers decodes to the same digest, sequence number and components;
/// - the package reader, which recognises an envelope by `D8 6B`, agrees: it reads the same
///   envelope, or refuses the file when the decoder does.
enum EnvelopeCheck {
    /// The decoder SUITEnvelope uses, to re-encode what it accepted.
    static let decoder = CBORDecoder(maximumDepth: 16, allowTrailingBytes: false, rejectDuplicateKeys: true)

    /// Checks one input; traps on a violated property.
    static func run(_ input: [UInt8]) {
        let envelope: SUITEnvelope
        do {
            envelope = try SUITEnvelope(bytes: input)
        } catch {
            fuzzRequire(!error.description.isEmpty, "a rejected envelope has an empty message")
            if SUITEnvelope.hasSignature(input) {
                fuzzRequire((try? FirmwarePackage(data: Data(input), name: "fuzz.suit")) == nil, "the package reader accepts a bad envelope")
            }
            return
        }
        fuzzRequire(envelope.bytes == input, "the envelope holds other bytes")
        fuzzRequire(envelope.sha256 == Array(SHA256.hash(data: input)), "sha256 is not the file's SHA-256")
        if let digest = envelope.manifestDigest, digest.algorithm == -16 {
            fuzzRequire(digest.algorithmName == "sha-256", "algorithm -16 named \(digest.algorithmName ?? "nil")")
        }
        fuzzRequire((try? SUITEnvelope(bytes: input + [0])) == nil, "an envelope with a trailing byte is accepted")
        checkReencodings(envelope, input)
        if SUITEnvelope.hasSignature(input) {
            let package = try? FirmwarePackage(data: Data(input), name: "fuzz.suit")
            fuzzRequire(package?.kind == .suitEnvelope && package?.suitEnvelope == envelope, "the package reader reads another envelope")
        }
    }

    private static func checkReencodings(_ envelope: SUITEnvelope, _ input: [UInt8]) {
        guard let root = try? decoder.decode(input) else { fatalError("an accepted envelope does not decode") }
        var indefinite = CBORWriter(indefiniteContainers: true)
        indefinite.write(root)
        for (name, bytes) in [("shortest-form", root.encoded()), ("indefinite-length", indefinite.bytes)] {
            do {
                let again = try SUITEnvelope(bytes: bytes)
                fuzzRequire(again.manifestDigest == envelope.manifestDigest, "the \(name) encoding has another digest")
                fuzzRequire(again.sequenceNumber == envelope.sequenceNumber, "the \(name) encoding has another sequence number")
                fuzzRequire(again.componentIDs == envelope.componentIDs, "the \(name) encoding has other components")
            } catch {
                fatalError("the \(name) encoding of an accepted envelope is refused: \(error)")
            }
        }
    }
}
