/// How a metacounter write changes a value (API.md §13.6): replaces it, or adds or subtracts.
public enum MetacounterMode: String, Sendable, CaseIterable {
    case set, increase, decrease
}
