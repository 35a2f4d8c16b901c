import ParleyCore
import ParleyStore

/// Removes the per-address counts whose time passed (`AddressLimitRepository.sweep`), once a
/// minute on whichever instance takes the recurring job, so that addresses seen once (a scan
/// from many addresses) do not stay in the table.
public struct AddressLimitSweepJob: JobHandler {
    public static let jobKind = "address_limit_sweep"
    public static let interval: Duration = .seconds(60)
    public let kind = AddressLimitSweepJob.jobKind

    public init() {}

    public func run(_ job: RunningJob) async throws -> String {
        let now = job.clock.nowMillis
        let removed = try await job.store.read { try $0.addressLimits.sweep(now: now) }
        return #"{"removed":\#(removed)}"#
    }
}
