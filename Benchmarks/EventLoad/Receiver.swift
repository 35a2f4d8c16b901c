import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// One socket's receipts: which benchmark messages arrived (a bit each, to tell a duplicate),
/// and how long after their send.
struct Receiver {
    var seen: [UInt64]
    var latencies: [UInt32] = []
    var frames = 0
    var messageEvents = 0
    var duplicates = 0
    var foreign = 0
    var second: UInt64 = 0
    var inSecond = 0
    var maxPerSecond = 0
    var receipts: [(UInt64, Int)] = []
    let messageCount: Int

    init(messageCount: Int) {
        self.messageCount = messageCount
        seen = Array(repeating: 0, count: (messageCount + 63) / 64)
        latencies.reserveCapacity(messageCount)
    }

    static let messageType = Array(#""type":"message_received""#.utf8)
    static let marker = Array("evtbench:".utf8)

    enum Receipt {
        case other
        case messageEvent
        /// A message event of a benchmark message this socket had not received before.
        case newBenchmarkMessage
    }

    /// Counts a frame and tells what it was.
    mutating func absorb(_ data: ByteBuffer, at now: UInt64) -> Receipt {
        frames += 1
        return data.withUnsafeReadableBytes { bytes -> Receipt in
            guard Self.find(Self.messageType, in: bytes) != nil else { return .other }
            messageEvents += 1
            guard var index = Self.find(Self.marker, in: bytes) else { return .messageEvent }
            let sequence = Self.number(in: bytes, at: &index)
            index += 1  // the colon
            let stamp = Self.number(in: bytes, at: &index)
            guard sequence < messageCount else {
                foreign += 1
                return .messageEvent
            }
            let (word, bit) = (sequence / 64, UInt64(1) << UInt64(sequence % 64))
            guard seen[word] & bit == 0 else {
                duplicates += 1
                return .messageEvent
            }
            seen[word] |= bit
            if now / 1_000_000_000 != second {
                second = now / 1_000_000_000
                inSecond = 0
            }
            inSecond += 1
            maxPerSecond = max(maxPerSecond, inSecond)
            receipts.append((now, sequence))
            latencies.append(UInt32(min((now &- UInt64(stamp)) / 1000, UInt64(UInt32.max))))
            return .newBenchmarkMessage
        }
    }

    /// The offset just past `needle` in `bytes`, if it occurs.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var start = 0
        let last = bytes.count - needle.count
        while start <= last {
            // memchr to the next candidate, then compare the rest.
            guard let hit = memchr(bytes.baseAddress! + start, Int32(first), last - start + 1) else { return nil }
            let offset = bytes.baseAddress!.distance(to: UnsafeRawPointer(hit))
            if needle.withUnsafeBytes({ memcmp(bytes.baseAddress! + offset, $0.baseAddress!, needle.count) }) == 0 {
                return offset + needle.count
            }
            start = offset + 1
        }
        return nil
    }

    private static func number(in bytes: UnsafeRawBufferPointer, at index: inout Int) -> Int {
        var value = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            value = value * 10 + Int(bytes[index] - 48)
            index += 1
        }
        return value
    }

    func add(to totals: inout SocketSet.Totals) {
        totals.latencies.append(contentsOf: latencies)
        totals.frames += frames
        totals.messageEvents += messageEvents
        totals.duplicates += duplicates
        totals.foreign += foreign
        totals.missing += messageCount - latencies.count
        totals.perSocket.append((latencies.count, maxPerSecond))
        if maxPerSecond > 5 && latencies.count < messageCount && ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
            let first = receipts.first?.0 ?? 0
            FileHandle.standardError.write(
                Data("worst: \(receipts.prefix(60).map { "\(($0.0 - first) / 1_000_000):\($0.1)" }.joined(separator: " "))\n".utf8))
        }
    }
}
