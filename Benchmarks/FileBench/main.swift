// In-process measurements for scripts/bench/files (run in release mode):
//   parley-file-bench crypto MIB       encrypt MIB MiB through the stored-file writer (to tmpfs)
//                                     and decrypt it back, one core; prints MB/s
//   parley-file-bench thumbnails FILE  thumbnail FILE to 100, 200 and 400 px boxes; prints ms
import Foundation
import ParleyFiles

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func crypto(mebibytes: Int) async throws {
    let keyring = try FileKeyring(masterKey: (0..<32).map { _ in UInt8.random(in: 0...255) })
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = "\(folder)/parley-bench-\(UUID().uuidString)"
    defer { unlink(path) }
    let block = [UInt8]((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let bytes = Double(mebibytes << 20)
    // Warm up once, then measure the best of three of each direction.
    var encrypt = Double.infinity
    var decrypt = Double.infinity
    for _ in 0..<4 {
        unlink(path)
        let writer = try EncryptedFileWriter(fileID: "bench", temporaryPath: path + ".part", finalPath: path, keyring: keyring)
        encrypt = min(
            encrypt,
            try await seconds {
                for _ in 0..<mebibytes { try block.withUnsafeBytes { try writer.append($0) } }
                try writer.commit()
            })
        let reader = try await EncryptedFileReader.open(path: path, fileID: "bench", keyring: keyring)
        decrypt = min(
            decrypt,
            try await seconds {
                for index in 0..<reader.chunkCount { _ = try await reader.chunk(index) }
            })
    }
    print(String(format: "file_write_MBps %.0f", bytes / encrypt / 1e6))
    print(String(format: "file_read_MBps %.0f", bytes / decrypt / 1e6))
    // The cipher alone, chunk by chunk as stored files use it: the number to set next to
    // `openssl speed -evp aes-256-gcm -bytes 65536`.
    let cipher = ChunkCipher.random()
    let chunk = Array(block.prefix(cipher.chunkSize))
    let sealed = Array(try chunk.withUnsafeBytes { try cipher.seal($0, chunk: 0, isLast: false) })
    let chunks = mebibytes << 20 / cipher.chunkSize
    var seal = Double.infinity
    var open = Double.infinity
    for _ in 0..<4 {
        seal = min(
            seal,
            try await seconds {
                for index in 0..<chunks { _ = try chunk.withUnsafeBytes { try cipher.seal($0, chunk: index, isLast: false) } }
            })
        open = min(
            open,
            try await seconds {
                for _ in 0..<chunks { _ = try cipher.open(sealed[...], chunk: 0, isLast: false) }
            })
    }
    print(String(format: "encrypt_MBps %.0f", bytes / seal / 1e6))
    print(String(format: "decrypt_MBps %.0f", bytes / open / 1e6))
}

func thumbnails(of path: String) async throws {
    try Thumbnailer.start(cacheMaxBytes: 0, concurrency: min(ProcessInfo.processInfo.activeProcessorCount, 4))
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let thumbnailer = Thumbnailer(maxPixels: 100_000_000, timeLimitSeconds: 60)
    let boxes = [100, 200, 400].map { ThumbnailBox(width: $0, height: $0) }
    _ = try thumbnailer.thumbnails(of: bytes, boxes: boxes)
    var samples: [Double] = []
    for _ in 0..<5 { samples.append(try await seconds { _ = try thumbnailer.thumbnails(of: bytes, boxes: boxes) }) }
    print(String(format: "thumbnails_ms %.1f", samples.sorted()[samples.count / 2] * 1000))
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "crypto": try await crypto(mebibytes: Int(arguments.dropFirst(2).first ?? "") ?? 256)
case "thumbnails" where arguments.count == 3: try await thumbnails(of: arguments[2])
default:
    FileHandle.standardError.write(Data("usage: parley-file-bench crypto [MIB] | thumbnails FILE\n".utf8))
    exit(2)
}
