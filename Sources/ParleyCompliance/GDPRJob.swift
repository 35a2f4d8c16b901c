import Foundation
import ParleyChat
import ParleyCore
import ParleyFiles
import ParleyUsers

/// Carries out GDPR requests (the jobs of kind `gdpr`): a deletion (`UserErasure`) or an access
/// archive (`AccessArchive`).
public struct GDPRJob: JobHandler {
    public let kind = GDPRRequest.jobKind
    let erasure: UserErasure

    public init(users: UserService, groupChannels: GroupChannelService, files: FileService, batchSize: Int) {
        erasure = UserErasure(users: users, groupChannels: groupChannels, files: files, messageBatch: batchSize)
    }

    public func run(_ job: RunningJob) async throws -> String {
        let request = try JSONDecoder().decode(GDPRRequest.self, from: Data(job.job.params.utf8))
        switch request.action {
        case .delete: return try await erasure.run(job, request)
        case .access: throw ParleyError.invalidValue("action", "access archives are not built yet")
        }
    }
}
