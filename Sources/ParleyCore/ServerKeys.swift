import Crypto

/// The keys the server signs and protects things with, each derived from the master key
/// (`PARLEY_FILE_KEY`) for one purpose with HKDF-SHA256: knowing one derived key reveals neither
/// the master key nor another purpose's key, and none of them depends on the API token, which
/// an operator may rotate.
public struct ServerKeys: Sendable {
    /// Signs page tokens (API.md §1.6).
    public let pageTokens: SymmetricKey
    /// Keys the HMAC that channel access codes are stored as.
    public let accessCodes: SymmetricKey
    /// Signs file auth keys (API.md §5.3).
    public let fileAuthKeys: SymmetricKey
    /// Signs the download links of GDPR access archives (API.md §14.1).
    public let archiveLinks: SymmetricKey

    public init(masterKey: SymmetricKey) {
        pageTokens = Self.derive(masterKey, "parley page tokens v1")
        accessCodes = Self.derive(masterKey, "parley access codes v1")
        fileAuthKeys = Self.derive(masterKey, "parley file auth keys v1")
        archiveLinks = Self.derive(masterKey, "parley archive links v1")
    }

    private static func derive(_ masterKey: SymmetricKey, _ purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey, info: Array(purpose.utf8), outputByteCount: 32)
    }
}
