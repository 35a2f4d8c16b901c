import ParleyCore
import Testing

/// The retry rule alone (issue 29): `Retry-After` may lengthen the schedule, never shorten it,
/// and counts for at most `maxRetryAfter`.
@Suite struct RetryBackoffTests {
    let rule = RetryBackoff(first: .seconds(1), max: .seconds(3600), maxRetryAfter: .seconds(600))

    @Test func theScheduleDoublesUpToItsMaximum() {
        #expect(rule.step(0) == .seconds(1))
        #expect(rule.step(1) == .seconds(1))
        #expect(rule.step(4) == .seconds(8))
        #expect(rule.step(40) == .seconds(3600))
        #expect(rule.delay(afterAttempts: 4, retryAfter: nil, jitter: 0.5) == .seconds(4))
    }

    @Test func aShortRetryAfterKeepsTheSchedule() {
        for retryAfter: Duration in [.zero, .milliseconds(300), .seconds(3)] {
            #expect(rule.delay(afterAttempts: 4, retryAfter: retryAfter, jitter: 1) == .seconds(8))
        }
    }

    @Test func aLongerRetryAfterLengthensItUpToTheCap() {
        #expect(rule.delay(afterAttempts: 1, retryAfter: .seconds(30), jitter: 1) == .seconds(30))
        #expect(rule.delay(afterAttempts: 1, retryAfter: .seconds(86400 * 365), jitter: 1) == .seconds(600))
        // The cap does not shorten the schedule either.
        #expect(rule.delay(afterAttempts: 40, retryAfter: .seconds(86400), jitter: 1) == .seconds(3600))
    }
}
