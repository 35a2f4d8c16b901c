import Postgres

/// Collects the conditions and parameters of a statement whose shape depends on its filters.
/// Values are always bound as parameters; only fixed SQL fragments are ever concatenated.
struct SQLBuilder {
    private(set) var parameters: [any PostgresBindable] = []
    private var conditions: [String] = []

    /// Adds a parameter and returns its placeholder (`$n`).
    mutating func bind(_ value: any PostgresBindable) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    mutating func `where`(_ condition: String) {
        conditions.append(condition)
    }

    var whereClause: String {
        conditions.isEmpty ? "" : "WHERE " + condition
    }

    /// Every condition, joined (`true` when there is none).
    var condition: String {
        conditions.isEmpty ? "true" : conditions.joined(separator: " AND ")
    }
}
