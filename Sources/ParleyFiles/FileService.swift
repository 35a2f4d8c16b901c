import Foundation
import Logging
import ParleyCore
import ParleyStore

/// Uploaded files (API.md §5): stores uploads encrypted, makes their thumbnails, issues file
/// auth keys and serves downloads to the members of the file's channel.
public struct FileService: Sendable {
    let storage: FileStorage
    let keyring: FileKeyring
    public let authKeys: FileAuthKeys
    let store: Store
    let clock: Clock
    public let settings: FileSettings
    let thumbnails: ThumbnailMaker
    let sourceBudget: ThumbnailSourceBudget
    let logger: Logger

    public init(
        storage: FileStorage, keyring: FileKeyring, authKeys: FileAuthKeys, store: Store, clock: Clock, settings: FileSettings,
        logger: Logger
    ) {
        self.storage = storage
        self.keyring = keyring
        self.authKeys = authKeys
        self.store = store
        self.clock = clock
        self.settings = settings
        self.thumbnails = ThumbnailMaker(
            storage: storage, keyring: keyring, settings: settings, ffmpegSlots: ProcessSlots(settings.ffmpegConcurrency),
            gate: FairGate(
                .init(
                    capacity: settings.thumbnailPixelBudget, runningPerUser: settings.thumbnailJobsPerUser,
                    heldPerUser: 4 * settings.thumbnailJobsPerUser)),
            logger: logger
        )
        self.sourceBudget = ThumbnailSourceBudget(bytes: settings.thumbnailSourceBudgetBytes)
        self.logger = logger
        FileMetrics.prepare()
    }

    /// Starts storing a new file; feed it with `append`, then `finish` (or `abort`) it.
    public func beginUpload() throws -> FileUpload {
        let fileID = FileStorage.newFileID()
        return FileUpload(
            fileID: fileID, writer: try storage.writer(fileID, keyring: keyring),
            maxBytes: settings.maxUploadBytes, sourceMaxBytes: settings.thumbnailSourceMaxBytes, budget: sourceBudget
        )
    }

    /// Makes the thumbnails that fit `boxes` (images and videos; none for anything else) in
    /// `owner`'s turn, and puts the file in place. The file is not served until a message links it.
    public func finish(_ upload: FileUpload, thumbnailBoxes boxes: [ThumbnailBox], owner: String) async throws -> StoredUpload {
        upload.decide()
        let made = boxes.isEmpty ? [] : await thumbnails.make(for: upload, boxes: boxes, owner: owner)
        upload.dropSource()
        do {
            try await storage.commit(upload.writer, upload.fileID)
        } catch {
            await storage.remove([upload.fileID])
            throw error
        }
        let detected: String? =
            switch upload.sniffed {
            case .image(let type), .video(let type): type
            case nil: nil
            }
        FileMetrics.uploads.increment()
        FileMetrics.uploadBytes.increment(by: upload.size)
        return StoredUpload(fileID: upload.fileID, size: upload.size, detectedType: detected, thumbnails: made)
    }

    /// Makes sure the object store's bucket is there and these keys reach it (at start, before
    /// the first upload); nothing to do for the local folder.
    public func prepareStorage() async throws {
        try await storage.objects?.ensureBucket()
    }

    /// Deletes a stored file that no message took (the send failed).
    public func discard(_ fileID: String) async {
        await removeStoredFiles([fileID])
    }

    /// One page of the sweep of stored files (`StoredFileSweepJob`): of the files on the page
    /// last changed more than `gracePeriod` before `now`, removes those that no message, pending
    /// scheduled message or unexpired export links to; fresher ones may belong to a send still
    /// being saved. Returns how many went and the position of the next page (nil: done).
    public func sweepStoredFiles(after: String, now: Date, gracePeriod: TimeInterval) async throws -> (removed: Int, next: String?) {
        let (candidates, next) = try await storage.storedPage(after: after, olderThan: now.addingTimeInterval(-gracePeriod))
        let ids = Array(candidates)
        var removed = 0
        for start in stride(from: 0, to: ids.count, by: 1000) {
            let batch = Array(ids[start..<min(start + 1000, ids.count)])
            let known = try await store.read { try $0.files.known(batch, now: Int64(now.timeIntervalSince1970 * 1000)) }
            let orphans = batch.filter { !known.contains($0) }
            await storage.remove(orphans)
            removed += orphans.count
        }
        return (removed, next)
    }

