import Foundation
import HTTPTypes
import Testing

/// `PARLEY_WEB_DIR`: the chat app, console and SDK served as static files, each with a strict
/// Content-Security-Policy; nothing outside their folders; nothing at all when unset.
@Suite struct WebPageTests {
    /// A web folder with an app page, a script and the SDK, and a secret beside it.
    private func webFolder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-web-\(UUID())")
        for (path, text) in [
            "web/app/index.html": "<!doctype html><title>chat</title>", "web/app/main.js": "export const app = 1;",
            "web/sdk/index.js": "export const sdk = 1;", "secret.txt": "do not serve"
        ] {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return root.appendingPathComponent("web").path
    }

    @Test func pagesAreServedWithAStrictPolicyAndNothingElse() async throws {
        let folder = try webFolder()
        try await TestServer.withAPI({ $0.webDirectory = folder }) { api in
            let page = try await api.get("/app/", as: .none)
            #expect(page.status == 200 && page.text.contains("<title>chat</title>"))
            let policy = page.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
            #expect(
                policy.contains("script-src 'self';") && policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"))
            #expect(page.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            #expect(page.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let script = try await api.get("/app/main.js", as: .none)
            #expect(script.status == 200 && script.headers[.contentType]?.contains("javascript") == true)
            #expect(try await api.get("/sdk/index.js", as: .none).text == "export const sdk = 1;")
            // Nothing outside the folders, however the path is spelled.
            for path in ["/app/../../secret.txt", "/app/%2e%2e/%2e%2e/secret.txt", "/app/..%2f..%2fsecret.txt", "/sdk/../../secret.txt"] {
                let escape = try await api.get(path, as: .none)
                #expect(escape.status >= 400 && !escape.text.contains("do not serve"), "\(path): \(escape.status)")
            }
            let missing = try await api.get("/app/missing.js", as: .none)
            #expect(missing.status == 404)
            #expect(try await api.get("/console/", as: .none).status == 404)
            #expect(try await api.post("/app/", as: .none).status >= 400)
            // The API is unchanged: still behind its token, without the page policy.
            let users = try await api.get("/v3/users", as: .none)
            #expect(users.status == 401 && users.headers[HTTPField.Name("Content-Security-Policy")!] == nil)
        }
    }

    @Test func withoutAFolderThereAreNoPages() async throws {
        try await TestServer.withAPI { api in
            let (page, sdk) = (try await api.get("/app/", as: .none), try await api.get("/sdk/index.js", as: .none))
            #expect(page.status == 404 && sdk.status == 404)
        }
    }
}
