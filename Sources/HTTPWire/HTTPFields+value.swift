import HTTPTypes

extension HTTPFields {
    /// The field's value, as `self[name]` gives it (repeated fields joined with ", "), without
    /// building an array and joining it when the field appears once, which is the usual case.
    /// Authentication reads headers on every request.
    public func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
