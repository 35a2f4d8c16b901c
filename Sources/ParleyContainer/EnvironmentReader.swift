import Foundation
import ParleyCore

/// A configuration problem, worded for the person starting the server.
public struct ConfigError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

struct EnvironmentReader {
    let environment: [String: String]

    func int(_ name: String, default value: Int, range: ClosedRange<Int> = 1...Int.max) throws -> Int {
        guard let text = environment[name], !text.isEmpty else { return value }
        guard let parsed = Int(text), range.contains(parsed) else {
            throw ConfigError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not \"\(text)\".")
        }
        return parsed
    }

    /// A comma-separated list, its entries trimmed, empty ones left out; nil when unset or empty.
    func list(_ name: String) -> [String]? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let text = environment[name], !text.isEmpty else { return value }
        guard let flag = BooleanText.parse(text) else { throw ConfigError("\(name) must be true or false (or 1 or 0), not \"\(text)\".") }
        return flag
    }
}
