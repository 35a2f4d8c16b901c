/// How a push's text is written for each type of message (API.md §12.2), with placeholders
/// `{sender_name}`, `{message}`, `{filename}` and `{channel_name}`.
public struct PushTemplate: Sendable, Equatable {
    public var name: PushTemplateName
    public var userMessage: String
    public var fileMessage: String
    public var adminMessage: String

    public init(name: PushTemplateName, userMessage: String, fileMessage: String, adminMessage: String) {
        self.name = name
        self.userMessage = userMessage
        self.fileMessage = fileMessage
        self.adminMessage = adminMessage
    }

    /// A template's text may be at most this long.
    public static let maxLength = 1024

    /// The values a template's placeholders take.
    public struct Values: Sendable {
        public var senderName: String
        public var message: String
        public var fileName: String
        public var channelName: String

        public init(senderName: String = "", message: String = "", fileName: String = "", channelName: String = "") {
            self.senderName = senderName
            self.message = message
            self.fileName = fileName
            self.channelName = channelName
        }
    }

    /// The text of a push for a message of `type`. Placeholders are replaced in one pass, so a
    /// value that itself looks like a placeholder (a message saying "{sender_name}") stays as written.
    public func render(_ type: MessageType, _ values: Values) -> String {
        let text =
            switch type {
            case .user: userMessage
            case .file: fileMessage
            case .admin: adminMessage
            }
        let replacements = [
            "sender_name": values.senderName, "message": values.message, "filename": values.fileName, "channel_name": values.channelName
        ]
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = replacements[String(rest[afterOpen..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[afterOpen...]
            }
        }
        return result + rest
    }
}
