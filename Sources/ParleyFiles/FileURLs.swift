/// Where an uploaded file is downloaded (API.md §5.2): one spelling for every place that links
/// to one (responses, events, pushes).
public enum FileURLs {
    /// The file, or one of its thumbnails, without a key.
    public static func plain(baseURL: String, fileID: String, thumbnail: Int? = nil) -> String {
        baseURL + "/v3/files/" + fileID + (thumbnail.map { "/thumbnails/\($0)" } ?? "")
    }

    /// The link a holder of `auth` (a file auth key) downloads with.
    public static func authorized(_ plain: String, auth: String) -> String {
        plain + "?auth=" + auth
    }
}
