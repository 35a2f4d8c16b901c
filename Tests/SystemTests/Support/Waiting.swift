/// Checks `condition` until it holds or `limit` has passed, and says whether it held.
///
/// For what the server does beside the request a test made (a sweep at start-up, a request
/// parked behind a lock), which no clock of the server's can stand in for: a condition that
/// holds at once costs nothing, and a busy machine gets the whole `limit` instead of a fixed
/// sleep that may be too short.
@discardableResult
func eventually(
    within limit: Duration = .seconds(10), every interval: Duration = .milliseconds(20), _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: interval)
    }
    return true
}
