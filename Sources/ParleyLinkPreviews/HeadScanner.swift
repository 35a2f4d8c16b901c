import Foundation
import ParleyCore

/// Reads a page's Open Graph tags, `<title>` and description from its bytes (API.md §11.1): one
/// forward pass over at most the bytes given, building no tree, so that deeply nested or endless
/// markup costs time in proportion to its length and no more memory (Synapse's CVE-2022-31052
/// was a recursive parser). It stops at `</head>` or `<body`.
public enum HeadScanner {
    public static let maxTitle = 300
    public static let maxDescription = 1000
    /// Longest attribute value or title text looked at; longer ones are cut.
    static let maxValue = 8192

    public static func scan(_ html: [UInt8]) -> OGTag {
        var properties: [String: String] = [:]
        var title: String?
        var index = 0
        let count = html.count
        while index < count {
            guard html[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if matches(html, index, "<!--") {
                index = find(html, from: index + 4, "-->").map { $0 + 3 } ?? count
                continue
            }
            if matches(html, index, "</head") || matches(html, index, "<body") { break }
            let (name, nameEnd) = tagName(html, index + 1)
            let (attributes, tagEnd) = self.attributes(html, nameEnd)
            index = tagEnd
            switch name {
            case "meta":
                let key = (attributes["property"] ?? attributes["name"])?.lowercased()
                if let key, let content = attributes["content"], key.hasPrefix("og:") || key == "description" {
                    if properties[key] == nil { properties[key] = content }
                }
            case "title":
                let end = find(html, from: index, "</title") ?? min(count, index + maxValue)
                if title == nil { title = text(html[index..<min(end, index + maxValue)]) }
                index = end
            case "script", "style":
                index = find(html, from: index, "</\(name)") ?? count
            default:
                break
            }
        }
        var image: OGTag.Image?
        if let url = properties["og:image"] ?? properties["og:image:url"] {
            image = OGTag.Image(
                url: url, secureURL: properties["og:image:secure_url"], type: properties["og:image:type"],
                width: properties["og:image:width"].flatMap { Int($0) }, height: properties["og:image:height"].flatMap { Int($0) },
                alt: properties["og:image:alt"].map { clean($0, max: maxTitle) })
        }
        return OGTag(
            url: properties["og:url"], title: (properties["og:title"] ?? title).map { clean($0, max: maxTitle) },
            description: (properties["og:description"] ?? properties["description"]).map { clean($0, max: maxDescription) }, image: image)
    }

    /// Text without markup or control characters, whitespace collapsed, cut to `max` characters.
    static func clean(_ value: String, max: Int) -> String {
        var out = ""
        var inTag = false
        var lastSpace = true
        for scalar in value.unicodeScalars {
            if scalar == "<" {
                inTag = true
                continue
            }
            if scalar == ">" && inTag {
                inTag = false
                continue
            }
            if inTag { continue }
            if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace {
                if !lastSpace { out.unicodeScalars.append(" ") }
                lastSpace = true
                continue
            }
            out.unicodeScalars.append(scalar)
            lastSpace = false
            if out.count >= max { break }
        }
        return String(out.trimmingCharacters(in: .whitespaces).prefix(max))
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        decodeEntities(String(decoding: bytes, as: UTF8.self))
    }

    private static func tagName(_ html: [UInt8], _ start: Int) -> (String, Int) {
        var end = start
        while end < html.count, end - start < 16, isNameByte(html[end]) { end += 1 }
        return (String(decoding: html[start..<end], as: UTF8.self).lowercased(), end)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ":")
    }

    /// The attributes of a tag from `start` to its `>`; returns where the tag ends.
    private static func attributes(_ html: [UInt8], _ start: Int) -> ([String: String], Int) {
        var attributes: [String: String] = [:]
        var index = start
        let count = html.count
        while index < count, attributes.count < 32 {
            while index < count, isSpaceOrSlash(html[index]) { index += 1 }
            guard index < count, html[index] != UInt8(ascii: ">") else { break }
            let nameStart = index
            while index < count, !isSpaceOrSlash(html[index]), html[index] != UInt8(ascii: "="), html[index] != UInt8(ascii: ">") {
                index += 1
            }
            let name = String(decoding: html[nameStart..<min(index, nameStart + 64)], as: UTF8.self).lowercased()
            while index < count, html[index] == UInt8(ascii: " ") { index += 1 }
            guard index < count, html[index] == UInt8(ascii: "=") else {
                if !name.isEmpty { attributes[name] = "" }
                continue
            }
            index += 1
            while index < count, html[index] == UInt8(ascii: " ") { index += 1 }
            guard index < count else { break }
            let quote = html[index]
            var valueStart = index
            var valueEnd: Int
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                valueStart = index + 1
                valueEnd = valueStart
                while valueEnd < count, html[valueEnd] != quote { valueEnd += 1 }
                index = min(count, valueEnd + 1)
            } else {
                valueEnd = valueStart
                while valueEnd < count, !isSpaceOrSlash(html[valueEnd]), html[valueEnd] != UInt8(ascii: ">") { valueEnd += 1 }
                index = valueEnd
            }
            if attributes[name] == nil {
                attributes[name] = decodeEntities(String(decoding: html[valueStart..<min(valueEnd, valueStart + maxValue)], as: UTF8.self))
            }
        }
        // To the tag's end (attributes past the 32nd are skipped).
        while index < count, html[index] != UInt8(ascii: ">") { index += 1 }
        return (attributes, min(count, index + 1))
    }

    private static func isSpaceOrSlash(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == UInt8(ascii: "/")
    }

    private static func matches(_ html: [UInt8], _ at: Int, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard at + bytes.count <= html.count else { return false }
        for (offset, byte) in bytes.enumerated() where html[at + offset] | 0x20 != byte | 0x20 { return false }
        return true
    }

    private static func find(_ html: [UInt8], from start: Int, _ text: String) -> Int? {
        var index = start
        while index < html.count {
            if html[index] == UInt8(ascii: "<") || html[index] == UInt8(ascii: "-"), matches(html, index, text) { return index }
            index += 1
        }
        return nil
    }

    /// The entities pages use in titles and attribute values.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
            var decoded: String?
            if let value = named[name] {
                decoded = value
            } else if name.hasPrefix("#x") || name.hasPrefix("#X"), let code = UInt32(name.dropFirst(2), radix: 16) {
                decoded = Unicode.Scalar(code).map { String($0) }
            } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()) {
                decoded = Unicode.Scalar(code).map { String($0) }
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}
