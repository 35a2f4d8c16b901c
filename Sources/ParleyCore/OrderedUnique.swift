extension Array where Element: Hashable {
    /// The elements in first-seen order without repeats (lists of ids a request names).
    public func orderedUnique() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
