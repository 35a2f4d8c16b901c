import CurlHTTP
import ParleyContainer
import Testing

/// Settings read from the environment: a wrong value stops the start with a message naming the
/// variable.
@Suite struct ConfigTests {
    static let base = [
        "DATABASE_URL": "x", "PARLEY_API_TOKEN": TestServer.apiToken, "PARLEY_FILE_KEY": String(repeating: "A", count: 43) + "="
    ]

    @Test func proxiesLogFormatAndMetricsAreCheckedAtStart() throws {
        let base = Self.base
        let parsed = try Config.fromEnvironment(base.merging(["PARLEY_TRUSTED_PROXIES": " 10.0.0.0/8 , ::1,172.16.0.0/12"]) { $1 })
        #expect(parsed.trustedProxies.map(\.description) == ["10.0.0.0/8", "::1", "172.16.0.0/12"])
        for bad in ["10.0.0.0/33", "10.0.0/8", "example.com", "::1/129", "10.0.0.0/08", "10.0.0.0/"] {
            #expect(throws: ConfigError.self) { try Config.fromEnvironment(base.merging(["PARLEY_TRUSTED_PROXIES": bad]) { $1 }) }
        }
        #expect(throws: ConfigError.self) { try Config.fromEnvironment(base.merging(["PARLEY_LOG_FORMAT": "xml"]) { $1 }) }
        #expect(throws: ConfigError.self) { try Config.fromEnvironment(base.merging(["PARLEY_METRICS_PORT": "70000"]) { $1 }) }
        #expect(try Config.fromEnvironment(base).metrics == .apiToken)
        #expect(
            try Config.fromEnvironment(base.merging(["PARLEY_METRICS_PORT": "9100"]) { $1 }).metrics == .port(host: "127.0.0.1", port: 9100)
        )
    }

    /// Issue 51.3: `DATABASE_READ_URL` is optional; given, its replicas must be told apart.
    @Test func readReplicasAreOptionalAndChecked() throws {
        #expect(try Config.fromEnvironment(Self.base).readReplicas == nil)
        #expect(try Config.fromEnvironment(Self.base.merging(["DATABASE_READ_URL": ""]) { $1 }).readReplicas == nil)
        let url = "postgresql://parley@db2:5432,db3:5432/parley?target_session_attrs=standby"
        let plain = try #require(try Config.fromEnvironment(Self.base.merging(["DATABASE_READ_URL": url]) { $1 }).readReplicas)
        #expect(plain.url == url && plain.poolSize == 16 && plain.monitor.maxLag == .seconds(2))
        let tuned = try #require(
            try Config.fromEnvironment(
                Self.base.merging(["DATABASE_READ_URL": url, "PARLEY_DB_READ_POOL_SIZE": "4", "PARLEY_DB_READ_MAX_LAG_MS": "500"]) { $1 }
            ).readReplicas)
        #expect(tuned.poolSize == 4 && tuned.monitor.maxLag == .milliseconds(500))
        for bad in [
            ["DATABASE_READ_URL": "host=db2,db3 hostaddr=10.0.0.2,10.0.0.3"], ["DATABASE_READ_URL": url, "PARLEY_DB_READ_MAX_LAG_MS": "50"],
            ["DATABASE_READ_URL": url, "PARLEY_DB_READ_POOL_SIZE": "0"]
        ] {
            #expect(throws: ConfigError.self) { try Config.fromEnvironment(Self.base.merging(bad) { $1 }) }
        }
    }

    @Test func queueWorkersRunUnlessTurnedOff() throws {
        #expect(try Config.fromEnvironment(Self.base).queueWorkers)
        #expect(try !Config.fromEnvironment(Self.base.merging(["PARLEY_QUEUE_WORKERS": "false"]) { $1 }).queueWorkers)
        #expect(throws: ConfigError.self) { try Config.fromEnvironment(Self.base.merging(["PARLEY_QUEUE_WORKERS": "sometimes"]) { $1 }) }
    }

    @Test func eachTranslationProviderStartsWithTheSettingsItNeeds() throws {
        for provider in ["google", "deepl"] {
            let keyed = try Config.fromEnvironment(
                Self.base.merging(["PARLEY_TRANSLATION_PROVIDER": provider, "PARLEY_TRANSLATION_KEY": "k"]) { $1 })
            #expect(keyed.translation.provider.rawValue == provider)
            #expect(throws: ConfigError.self) {
                try Config.fromEnvironment(Self.base.merging(["PARLEY_TRANSLATION_PROVIDER": provider]) { $1 })
            }
        }
        let libre = try Config.fromEnvironment(
            Self.base.merging(["PARLEY_TRANSLATION_PROVIDER": "libretranslate", "PARLEY_TRANSLATION_URL": "http://lt:5000"]) { $1 })
        #expect(libre.translation.provider.rawValue == "libretranslate")
        #expect(throws: ConfigError.self) {
            try Config.fromEnvironment(
                Self.base.merging(["PARLEY_TRANSLATION_PROVIDER": "libretranslate", "PARLEY_TRANSLATION_URL": "ftp://lt"]) { $1 })
        }
        #expect(throws: ConfigError.self) { try Config.fromEnvironment(Self.base.merging(["PARLEY_TRANSLATION_PROVIDER": "babel"]) { $1 }) }
    }
}
