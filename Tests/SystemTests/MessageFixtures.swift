import Foundation
import Testing

/// What the message suites share: sending several messages in a row.
protocol MessageFixtures {}

extension MessageFixtures {
    /// Sends `count` messages from `sender` and returns their ids in send order.
    func sendMany(_ api: API, _ url: String, _ count: Int, as credential: Credential, prefix: String = "m") async throws -> [Int] {
        var ids: [Int] = []
        for index in 0..<count {
            let response = try await api.post("/v3/group_channels/\(url)/messages", ["message": "\(prefix)\(index)"], as: credential)
            #expect(response.status == 201, "\(response.text)")
            ids.append(try response.decode(MessageBody.self).messageID)
        }
        return ids
    }
}
