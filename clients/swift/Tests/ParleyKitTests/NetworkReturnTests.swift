import Foundation
import Testing

@testable import ParleyKit

/// When the network comes back (on Apple platforms, NWPathMonitor says so), a reconnection that
/// waits out a long backoff tries at once.
@Suite struct NetworkReturnTests {
    @Test func aReturningNetworkCutsTheBackoffShort() async throws {
        let server = try await ParleyServer()
        let (bobId, bobToken) = try await server.user("bob")
        var patient = ConnectionSettings()
        patient.initialBackoff = 60
        patient.maximumBackoff = 60
        let bob = ParleyClient(baseURL: server.baseURL, settings: patient)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        server.kill()
        #expect(await eventually { bob.connectionState != .open })
        try await Task.sleep(nanoseconds: 300_000_000)
        try await server.start()
        let connection = try bob.connection()
        let back = await eventually(within: 10) {
            connection.networkBecameAvailable()
            return bob.connectionState == .open
        }
        #expect(back, "still \(bob.connectionState) with a backoff of up to 60 s")
        await bob.disconnect()
        server.stop()
    }
}
