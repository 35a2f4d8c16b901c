import Testing

@testable import Postgres

/// Issue 51.1: a new connection tries a server the watchdog gave up on last, so that a frozen
/// host does not cost every reconnection its whole connect_timeout.
@Suite struct HostOrderTests {
    let db1 = RoundTripWatch.Server(host: "db1", port: "5432")
    let db2 = RoundTripWatch.Server(host: "db2", port: "5433")

    @Test func aServerGivenUpOnIsTriedLast() {
        let url = "postgresql://parley@db1:5432,db2:5433,db3:5434/parley?target_session_attrs=read-write"
        let order = HostOrder.overrides(url, givenUp: [db1])
        #expect(order.map(\.0) == ["host", "port"])
        #expect(order.map(\.1) == ["db2,db3,db1", "5433,5434,5432"])
    }

    @Test func oneConninfoPortServesEveryHost() {
        let order = HostOrder.overrides("host=db1,db2 port=5432 dbname=parley", givenUp: [db1])
        #expect(order.map(\.1) == ["db2,db1", "5432,5432"])
    }

    @Test func nothingMovesWithoutAReason() {
        #expect(HostOrder.overrides("host=db1,db2 port=5432,5433", givenUp: []).isEmpty)
        #expect(HostOrder.overrides("host=db1,db2 port=5432,5433", givenUp: [db2]).isEmpty, "already last")
        #expect(HostOrder.overrides("host=db1 port=5432", givenUp: [db1]).isEmpty, "one host")
        #expect(HostOrder.overrides("host=db1,db2 hostaddr=10.0.0.1,10.0.0.2 port=5432", givenUp: [db1]).isEmpty)
    }

    /// Only then is a server that stops answering given up, and a host skipped after 2 s.
    @Test func severalHostsAreAlternatives() {
        #expect(HostOrder.hasAlternatives("postgresql://parley@db1:5432,db2:5433/parley"))
        #expect(HostOrder.hasAlternatives("host=db1,db2 port=5432"))
        #expect(HostOrder.hasAlternatives("hostaddr=10.0.0.1,10.0.0.2 port=5432"))
        #expect(!HostOrder.hasAlternatives("postgresql://parley@db1:5432/parley"))
        #expect(!HostOrder.hasAlternatives("host=/var/run/postgresql port=5432 dbname=parley"))
        #expect(RoundTripWatch(conninfo: "host=db1,db2", hasFallback: false, hardDeadline: nil).hasAlternatives)
        #expect(RoundTripWatch(conninfo: "host=db1", hasFallback: true, hardDeadline: nil).hasAlternatives)
        #expect(!RoundTripWatch(conninfo: "host=db1", hasFallback: false, hardDeadline: nil).hasAlternatives)
    }
}