    /// Deletes the stored bytes of files whose rows are gone (after the removal has committed).
    public func removeStoredFiles(_ fileIDs: [String]) async {
        await storage.remove(fileIDs)
    }

    /// `POST /v3/users/{user_id}/file_auth_key`: a key for the user (the user or the admin).
    public func issueAuthKey(_ caller: Caller, userID: String) async throws -> (auth: String, expiresAt: Int64) {
        try caller.requireActingAs(userID)
        guard let generation = try await store.fetch(FileRepository.keyGeneration(userID: userID)) else {
            throw ParleyError.notFound("User \"\(userID)\" not found.")
        }
        return authKeys.issue(userID: userID, generation: generation, now: clock.nowMillis)
    }

    /// Opens a file (`thumbnail` nil) or one of its thumbnails (1…3) for the caller: the admin,
    /// anyone for a file sent with `require_auth` false, otherwise the holder of a current key
    /// (of the user's current generation, the user active) who is a joined member of the file's
    /// channel (for an open channel, which is public, any such user not banned from it).
    public func download(_ fileID: String, thumbnail: Int?, credential: FileCredential) async throws -> FileDownload {
        var keyHolder: (userID: String, generation: Int64)?
        if case .authKey(let auth) = credential { keyHolder = try authKeys.verify(auth, now: clock.nowMillis) }
        guard FileStorage.isFileID(fileID),
            let access = try await store.fetch(FileRepository.access(fileID: fileID, userID: keyHolder?.userID, now: clock.nowMillis))
        else { throw Self.notFound }
        if access.file.requireAuth && credential != .admin {
            guard let keyHolder else { throw Self.keyRequired }
            guard let current = access.keyHolder, current.generation == keyHolder.generation, current.isActive else {
                throw FileAuthKeys.invalid
            }
            guard access.memberState == .joined else {
                throw ParleyError.forbidden("Only joined members of the file's channel may download it.")
            }
        }
        var name = access.file.name
        var type = access.file.type
        var etag = "\"\(fileID)\""
        if let thumbnail {
            guard access.file.thumbnails.indices.contains(thumbnail - 1) else { throw Self.notFound }
            type = access.file.thumbnails[thumbnail - 1].type
            name = "thumbnail\(thumbnail)-" + name
            etag = "\"\(fileID).t\(thumbnail)\""
        }
        let reader = try await storage.open(fileID, thumbnail: thumbnail, keyring: keyring)
        return FileDownload(name: name, contentType: type, etag: etag, reader: reader)
    }

    static let notFound = ParleyError.notFound("File not found.")
    static let keyRequired = ParleyError.fileKeyRefused("This file needs a file auth key: add ?auth=<key>.")
}

/// How a download proves it may read a file.
public enum FileCredential: Sendable, Equatable {
    case admin
    case authKey(String)
    case none
}

/// An opened stored file, ready to stream.
public struct FileDownload: Sendable {
    public let name: String
    public let contentType: String
    /// Strong: a file id's bytes never change.
    public let etag: String
    let reader: EncryptedFileReader

    public var size: Int64 { reader.plaintextSize }

    /// Decrypts the chunk where `range` starts, so that a corrupt file is refused before any
    /// header is sent rather than cut off mid-body; the result streams the range.
    public func open(_ range: Range<Int64>) async throws -> FileRangeStream {
        guard !range.isEmpty else { return FileRangeStream(reader: reader, range: range, firstChunk: nil) }
        let reader = reader
        let index = Int(range.lowerBound / Int64(reader.chunkSize))
        let first = try await reader.chunk(index)
        return FileRangeStream(reader: reader, range: range, firstChunk: first)
    }
}

/// A byte range of a stored file whose first chunk is already authenticated.
public struct FileRangeStream: Sendable {
    let reader: EncryptedFileReader
    let range: Range<Int64>
    let firstChunk: Data?

    /// Hands out the range a chunk at a time; throws (mid-stream) when a later chunk was
    /// tampered with.
    public func write(_ consume: (Data) async throws -> Void) async throws {
        try await reader.read(range, firstChunk: firstChunk, consume)
    }
}
