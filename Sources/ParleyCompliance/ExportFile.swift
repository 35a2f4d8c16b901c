import Foundation
import ParleyCore
import ParleyStore

/// The bytes of a data export file (API.md §14.2): JSON (one array of objects) or CSV (a header
/// line of `ExportKind.columns`, then one line per record, fields quoted as RFC 4180 says).
struct ExportFile {
    let request: ExportRequest
    private(set) var records = 0

    init(_ request: ExportRequest) {
        self.request = request
    }

    var header: Data {
        switch request.format {
        case .json: Data("[".utf8)
        case .csv: Data((request.kind.columns.map(csvField).joined(separator: request.csvDelimiter) + "\r\n").utf8)
        }
    }

    var footer: Data {
        request.format == .json ? Data((records == 0 ? "]\n" : "\n]\n").utf8) : Data()
    }

    mutating func append(_ row: ExportRepository.Row, to data: inout Data) {
        switch request.format {
        case .json:
            data.append(contentsOf: Array((records == 0 ? "\n" : ",\n").utf8))
            data.append(contentsOf: Array(row.json.utf8))
        case .csv:
            data.append(contentsOf: Array((row.fields.map(csvField).joined(separator: request.csvDelimiter) + "\r\n").utf8))
        }
        records += 1
    }

    /// A field quoted when it holds the delimiter, a quote or a line break; one a spreadsheet
    /// would run as a formula (`=`, `+`, `-`, `@`, a tab or CR first, and not a number) is
    /// prefixed with `'`, so that an exported message cannot execute in the reader's spreadsheet.
    func csvField(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@\t\r".contains(first), Double(value) == nil { value = "'" + value }
        guard value.contains(where: { $0 == "\"" || $0 == "\n" || $0 == "\r" || String($0) == request.csvDelimiter }) else {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
