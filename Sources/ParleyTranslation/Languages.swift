/// Language codes (API.md §9.1): BCP 47 as Google Cloud Translation v2 names them.
public enum Languages {
    /// Google Cloud Translation v2's languages.
    public static let known: Set<String> = [
        "af", "ak", "am", "ar", "as", "ay", "az", "be", "bg", "bho", "bm", "bn", "bs", "ca", "ceb", "ckb", "co", "cs", "cy", "da", "de",
        "doi", "dv", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "fi", "fil", "fr", "fy", "ga", "gd", "gl", "gn", "gom", "gu", "ha",
        "haw", "he", "hi", "hmn", "hr", "ht", "hu", "hy", "id", "ig", "ilo", "is", "it", "ja", "jv", "ka", "kk", "km", "kn", "ko", "kri",
        "ku", "ky", "la", "lb", "lg", "ln", "lo", "lt", "lus", "lv", "mai", "mg", "mi", "mk", "ml", "mn", "mni-Mtei", "mr", "ms", "mt",
        "my", "ne", "nl", "no", "nso", "ny", "om", "or", "pa", "pl", "ps", "pt", "pt-BR", "pt-PT", "qu", "ro", "ru", "rw", "sa", "sd",
        "si", "sk", "sl", "sm", "sn", "so", "sq", "sr", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti", "tk", "tl", "tr", "ts",
        "tt", "ug", "uk", "ur", "uz", "vi", "xh", "yi", "yo", "zh", "zh-CN", "zh-TW", "zu"
    ]

    /// At most this many languages per request or send.
    public static let maxPerRequest = 5

    /// The known code `code` names, with its case made canonical (`zh-cn` is `zh-CN`), or nil.
    public static func canonical(_ code: String) -> String? {
        let parts = code.split(separator: "-", maxSplits: 1)
        guard let base = parts.first, base.count <= 3 else { return nil }
        var candidate = base.lowercased()
        if parts.count == 2 {
            let region = parts[1]
            // A region is upper case (CN, BR); a script title case (Mtei).
            candidate += "-" + (region.count == 2 ? region.uppercased() : region.prefix(1).uppercased() + region.dropFirst().lowercased())
        }
        return known.contains(candidate) ? candidate : nil
    }
}
