import Foundation
import Testing

/// Issue 17, point 1: `GET /metrics` through swift-metrics and swift-prometheus, never public by
/// accident. Run against a `parley serve` process: the metrics backend is bootstrapped once per
/// process, by the server.
@Suite struct MetricsTests {
    @Test func onTheAPIPortOnlyTheApiTokenReadsThem() async throws {
        // A database of its own: a server process on the common one would read the event log of
        // every other test running meanwhile.
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let process = try await ServerProcess(environment: ["DATABASE_URL": database])
                defer { process.stop() }
                let cast = try await api.cast("metrics", 2)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
                let anonymous = try await process.request("GET", "/metrics")
                #expect(anonymous.status == 401)
                #expect(anonymous.text.contains("400401"))
                let session = try await process.request("GET", "/metrics", headers: ["Session-Token": cast.tokens[cast[0]]!])
                #expect(session.status == 401)
                let wrong = try await process.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken + "x"])
                #expect(wrong.status == 401)

                #expect(
                    try await process.request("GET", "/v3/users/no-such-user", headers: ["Api-Token": TestServer.apiToken]).status == 404)
                let socket = EventSocket(port: process.port, token: cast.tokens[cast[1]]!)
                _ = try await socket.hello()
                let sent = try await process.request(
                    "POST", "/v3/group_channels/\(channel)/messages", headers: ["Session-Token": cast.tokens[cast[0]]!],
                    body: #"{"message":"counted"}"#)
                #expect(sent.status == 201)
                _ = try await socket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "counted" }

                let scraped = try await process.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken])
                #expect(scraped.status == 200)
                #expect(scraped.text.lowercased().contains("content-type: text/plain; version=0.0.4"))
                let samples = Self.samples(scraped.text)
                #expect(samples[#"parley_http_requests_total{route="/v3/users/{user_id}",method="GET",status="404"}"#] == 1)
                #expect(samples[#"parley_http_requests_total{route="/metrics",method="GET",status="401"}"#] == 3)
                #expect(
                    samples[#"parley_http_requests_total{route="/v3/group_channels/{channel_url}/messages",method="POST",status="201"}"#]
                        == 1)
                #expect(samples[#"parley_http_request_duration_seconds_count{route="/v3/users/{user_id}",method="GET",status="404"}"#] == 1)
                #expect(samples["parley_event_sockets_open"] == 1)
                #expect((samples["parley_events_delivered_total"] ?? 0) >= 1)
                #expect((samples["parley_db_connection_wait_seconds_count"] ?? 0) >= 1)
                #expect((samples["parley_db_pipeline_batch_size_count"] ?? 0) >= 1)
                #expect(samples["parley_db_connections_in_use"] != nil)
                #expect(samples["parley_db_connection_waiters"] == 0)
                #expect(samples["parley_webhook_queue_pending"] == 0)
                // Nothing identifying a user or a channel is a label.
                #expect(!scraped.text.contains(cast[0]) && !scraped.text.contains(channel))
                socket.close()
            }
        }
    }

    /// The outbound and file figures: a translation that works and one the provider refuses, a
    /// link whose page cannot be reached, an image upload with its thumbnail.
    @Test func providersUploadsAndThumbnailsAreCounted() async throws {
        let provider = FakeTranslationProvider(.google)
        try await provider.run { providerURL in
            try await OwnDatabase.with { database in
                try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                    let process = try await ServerProcess(environment: [
                        "DATABASE_URL": database, "PARLEY_TRANSLATION_PROVIDER": "google", "PARLEY_TRANSLATION_URL": providerURL,
                        "PARLEY_TRANSLATION_KEY": provider.key, "PARLEY_OUTBOUND_ALLOW_HOSTS": "127.0.0.1:9",
                        // Its own address would never be previewed.
                        "PARLEY_PUBLIC_URL": "http://files.test"
                    ])
                    defer { process.stop() }
                    let cast = try await api.cast("counted", 1)
                    let channel = try await api.createChannel(["user_ids": [cast[0]]])
                    let session = ["Session-Token": cast.tokens[cast[0]]!]
                    let base = "/v3/group_channels/\(channel)/messages"
                    // Nothing listens on port 9: the preview's fetch fails.
                    let sent = try await process.request(
                        "POST", base, headers: session, body: #"{"message":"see http://127.0.0.1:9/page"}"#)
                    #expect(sent.status == 201)
                    let body = sent.text.components(separatedBy: "\r\n\r\n").dropFirst().joined()
                    let message = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                    let id = try #require(message?["message_id"] as? Int)
                    let path = "\(base)/\(id)/translation"
                    #expect(try await process.request("POST", path, headers: session, body: #"{"target_langs":["es"]}"#).status == 200)
                    provider.script([
                        .fail(status: 400, body: #"{"error":{"code":400,"message":"Bad language","errors":[{"reason":"invalid"}]}}"#)
                    ])
                    #expect(try await process.request("POST", path, headers: session, body: #"{"target_langs":["fr"]}"#).status != 200)

                    let image = try Media.jpeg(64, 48)
                    let boundary = "counted-\(UUID())"
                    var form = Array(
                        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"thumbnail1\"\r\n\r\n32x32\r\n"
                            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n"
                            + "Content-Type: image/jpeg\r\n\r\n").utf8)
                    form += image + Array("\r\n--\(boundary)--\r\n".utf8)
                    let uploaded = try await process.request(
                        "POST", base, headers: session.merging(["Content-Type": "multipart/form-data; boundary=\(boundary)"]) { $1 },
                        bytes: form)
                    #expect(uploaded.status == 201, "\(uploaded.text)")

                    var samples: [String: Double] = [:]
                    #expect(
                        try await eventually {
                            samples = Self.samples(
                                try await process.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken]).text)
                            return samples["parley_link_preview_errors_total"] == 1
                        })
                    #expect(samples["parley_link_preview_fetches_total"] == 1)
                    #expect(samples["parley_translation_calls_total"] == 2)
                    #expect(samples["parley_translation_errors_total"] == 1)
                    #expect(samples["parley_uploads_total"] == 1)
                    #expect(samples["parley_upload_bytes_total"] == Double(image.count))
                    #expect(samples[#"parley_thumbnails_total{outcome="made"}"#] == 1)
                    #expect(samples["parley_thumbnail_seconds_count"] == 1)
                }
            }
        }
    }

    @Test func onAPortOfTheirOwnTheyNeedNoTokenAndLeaveTheAPIPort() async throws {
        try await OwnDatabase.with { database in
            let metricsPort = try ServerProcess.freePort()
            let process = try await ServerProcess(environment: ["DATABASE_URL": database, "PARLEY_METRICS_PORT": String(metricsPort)])
            defer { process.stop() }
            #expect(try await process.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken]).status == 404)
            #expect(try await process.request("GET", "/health").status == 200)
            let scraped = try await process.request("GET", "/metrics", port: metricsPort)
            #expect(scraped.status == 200)
            // The test's own readiness polls count too.
            #expect((Self.samples(scraped.text)[#"parley_http_requests_total{route="/health",method="GET",status="200"}"#] ?? 0) >= 1)
            // Only /metrics is there.
            #expect(
                try await process.request("GET", "/v3/users", headers: ["Api-Token": TestServer.apiToken], port: metricsPort).status == 404)
        }
    }

    /// Whether an instance runs the shared queues, and its jobs' runs by kind and outcome (the
    /// recurring sweeps run as it starts; the kinds' failures start at 0 for the alert).
    @Test func queueWorkersAndJobRunsAreCounted() async throws {
        try await OwnDatabase.with { database in
            let worker = try await ServerProcess(environment: ["DATABASE_URL": database, "PARLEY_JOBS": "true"])
            defer { worker.stop() }
            let apiOnly = try await ServerProcess(environment: ["DATABASE_URL": database, "PARLEY_QUEUE_WORKERS": "false"])
            defer { apiOnly.stop() }
            let sweep = #"parley_jobs_finished_total{kind="stored_file_sweep",outcome="done"}"#
            var samples: [String: Double] = [:]
            #expect(
                try await eventually(within: .seconds(20)) {
                    samples = Self.samples(try await worker.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken]).text)
                    return samples[sweep] == 1
                }, "\(samples.filter { $0.key.hasPrefix("parley_job") })")
            #expect(samples["parley_queue_workers"] == 1)
            #expect(samples[#"parley_jobs_finished_total{kind="gdpr",outcome="failed"}"#] == 0)
            #expect(samples[#"parley_job_run_seconds_count{kind="stored_file_sweep"}"#] == 1)
            let other = Self.samples(try await apiOnly.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken]).text)
            #expect(other["parley_queue_workers"] == 0)
            #expect(!other.keys.contains { $0.hasPrefix("parley_jobs_finished_total") }, "an API-only instance runs no job")
        }
    }

    /// Issue 50.10: every series the dashboard's panels and the alerts read exists from the start
    /// (at 0 where it counts), so that `rate()` and `increase()` see its first increment and no
    /// panel is empty on an idle server. Read on a fresh instance, after one request.
    @Test func everySeriesTheDashboardAndAlertsReadExistsFromTheStart() async throws {
        try await OwnDatabase.with { database in
            let process = try await ServerProcess(environment: ["DATABASE_URL": database])
            defer { process.stop() }
            #expect(try await process.request("GET", "/v3/users?limit=1", headers: ["Api-Token": TestServer.apiToken]).status == 200)
            let exported = Set(
                Self.samples(try await process.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken]).text).keys
                    .map { String($0.prefix { $0 != "{" }) })
            var named = Set<String>()
            for file in ["deploy/grafana/parley-dashboard.json", "deploy/prometheus/alerts.yml"] {
                let text = try String(contentsOf: TestServer.packageRoot.appendingPathComponent(file), encoding: .utf8)
                let pattern = try Regex("parley_[a-z0-9_]+")
                named.formUnion(text.matches(of: pattern).map { String(text[$0.range]) })
            }
            #expect(named.count > 30, "\(named)")
            let missing = named.filter { !exported.contains($0) }.sorted()
            #expect(missing.isEmpty, "named by a panel or an alert, but not exported yet: \(missing)")
        }
    }

    @Test func turnedOffTheyAreNowhere() async throws {
        try await OwnDatabase.with { database in
            let process = try await ServerProcess(environment: ["DATABASE_URL": database, "PARLEY_METRICS": "false"])
            defer { process.stop() }
            #expect(try await process.request("GET", "/metrics", headers: ["Api-Token": TestServer.apiToken]).status == 404)
        }
    }

    /// `name{labels} value` lines of the exposition, by series.
    static func samples(_ text: String) -> [String: Double] {
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        var samples: [String: Double] = [:]
        for line in body.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }
}
