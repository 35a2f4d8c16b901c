import ParleyCore
import ParleyPush

/// The push providers' settings (API.md §12.5, `docs/PUSH.md` says how to obtain each).
extension Config {
    static func readPush(into config: inout Config, _ reader: EnvironmentReader) throws {
        func text(_ name: String) -> String? { reader.environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var push = PushProviderSettings()
        push.apnsKeyFile = text("PARLEY_APNS_KEY_FILE")
        push.apnsKeyID = text("PARLEY_APNS_KEY_ID") ?? ""
        push.apnsTeamID = text("PARLEY_APNS_TEAM_ID") ?? ""
        push.apnsTopic = text("PARLEY_APNS_TOPIC") ?? ""
        push.apnsURL = text("PARLEY_APNS_URL") ?? push.apnsURL
        push.fcmCredentialsFile = text("PARLEY_FCM_CREDENTIALS_FILE")
        push.fcmURL = text("PARLEY_FCM_URL") ?? push.fcmURL
        push.hmsAppID = text("PARLEY_HMS_APP_ID")
        push.hmsAppSecret = text("PARLEY_HMS_APP_SECRET") ?? ""
        push.hmsTokenURL = text("PARLEY_HMS_TOKEN_URL") ?? push.hmsTokenURL
        push.hmsURL = text("PARLEY_HMS_URL") ?? push.hmsURL
        push.vapidKeyFile = text("PARLEY_VAPID_PRIVATE_KEY_FILE")
        push.vapidSubject = text("PARLEY_VAPID_SUBJECT") ?? ""
        push.caFile = text("PARLEY_PUSH_CA_FILE")
        if let services = reader.list("PARLEY_WEBPUSH_SERVICES") {
            do { push.webPushServices = try WebPushServices(services) } catch { throw ConfigError("PARLEY_WEBPUSH_SERVICES: \(error)") }
        }
        config.pushProviders = push
        config.push.concurrency = try reader.int("PARLEY_PUSH_CONCURRENCY", default: config.push.concurrency, range: 1...10_000)
    }
}
