import CBOR
import SMP

/// SUIT envelopes for tests, shaped as the IETF SUIT manifest draft (-34) and the nRF Connect SDK
/// build them: tag 107 around {2: bstr(authentication wrapper), 3: bstr(manifest)}. The wrapper
/// holds bstr([-16, SHA-256 of the bstr-wrapped manifest]); the manifest holds version 1, the
/// sequence number (key 2), a common section with one component (key 3) and, when it names
/// resources, an install sequence (key 20) that sets each `file://` URI and fetches it. Signatures
/// are left out (the devices under test do not check them). `SUITEnvelopeCDDLTests` checks these
/// against the draft's CDDL.
public enum SUITTestEnvelope {
    /// An envelope with `sequence` that asks for `uris`, and the digest it reports; `damaged`
    /// spoils the digest in the authentication wrapper (the reported one stays right).
    public static func make(sequence: UInt64, uris: [String] = [], damaged: Bool = false) -> (bytes: [UInt8], digest: [UInt8]) {
        var install: [CBOR] = []
        for uri in uris { install += [20, .map([.unsigned(21): .text(uri)]), 21, 15] }
        var manifest: CBORMap = [.unsigned(1): 1, .unsigned(2): .unsigned(sequence)]
        manifest.append(key: .unsigned(3), value: .bytes(CBOR.map([.unsigned(2): .array([.array([.bytes(Array("MEM".utf8))])])]).encoded()))
        if !install.isEmpty { manifest.append(key: .unsigned(20), value: .bytes(CBOR.array(install).encoded())) }
        let wrapped = CBOR.bytes(CBOR.map(manifest).encoded())
        var digest = SHA256Hash.digest(wrapped.encoded())
        let reported = digest
        if damaged { digest[0] ^= 0xFF }
        let wrapper = CBOR.bytes(CBOR.array([.bytes(CBOR.array([.int(-16), .bytes(digest)]).encoded())]).encoded())
        let envelope = CBOR.tagged(107, .map([.unsigned(2): wrapper, .unsigned(3): wrapped]))
        return (envelope.encoded(), reported)
    }
}
