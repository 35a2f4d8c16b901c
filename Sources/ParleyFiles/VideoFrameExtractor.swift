import Foundation

#if canImport(Glibc)
    import Glibc
#endif

public enum VideoFrameError: Error, Equatable {
    /// No executable at the configured path or on PATH.
    case ffmpegNotFound(String)
    /// ffmpeg could not be started, or the in-memory input file could not be made.
    case launchFailed(String)
    /// ffmpeg ran past the time limit and was killed.
    case timedOut
    /// ffmpeg's output went over the cap; it was killed.
    case outputTooLarge(Int)
    /// ffmpeg exited with this status: not a video it decodes, a format not allowed, no video stream, ...
    case failed(status: Int32)
    /// ffmpeg exited cleanly but wrote no image.
    case noFrame
}

/// Extracts the first video frame of an upload as a JPEG, by running ffmpeg.
///
/// The bytes never touch the disk: they go to an anonymous memory file (memfd) that becomes
/// ffmpeg's standard input, which ffmpeg opens again as `/dev/stdin`. Unlike a pipe, that is a
/// seekable file, so MP4s with their index (`moov`) at the end work too.
///
/// `firstFrame` blocks until ffmpeg is done: call it from a thread that may block.
public struct VideoFrameExtractor: Sendable {
    public let ffmpegPath: String
    public let timeLimitSeconds: Double
    /// Cap on the image ffmpeg writes; beyond it ffmpeg is killed.
    public let maxOutputBytes: Int
    /// The frame is scaled down (never up) to fit maxDimension × maxDimension; 0 keeps it as is.
    public let maxDimension: Int
    /// ffmpeg demuxers allowed to open the input (`-format_whitelist`). The default admits MP4,
    /// QuickTime, Matroska and WebM, and so shuts out the playlist formats (HLS, concat, ...)
    /// through which a crafted file could make ffmpeg read other local files.
    public let allowedDemuxers: [String]

    public static let defaultDemuxers = ["mov", "mp4", "m4a", "3gp", "3g2", "mj2", "matroska", "webm"]

    public init(
        ffmpegPath: String = "ffmpeg", timeLimitSeconds: Double,
        maxOutputBytes: Int = 32 << 20, maxDimension: Int = 2048,
        allowedDemuxers: [String] = VideoFrameExtractor.defaultDemuxers
    ) {
        self.ffmpegPath = ffmpegPath
        self.timeLimitSeconds = timeLimitSeconds
        self.maxOutputBytes = maxOutputBytes
        self.maxDimension = maxDimension
        self.allowedDemuxers = allowedDemuxers
    }

    /// The arguments ffmpeg is run with; the input is its standard input.
    var arguments: [String] {
        var arguments = [
            "-hide_banner", "-loglevel", "error",
            // Keyboard commands off. ffmpeg turns them off by itself for input "/dev/stdin", but
            // say it: with them on, ffmpeg would read "commands" ('q' = quit) from fd 0, i.e. the video.
            "-nostdin",
            // Input options: only the file protocol (the input), only the allowed demuxers.
            "-protocol_whitelist", "file",
            "-format_whitelist", allowedDemuxers.joined(separator: ","),
            "-i", "/dev/stdin",
            // The first frame of the first video stream; nothing else.
            "-map", "0:v:0", "-an", "-sn", "-dn", "-frames:v", "1"
        ]
        if maxDimension > 0 {
            arguments += [
                "-vf",
                "scale=w='min(iw,\(maxDimension))':h='min(ih,\(maxDimension))':force_original_aspect_ratio=decrease"
            ]
        }
        // JPEG at high quality: a video frame has no alpha, and JPEG thumbnails of photos-like
        // frames are far smaller than PNG ones.
        arguments += ["-f", "image2pipe", "-c:v", "mjpeg", "-q:v", "2", "pipe:1"]
        return arguments
    }

    public func firstFrame(of bytes: [UInt8]) throws -> [UInt8] {
        let executable = try Self.resolve(ffmpegPath)
        let input = try Self.memoryFile(holding: bytes)
        defer { close(input) }

        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw VideoFrameError.launchFailed("pipe: \(String(cString: strerror(errno)))")
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable, arguments, standardInput: input, standardOutput: writeEnd)
            close(writeEnd)
        } catch {
            close(writeEnd)
            throw VideoFrameError.launchFailed("\(error)")
        }
        let deadline = DispatchTime.now() + .nanoseconds(Self.nanoseconds(timeLimitSeconds))

        // Drain stdout on its own thread while ffmpeg runs, so that ffmpeg never blocks on a full
        // pipe while we wait for it.
        let reader = OutputReader(fd: readEnd, cap: maxOutputBytes) {
            child.kill()  // over the cap: stop ffmpeg rather than read on
        }
        Thread { reader.run() }.start()

        // End of file on stdout: ffmpeg has written its frame and is exiting; give it until the
        // deadline to be gone.
        var timedOut = !reader.wait(until: deadline)
        var termination = timedOut ? nil : child.poll()
        while !timedOut, termination == nil {
            if DispatchTime.now() >= deadline {
                timedOut = true
            } else {
                usleep(1000)
                termination = child.poll()
            }
        }
        if timedOut {
            child.kill()
            termination = child.wait()
        }
        // ffmpeg is gone, so the pipe's write end is closed and the reader reaches end of file.
        let (data, overflowed) = reader.result()

        if timedOut { throw VideoFrameError.timedOut }
        if overflowed { throw VideoFrameError.outputTooLarge(maxOutputBytes) }
        guard termination == .exited(0) else {
            if case .exited(let status) = termination { throw VideoFrameError.failed(status: status) }
            throw VideoFrameError.failed(status: -1)
        }
        // A JPEG starts with its SOI marker.
        guard data.starts(with: [0xFF, 0xD8, 0xFF]) else {
            throw VideoFrameError.noFrame
        }
        return data
    }

    private static func nanoseconds(_ seconds: Double) -> Int {
        guard seconds > 0 else { return 0 }
        return seconds >= Double(Int.max) / 1e9 ? Int.max : Int(seconds * 1e9)
    }

    /// A path as given, or the first executable of that name on PATH.
    static func resolve(_ name: String) throws -> String {
        if name.contains("/") {
            guard access(name, X_OK) == 0 else { throw VideoFrameError.ffmpegNotFound(name) }
            return name
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw VideoFrameError.ffmpegNotFound(name)
    }

    /// An anonymous file in RAM (memfd_create) holding bytes, its offset back at 0. It has no name
    /// in any file system and disappears with its last descriptor.
    static func memoryFile(holding bytes: [UInt8]) throws -> Int32 {
        guard let create = memfdCreate else {
            throw VideoFrameError.launchFailed("memfd_create is not available")
        }
        let fd = create("parley-video", 1 /* MFD_CLOEXEC */)
        guard fd >= 0 else {
            throw VideoFrameError.launchFailed("memfd_create: \(String(cString: strerror(errno)))")
        }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        guard written, lseek(fd, 0, SEEK_SET) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw VideoFrameError.launchFailed("memory file: \(reason)")
        }
        return fd
    }

    /// Glibc's Swift module does not export memfd_create (it is behind _GNU_SOURCE in <sys/mman.h>),
    /// so look the symbol up in the C library instead (glibc ≥ 2.27).
    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    private static let memfdCreate: MemfdCreate? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0) /* RTLD_DEFAULT */, "memfd_create") else {
            return nil
        }
        return unsafeBitCast(symbol, to: MemfdCreate.self)
    }()
}
