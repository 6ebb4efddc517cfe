import JSON
import SMP

extension ImageStateList {
    /// The list as a JSON document and as a table; hashes are shortened to 8 hex digits in the
    /// table unless `fullHashes`.
    func rendered(fullHashes: Bool) -> (JSONValue, String) {
        var table = Table(["IMAGE", "SLOT", "VERSION", "HASH", "FLAGS"], alignments: [.right, .right, .left, .left, .left])
        for entry in images {
            let hash = entry.hash.map { Hex.string(fullHashes ? $0 : Array($0.prefix(4))) } ?? "-"
            table.add([String(entry.image), String(entry.slot), entry.version, hash, entry.flagNames.joined(separator: ",")])
        }
        let recovery = ServerRecognition.decide(ServerRecognition.Observations(images: images))?.isSerialRecovery == true
        let document = JSONValue.object([
            ("images", .array(images.map(\.json))), ("splitStatus", splitStatus.map(JSONValue.int) ?? .null),
            ("serialRecovery", .bool(recovery)),
        ])
        let note = recovery
            ? "\nMCUboot serial recovery answers (no image is flagged active): it writes and boots the primary slot; "
                + "`smpctl upgrade FILE` installs through it, `smpctl os reset` starts the application"
            : ""
        return (document, (images.isEmpty ? "no images" : table.rendered) + note)
    }
}

extension ImageSlotState {
    /// The flags that are set, in a fixed order.
    var flagNames: [String] {
        [("active", active), ("confirmed", confirmed), ("pending", pending), ("permanent", permanent), ("bootable", bootable)]
            .filter(\.1).map(\.0)
    }

    var json: JSONValue {
        .object([
            ("image", .uint(image)), ("slot", .uint(slot)), ("version", .string(version)),
            ("imageHash", hash.map { .string(Hex.string($0)) } ?? .null), ("bootable", .bool(bootable)),
            ("pending", .bool(pending)), ("confirmed", .bool(confirmed)), ("active", .bool(active)),
            ("permanent", .bool(permanent)),
        ])
    }
}
