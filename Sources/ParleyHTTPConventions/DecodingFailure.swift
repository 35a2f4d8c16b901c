import HTTPWire
import ParleyCore

/// Turns the `DecodingError` of a request body into the error of API.md §1.5 for the field at
/// fault, named as the API documents it: `users[].user_id` for `users.2.user_id`.
public enum DecodingFailure {
    public static func parleyError(_ error: DecodingError) -> ParleyError {
        switch error {
        case .typeMismatch(let type, let context):
            return wrongType(context.codingPath, expected: expectedType(type))
        case .valueNotFound(let type, let context):
            // `null` for a required field is the field missing; `null` as a list item is an item
            // of the wrong type.
            guard context.codingPath.last?.intValue == nil else {
                return wrongType(context.codingPath, expected: expectedType(type))
            }
            return context.codingPath.isEmpty ? .wrongType("body", expected: .object) : .missing(fieldName(context.codingPath))
        case .keyNotFound(let key, let context):
            return .missing(fieldName(context.codingPath + [key]))
        case .dataCorrupted:
            // Past `JSONSyntaxGuard` this is a string the decoder cannot represent (a lone
            // surrogate escape) or a number out of range: still not JSON this server takes.
            return .invalidJSON
        @unknown default:
            return .invalidJSON
        }
    }

    /// `users[].user_id` for the coding path `users.2.user_id`; list indices become `[]`.
    public static func fieldName(_ path: [any CodingKey]) -> String {
        var name = ""
        for key in path {
            if key.intValue != nil {
                name += "[]"
            } else {
                name += (name.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return name
    }

    /// The body itself when the path is empty: it must be an object.
    private static func wrongType(_ path: [any CodingKey], expected: ParleyError.ExpectedType) -> ParleyError {
        path.isEmpty ? .wrongType("body", expected: .object) : .wrongType(fieldName(path), expected: expected)
    }

    /// The JSON type of what the decoder wanted: it reports `Array<Any>` for a list,
    /// `Dictionary<String, Any>` for an object, and the Swift type for a scalar.
    private static func expectedType(_ type: Any.Type) -> ParleyError.ExpectedType {
        switch type {
        case is String.Type: .string
        case is Bool.Type: .boolean
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: .number
        case is any ListType.Type: .list
        default: .object
        }
    }
}

/// Marks every `Array` type, so that `expectedType` recognises a list whatever its element type.
private protocol ListType {}
extension Array: ListType {}
