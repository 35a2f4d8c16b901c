/// The one spelling of booleans outside JSON (API.md §1.2), for query strings, form fields and
/// configuration alike: `true` and `false` in any letter case (Sendbird's generated SDKs send
/// `True`), and `1` and `0`.
public enum BooleanText {
    public static func parse(_ text: some StringProtocol) -> Bool? {
        switch text.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }
}
