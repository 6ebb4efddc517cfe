import CBOR

/// The property every input is checked against, shared by the libFuzzer entry point and the
/// replay driver.
///
/// Input that the decoder rejects is fine (the decoder must only not crash or hang). Input that it
/// accepts must survive the round trip: the shortest-form encoding decodes to an equal item, encoding
/// that again gives the same bytes, and the indefinite-length encoding decodes to an equal item too.
/// A mismatch stops the process, which libFuzzer reports as a crash with the input saved.
enum RoundTripCheck {
    /// The decoder under test: the defaults, as the SMP layer uses them.
    static let decoder = CBORDecoder()

    /// The same, but refusing maps with repeated keys.
    static let strictDecoder = CBORDecoder(rejectDuplicateKeys: true)

    /// Checks one input; traps on a broken round trip.
    static func run(_ input: [UInt8]) {
        checkDecoderOptionsAgree(input)
        let item: CBOR
        do {
            item = try decoder.decode(input)
        } catch {
            // Rejected input must still be described without crashing.
            _ = error.description
            return
        }
        _ = item.diagnosticDescription

        let encoded = item.encoded()
        let again = decodeOrDie(encoded, what: "shortest-form encoding", of: item)
        check(again == item, "shortest-form round trip changed the item", item, again)
        check(again.encoded() == encoded, "re-encoding is not stable", item, again)

        var writer = CBORWriter(indefiniteContainers: true)
        writer.write(item)
        let fromIndefinite = decodeOrDie(writer.bytes, what: "indefinite-length encoding", of: item)
        check(fromIndefinite == item, "indefinite-length round trip changed the item", item, fromIndefinite)
    }

    /// `decodePrefix` reads the same item `decode` would, and the strict decoder accepts exactly
    /// the items without repeated keys.
    private static func checkDecoderOptionsAgree(_ input: [UInt8]) {
        let whole = try? decoder.decode(input)
        let prefix = try? decoder.decodePrefix(input)
        if let whole {
            guard let prefix, prefix.consumed == input.count, prefix.item == whole else {
                fatalError("decodePrefix disagrees with decode on \(whole.diagnosticDescription)")
            }
        } else if let prefix, prefix.consumed == input.count {
            fatalError("decodePrefix accepts what decode rejects: \(prefix.item.diagnosticDescription)")
        }
        let strict = try? strictDecoder.decode(input)
        switch (whole, strict) {
        case (nil, nil):
            break
        case (let item?, nil):
            if !hasRepeatedKeys(item) {
                fatalError("the strict decoder rejects \(item.diagnosticDescription), which repeats no key")
            }
        case (let item?, let strictItem?):
            if strictItem != item || hasRepeatedKeys(item) {
                fatalError("the strict decoder read \(strictItem.diagnosticDescription) as \(item.diagnosticDescription)")
            }
        case (nil, let strictItem?):
            fatalError("the strict decoder accepts what the default one rejects: \(strictItem.diagnosticDescription)")
        }
    }

    private static func hasRepeatedKeys(_ item: CBOR) -> Bool {
        switch item {
        case .array(let elements): return elements.contains(where: hasRepeatedKeys)
        case .map(let map):
            return !map.duplicateKeys.isEmpty || map.contains { hasRepeatedKeys($0.key) || hasRepeatedKeys($0.value) }
        case .tagged(_, let content): return hasRepeatedKeys(content)
        default: return false
        }
    }

    private static func decodeOrDie(_ bytes: [UInt8], what: String, of item: CBOR) -> CBOR {
        do {
            return try decoder.decode(bytes)
        } catch {
            fatalError("the \(what) of \(item.diagnosticDescription) does not decode: \(error)")
        }
    }

    private static func check(_ condition: Bool, _ message: String, _ original: CBOR, _ decoded: CBOR) {
        if !condition {
            fatalError("\(message): \(original.diagnosticDescription) became \(decoded.diagnosticDescription)")
        }
    }
}
