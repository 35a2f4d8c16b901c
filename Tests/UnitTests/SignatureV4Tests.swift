import Foundation
import S3Storage
import Testing

/// Signature Version 4 as AWS documents it: the "GET Object" example of the S3 API reference
/// ("Authenticating Requests: Using the Authorization Header"), reproduced to the signature.
@Suite struct SignatureV4Tests {
    @Test func awsGetObjectExampleIsReproduced() {
        let signer = SignatureV4(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
        let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
        let headers = signer.sign(
            method: "GET", path: "/test.txt", query: [],
            headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")],
            payloadHash: SignatureV4.emptyPayloadHash, date: date)
        let authorization = headers.first { $0.0 == "Authorization" }?.1
        #expect(
            authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(headers.first { $0.0 == "x-amz-date" }?.1 == "20130524T000000Z")
    }

    @Test func queriesAndKeysAreEncodedAsSigV4Wants() {
        #expect(SignatureV4.encode("a b/c~d*", keepSlash: true) == "a%20b/c~d%2A")
        #expect(SignatureV4.encode("a/b") == "a%2Fb")
        #expect(SignatureV4.emptyPayloadHash == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
