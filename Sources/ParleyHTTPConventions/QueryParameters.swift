import Hummingbird
import ParleyCore

/// Typed access to a request's query string, with the error codes of API.md §1.5.
public struct QueryParameters {
    private let parameters: Hummingbird.Parameters

    public init(_ request: Request) {
        let raw = request.uri.queryParameters
        // Hummingbird decodes the values only: a client that encodes a key's brackets
        // (`status%5B%5D` for `status[]`, as URL libraries do) would find its key ignored.
        guard raw.contains(where: { $0.key.contains("%") }) else {
            parameters = raw
            return
        }
        parameters = Parameters(raw.map { (key: PercentDecoding.decode(String($0.key)).map { $0[...] } ?? $0.key, value: $0.value) })
    }

    public func string(_ key: String) -> String? {
        parameters.get(key)
    }

    /// A boolean as `BooleanText` spells it (400104 otherwise).
    public func bool(_ key: String, default value: Bool) throws -> Bool {
        guard let text = parameters.get(key) else { return value }
        guard let flag = BooleanText.parse(text) else { throw ParleyError.wrongType(key, expected: .boolean) }
        return flag
    }

    /// An integer in `range` (400101 when not a number, 400111 when out of range).
    public func int(_ key: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = parameters.get(key) else { return value }
        guard let number = Int(text) else { throw ParleyError.wrongType(key, expected: .number) }
        guard range.contains(number) else {
            throw ParleyError.invalidValue(key, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return number
    }

    /// A user id named in the query (`user_id`), checked for form (400111).
    public func userID(_ key: String = "user_id") throws -> String? {
        try string(key).map { try Validation.userID($0, field: key) }
    }

    /// A whole number (400101 when not one).
    public func int64(_ key: String) throws -> Int64? {
        guard let text = parameters.get(key) else { return nil }
        guard let number = Int64(text) else { throw ParleyError.wrongType(key, expected: .number) }
        return number
    }

    /// Every value of a key given once or more, each also split at commas; empty items dropped.
    public func all(_ key: String) -> [String] {
        parameters.getAll(key).flatMap { $0.split(separator: ",").map(String.init) }
    }

    /// A comma-separated list; empty items are dropped.
    public func list(_ key: String) -> [String]? {
        guard let text = parameters.get(key) else { return nil }
        return text.split(separator: ",").map(String.init)
    }

    /// One of an enum's raw values (400111 otherwise).
    public func choice<T: RawRepresentable & CaseIterable>(_ key: String, default value: T) throws -> T where T.RawValue == String {
        try optionalChoice(key) ?? value
    }

    /// One of an enum's raw values (400111 otherwise), or nil when absent.
    public func optionalChoice<T: RawRepresentable & CaseIterable>(_ key: String) throws -> T? where T.RawValue == String {
        guard let text = parameters.get(key) else { return nil }
        guard let choice = T(rawValue: text) else {
            throw ParleyError.invalidValue(key, "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    /// `limit` and `token` of API.md §1.6.
    public func page() throws -> (limit: Int, token: String?) {
        let token = string("token").flatMap { $0.isEmpty ? nil : $0 }
        return (try int("limit", default: 10, range: 1...100), token)
    }
}
