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
    let archive: AccessArchive

    public init(users: UserService, groupChannels: GroupChannelService, files: FileService, archives: SignedLinks, batchSize: Int) {
        erasure = UserErasure(users: users, groupChannels: groupChannels, files: files, messageBatch: batchSize)
        archive = AccessArchive(files: files, links: archives, messageBatch: batchSize)
    }

    public func run(_ job: RunningJob) async throws -> String {
        let request = try JSONDecoder().decode(GDPRRequest.self, from: Data(job.job.params.utf8))
        switch request.action {
        case .delete: return try await erasure.run(job, request)
        case .access: return try await archive.run(job, request)
        }
    }
}
