import Foundation

/// A message split into what a provider translates and what must come back unchanged
/// (API.md §9.3): mentions (`@{user_id}`, `@name`), URLs, and code (`` `…` `` spans and ``` fences).
///
/// The protected parts never reach the provider: the text between them is translated piece by
/// piece and the message is put back together around them. Placeholders would keep more context
/// for the provider, but providers translate, move or drop placeholders; pieces cannot be.
struct ProtectedText: Sendable {
    enum Part: Sendable, Equatable {
        /// Translated; `lead` and `trail` are its surrounding whitespace, kept as it was.
        case text(lead: String, core: String, trail: String)
        case kept(String)
    }

    let parts: [Part]

    /// Fences, then code spans, then URLs, then mentions: the earlier kinds win where they overlap.
    private static let protected = try! NSRegularExpression(
        pattern: #"```[\s\S]*?```|`[^`\n]+`|\b(?:https?://|www\.)[^\s<>"]+|@\{[^}\s]+\}|(?<![\w@])@[\w.\-]+"#,
        options: [])

    init(_ text: String) {
        var parts: [Part] = []
        let whole = text as NSString
        var position = 0
        for match in Self.protected.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            if match.range.location > position {
                parts.append(Self.piece(whole.substring(with: NSRange(location: position, length: match.range.location - position))))
            }
            parts.append(.kept(whole.substring(with: match.range)))
            position = match.range.location + match.range.length
        }
        if position < whole.length { parts.append(Self.piece(whole.substring(from: position))) }
        self.parts = parts
    }

    /// A stretch between protected parts: its whitespace kept aside, and kept whole when there is
    /// nothing to translate in it (punctuation, digits, emoji).
    private static func piece(_ stretch: String) -> Part {
        let lead = String(stretch.prefix { $0.isWhitespace })
        let rest = stretch.dropFirst(lead.count)
        let trail = String(rest.reversed().prefix { $0.isWhitespace }.reversed())
        let core = String(rest.dropLast(trail.count))
        guard core.unicodeScalars.contains(where: { CharacterSet.letters.contains($0) }) else { return .kept(stretch) }
        return .text(lead: lead, core: core, trail: trail)
    }

    /// What the provider is asked to translate, in order.
    var pieces: [String] {
        parts.compactMap { if case .text(_, let core, _) = $0 { core } else { nil } }
    }

    /// The message again, with `translated` (one per piece, in order) in place of the pieces.
    func restored(_ translated: [String]) -> String {
        var next = translated.makeIterator()
        return parts.map { part in
            switch part {
            case .kept(let text): text
            case .text(let lead, let core, let trail): lead + (next.next() ?? core) + trail
            }
        }.joined()
    }
}
