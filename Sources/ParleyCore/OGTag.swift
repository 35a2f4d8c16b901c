/// A link preview (API.md §11.1): a message's first URL's Open Graph tags, fields nil when absent.
public struct OGTag: Sendable, Equatable, Codable {
    public struct Image: Sendable, Equatable, Codable {
        public var url: String?
        public var secureURL: String?
        public var type: String?
        public var width: Int?
        public var height: Int?
        public var alt: String?

        public init(
            url: String? = nil, secureURL: String? = nil, type: String? = nil, width: Int? = nil, height: Int? = nil, alt: String? = nil
        ) {
            self.url = url
            self.secureURL = secureURL
            self.type = type
            self.width = width
            self.height = height
            self.alt = alt
        }
    }

    public var url: String?
    public var title: String?
    public var description: String?
    public var image: Image?

    public init(url: String? = nil, title: String? = nil, description: String? = nil, image: Image? = nil) {
        self.url = url
        self.title = title
        self.description = description
        self.image = image
    }

    public var isEmpty: Bool { url == nil && title == nil && description == nil && image == nil }
}
