import Crypto
import Foundation

/// AWS Signature Version 4 for S3 requests (the `Authorization` header), written out with
/// swift-crypto rather than libcurl's `CURLOPT_AWS_SIGV4`: libcurl 7.88 cannot be told the
/// payload's hash for a body it does not hold, and the tests reproduce AWS's published example.
public struct SignatureV4: Sendable {
    public let accessKeyID: String
    let secretAccessKey: String
    public let region: String
    public let service: String

    public init(accessKeyID: String, secretAccessKey: String, region: String, service: String = "s3") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.region = region
        self.service = service
    }

    /// The SHA-256 of an empty payload, the hash of every request without a body.
    public static let emptyPayloadHash = hex(SHA256.hash(data: [UInt8]()))

    /// The headers to add to a request (`x-amz-date`, `x-amz-content-sha256`, `Authorization`).
    /// - Parameters:
    ///   - path: the request's path, already percent-encoded as it is sent.
    ///   - query: the query's pairs, not yet encoded.
    ///   - headers: the other headers to sign (`host` is required), names in any case.
    ///   - payloadHash: the body's SHA-256 in hex (`emptyPayloadHash` without one).
    public func sign(
        method: String, path: String, query: [(String, String)], headers: [(String, String)], payloadHash: String, date: Date
    ) -> [(String, String)] {
        let (amzDate, day) = Self.timestamps(date)
        var signed = headers.map { ($0.0.lowercased(), $0.1.trimmingCharacters(in: .whitespaces)) }
        signed += [("x-amz-content-sha256", payloadHash), ("x-amz-date", amzDate)]
        signed.sort { $0.0 < $1.0 }
        let signedNames = signed.map(\.0).joined(separator: ";")
        let canonicalRequest = [
            method, path, Self.canonicalQuery(query), signed.map { "\($0.0):\($0.1)\n" }.joined(), signedNames, payloadHash
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Array(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Array(("AWS4" + secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key))
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope), SignedHeaders=\(signedNames), Signature=\(signature)"
        return [("x-amz-date", amzDate), ("x-amz-content-sha256", payloadHash), ("Authorization", authorization)]
    }

    /// `20130524T000000Z` and `20130524`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let amzDate = formatter.string(from: date)
        return (amzDate, String(amzDate.prefix(8)))
    }

    /// The query sorted by name then value, each percent-encoded as SigV4 requires.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        query.map { (encode($0.0), encode($0.1)) }.sorted { $0 < $1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters (and `/` when
    /// `keepSlash`, for object keys in paths).
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                encoded.append("/")
            default:
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
