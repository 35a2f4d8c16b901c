import Foundation
import ParleyCore

/// A GDPR request as registered (API.md §14.1, Sendbird's `registerGdprRequestData`): the `params`
/// of its job.
public struct GDPRRequest: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable {
        /// An archive of everything the user's data is (right of access, Art. 15).
        case access
        /// The user and the content of everything they sent erased (right to erasure, Art. 17).
        case delete
    }

    /// Which of the user's group channels a deletion takes with them.
    public enum ChannelDeleteOption: String, Codable, Sendable, CaseIterable {
        case doNotDelete = "do_not_delete"
        case oneToOne = "1_on_1"
        case all
    }

    public let action: Action
    /// The users named by the request; once a deletion is done, their pseudonyms (`erased`).
    public private(set) var userIDs: [String]
    public let channelDeleteOption: ChannelDeleteOption
    /// What the erased users' ids become in the records that stay (reports, the audit log,
    /// stored events): the same within a request, so a moderator still sees which reports were
    /// about the same person, and linked to nothing.
    public let pseudonyms: [String]

    /// The most users one request erases (Sendbird's limit).
    public static let maxUsers = 100

    public init(action: Action, userIDs: [String], channelDeleteOption: ChannelDeleteOption) throws {
        guard !userIDs.isEmpty else { throw ParleyError.missing(action == .access ? "user_id" : "user_ids") }
        guard userIDs.count <= Self.maxUsers else {
            throw ParleyError.invalidValue("user_ids", "at most \(Self.maxUsers) users per request")
        }
        guard action == .delete || userIDs.count == 1 else {
            throw ParleyError.invalidValue("user_ids", "an access request is for one user")
        }
        self.action = action
        self.userIDs = userIDs
        self.channelDeleteOption = channelDeleteOption
        self.pseudonyms = userIDs.map { _ in "erased_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16) }
    }

    /// The request as kept once its deletion is done (issue 50.7): it names the erased users by
    /// their pseudonyms only, so that not even the record of their erasure holds their ids.
    var erased: GDPRRequest {
        var kept = self
        kept.userIDs = pseudonyms
        return kept
    }

    /// The job kind of GDPR requests.
    public static let jobKind = "gdpr"
}

/// A GDPR request as the API shows it: the request, its job's state and what it did.
public struct GDPRRequestView: Sendable {
    public let job: Job
    public let request: GDPRRequest
    /// What the finished deletion removed, by kind of thing.
    public let removed: [String: Int]?
    /// The finished access request's archive: its download URL and when that stops working.
    public let archive: (url: String, expiresAt: Int64)?
}
