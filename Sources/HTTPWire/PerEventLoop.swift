import NIOCore
import Synchronization

/// One `Value` per event loop, made on first use and kept for the life of the process (as the
/// event loops are).
public final class PerEventLoop<Value: Sendable>: Sendable {
    private let values = Mutex<[ObjectIdentifier: Value]>([:])
    private let make: @Sendable (any EventLoop) -> Value

    public init(_ make: @escaping @Sendable (any EventLoop) -> Value) {
        self.make = make
    }

    public func of(_ eventLoop: any EventLoop) -> Value {
        values.withLock { values in
            let key = ObjectIdentifier(eventLoop)
            if let value = values[key] { return value }
            let value = make(eventLoop)
            values[key] = value
            return value
        }
    }
}
