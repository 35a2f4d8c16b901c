import Foundation
import ParleyContainer
import ParleyCore
import Testing

/// The application's statistics (API.md §14.5): connections counted over every instance, active
/// users kept in PostgreSQL across restarts.
@Suite struct StatisticsTests {
    @Test func connectionsAreCountedOverEveryInstanceAndTheirPeakKept() async throws {
        try await OwnDatabase.with { database in
            let process = try await ServerProcess(environment: ["DATABASE_URL": database])
            defer { process.stop() }
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.jobs.statisticsInterval = .milliseconds(50)
            }) { api in
                let cast = try await api.cast("ccu", 2)
                #expect(try await Self.ccu(api) == 0)
                let here = [try await api.events(cast.tokens[cast[0]]!), try await api.events(cast.tokens[cast[1]]!)]
                let there = EventSocket(port: process.port, token: cast.tokens[cast[0]]!)
                _ = try await there.hello()
                #expect(try await eventually { try await Self.ccu(api) == 3 })
                let asked = try await process.request("GET", "/v3/applications/ccu", headers: ["Api-Token": TestServer.apiToken])
                #expect(asked.text.hasSuffix(#"{"ccu":3}"#), "the other instance counts the same: \(asked.text)")
                here[0].close()
                #expect(try await eventually { try await Self.ccu(api) == 2 })
                // The day's peak was three; the days around it have none.
                let today = CivilDate(epochDay: Int64(Date.now.timeIntervalSince1970 * 1000) / 86_400_000)
                let yesterday = CivilDate(epochDay: today.epochDay - 1)
                let query =
                    "time_dimension=daily&start_year=\(yesterday.year)&start_month=\(yesterday.month)&start_day=\(yesterday.day)"
                    + "&end_year=\(today.year)&end_month=\(today.month)&end_day=\(today.day)"
                let peaks = try await api.get("/v3/applications/peak_connections?\(query)")
                let series = peaks.rawJSON["peak_connections"] as? [[String: Any]] ?? []
                #expect(series.map { $0["date"] as? String } == [yesterday.text, today.text], "\(peaks.text)")
                #expect(series.map { $0["peak_connections"] as? Int } == [0, 3], "\(peaks.text)")
                let monthly = try await api.get(
                    "/v3/applications/peak_connections?\(query.replacingOccurrences(of: "daily", with: "monthly"))")
                #expect(
                    (monthly.rawJSON["peak_connections"] as? [[String: Any]])?.last?["peak_connections"] as? Int == 3, "\(monthly.text)")
                #expect((monthly.rawJSON["peak_connections"] as? [[String: Any]])?.last?["date"] as? String == today.monthText)
                // Bad parameters are refused.
                let base = "/v3/applications/peak_connections?time_dimension=daily&start_year=2026&start_month=1"
                #expect(try await api.get("\(base)&end_year=2026").code == 400105)
                #expect(try await api.get("\(base)&end_year=2026&end_month=13").code == 400111)
                #expect(try await api.get("\(base)&end_year=2025&end_month=12").code == 400111)
                #expect(try await api.get("\(base)&end_year=2028&end_month=1").code == 400111)
                #expect(try await api.get("\(base)&end_year=x&end_month=1").code == 400101)
                #expect(try await api.get("/v3/applications/ccu", as: cast.session(0)).status == 403)
                there.close()
                here[1].close()
            }
        }
    }

    @Test func activeUsersAreKeptAcrossARestart() async throws {
        try await OwnDatabase.with { database in
            let cast = Captured(Cast(ids: [], tokens: [:]))
            // Written only when the server stops: the interval never comes round.
            try await TestServer.withAPI({ config in
                config.databaseURL = database
                config.jobs.statisticsInterval = .seconds(3600)
            }) { api in
                let users = try await api.cast("dau", 3)
                cast.value = users
                let channel = try await api.createChannel(["user_ids": users.ids])
                // One signs in, one's message is sent for them by the admin, one does nothing.
                #expect(try await api.get("/v3/users/\(users[0])", as: users.session(0)).status == 200)
                #expect(try await api.post("/v3/group_channels/\(channel)/messages", ["user_id": users[1], "message": "hi"]).status == 201)
            }
            try await TestServer.withAPI({ $0.databaseURL = database }) { (api: API) async throws in
                #expect(try await api.get("/v3/applications/dau").rawJSON["dau"] as? Int == 2)
                #expect(try await api.get("/v3/applications/mau").rawJSON["mau"] as? Int == 2)
                #expect(try await api.get("/v3/applications/dau?date=2001-02-03").rawJSON["dau"] as? Int == 0)
                #expect(try await api.get("/v3/applications/dau?date=2001-02-30").code == 400111)
                #expect(try await api.get("/v3/applications/mau?date=yesterday").code == 400111)
                #expect(try await api.get("/v3/applications/dau", as: cast.value.session(2)).status == 403)
                // The advanced analytics count the same day: one message, one sender, one channel, two active.
                let today = CivilDate(epochDay: Int64(Date.now.timeIntervalSince1970 * 1000) / 86_400_000)
                let span =
                    "start_year=\(today.year)&start_month=\(today.month)&start_day=\(today.day)&end_year=\(today.year)&end_month=\(today.month)"
                for (metric, expected) in [("messages", 1), ("message_senders", 1), ("created_channels", 1), ("active_users", 2)] {
                    let daily = try await api.get(
                        "/v3/statistics/metric?metric_type=\(metric)&time_dimension=daily&\(span)&end_day=\(today.day)")
                    #expect(
                        (daily.rawJSON["record"] as? [[String: Any]])?.map { $0["value"] as? Int } == [expected], "\(metric): \(daily.text)"
                    )
                    let monthly = try await api.get("/v3/statistics/metric?metric_type=\(metric)&time_dimension=monthly&\(span)")
                    #expect(
                        (monthly.rawJSON["record"] as? [[String: Any]])?.first?["value"] as? Int == expected, "\(metric): \(monthly.text)")
                }
                #expect(try await api.get("/v3/statistics/metric?metric_type=likes&time_dimension=daily&\(span)").code == 400111)
                #expect(try await api.get("/v3/statistics/metric?time_dimension=daily&\(span)").code == 400105)
            }
        }
    }

    static func ccu(_ api: API) async throws -> Int {
        try await api.get("/v3/applications/ccu").rawJSON["ccu"] as? Int ?? -1
    }
}
