import Foundation

/// A value parsed by Foundation's `JSONSerialization`, with typed accessors that tell JSON's
/// types apart (a `true` is not the number 1, `1.5` is not an integer).
struct JSONNode: CustomStringConvertible {
    enum Failure: Error { case notOneDocument }

    let value: Any

    init(_ value: Any) { self.value = value }

    subscript(key: String) -> JSONNode? {
        (value as? [String: Any])?[key].map(JSONNode.init)
    }

    subscript(index: Int) -> JSONNode? {
        guard let array = value as? [Any], array.indices.contains(index) else { return nil }
        return JSONNode(array[index])
    }

    /// The member names of an object, sorted; nil for anything else.
    var keys: [String]? { (value as? [String: Any])?.keys.sorted() }

    var array: [JSONNode]? { (value as? [Any])?.map(JSONNode.init) }

    var string: String? { value as? String }

    var isNull: Bool { value is NSNull }

    var isBool: Bool {
        // Foundation represents JSON true/false as a boolean NSNumber subclass.
        value is NSNumber && String(describing: type(of: value)).contains("Boolean")
    }

    var bool: Bool? { isBool ? (value as? Bool) : nil }

    /// A number (integer or not), never a boolean.
    var double: Double? {
        guard !isBool, let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    /// An integral number, never a boolean or a fraction.
    var int: Int? {
        guard let double, double == double.rounded(), let number = value as? NSNumber else { return nil }
        return number.intValue
    }

    var description: String {
        guard JSONSerialization.isValidJSONObject(value),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        else { return String(describing: value) }
        return String(decoding: data, as: UTF8.self)
    }
}
