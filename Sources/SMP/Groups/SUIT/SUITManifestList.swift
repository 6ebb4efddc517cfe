import CBOR

/// The roles of the manifests a SUIT device holds (SUIT command 0, read).
public struct SUITManifestList: SMPCommand {
    /// Creates the request.
    public init() {}

    public var request: SMPRequest {
        SMPRequest(group: .suit, command: SUITCommandID.manifestList, operation: .read, payload: [:], name: "suit manifest list")
    }

    /// The roles, in the device's order.
    public func decodeResponse(_ payload: CBORMap) throws(SMPResponseError) -> [SUITManifestRole] {
        guard case .array(let entries) = try payload.field("manifests") else {
            throw SMPResponseError("field \"manifests\" should be an array")
        }
        var roles: [SUITManifestRole] = []
        for (index, entry) in entries.enumerated() {
            guard let map = entry.mapValue else { throw SMPResponseError("manifests[\(index)] should be a map {role}") }
            do {
                roles.append(SUITManifestRole(rawValue: try map.unsigned("role")))
            } catch {
                throw SMPResponseError("manifests[\(index)]: \(error.detail)")
            }
        }
        return roles
    }
}
