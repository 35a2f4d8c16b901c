import Foundation
import ParleyCore
import ParleyFiles
import ParleyStore

/// Carries out data exports of one data type (the jobs of kind `export_<data type>`, API.md §14.2): the records a page at a
/// time, streamed into an encrypted stored file (memory stays flat whatever the size), linked by
/// the job's result until the link expires. Written in one run, the lease renewed with each page;
/// a run that dies is started over by the next.
public struct ExportJob: JobHandler {
    public let kind: String
    let files: FileService
    let links: SignedLinks
    let pageSize: Int

    public init(_ dataType: ExportKind, files: FileService, links: SignedLinks, pageSize: Int) {
        self.kind = ExportRequest.jobKind(dataType)
        self.files = files
        self.links = links
        self.pageSize = pageSize
    }

    private struct Progress: Codable, Sendable {}

    public func run(_ job: RunningJob) async throws -> String {
        let request = try JSONDecoder().decode(ExportRequest.self, from: Data(job.job.params.utf8))
        let (store, pageSize) = (job.store, pageSize)
        var file = ExportFile(request)
        let stored = try await files.storeGenerated { sink in
            try await sink.write(file.header)
            var cursor = ExportCursor.start
            while true {
                _ = try await job.step({ _, _ in }, from: Progress())
                let page = try await store.read { [cursor] in try $0.exports.page(request, after: cursor, limit: pageSize) }
                guard let last = page.last else { break }
                var chunk = Data()
                for row in page { file.append(row, to: &chunk) }
                try await sink.write(chunk)
                cursor = last.cursor
            }
            try await sink.write(file.footer)
        }
        let result = ExportResult(fileID: stored.fileID, expiresAt: job.clock.nowMillis + links.lifetimeMillis, records: file.records)
        return String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    }
}

/// What a finished export stored as its result (`FileRepository.known` reads `fileID` and
/// `expiresAt`).
struct ExportResult: Codable {
    var fileID: String
    var expiresAt: Int64
    var records: Int
}
