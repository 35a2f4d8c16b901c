/// A request the object store refused or did not answer.
public enum S3Error: Error, CustomStringConvertible, Equatable {
    case notFound(String)
    /// An answer with an error status (or an error inside a 200, as CompleteMultipartUpload may
    /// send): S3's `Code` and `Message`.
    case refused(status: Int, code: String, message: String)
    case malformed(String)

    public var description: String {
        switch self {
        case .notFound(let key): "object store: \(key) not found"
        case .refused(let status, let code, let message): "object store refused (\(status) \(code)): \(message)"
        case .malformed(let what): "object store: malformed answer (\(what))"
        }
    }
}

/// The few elements of S3's XML answers Parley reads, found by name: the answers are flat
/// enough, and the values (keys, ids, dates, tokens) need only the five predefined entities.
enum S3XML {
    /// The text of every `<name>` element, in order, entities replaced.
    static func values(_ name: String, in xml: String) -> [String] { blocks(name, in: xml).map(unescape) }

    static func value(_ name: String, in xml: String) -> String? { values(name, in: xml).first }

    /// The raw content of each `<name>…</name>` element, for values read per element (`Contents`).
    static func blocks(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest[open.upperBound...].range(of: "</\(name)>") {
            found.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
