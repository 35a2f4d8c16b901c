import Testing

@testable import Postgres

/// Issue 51.3: a multi-host `DATABASE_READ_URL` becomes one conninfo per replica, each keeping
/// every other setting, as libpq reads it back.
@Suite struct ConninfoTests {
    @Test func eachServerKeepsTheOtherSettings() throws {
        let url = "postgresql://parley:s3cr%27t%5C@db1:5432,db2:5433/chat?target_session_attrs=standby&sslmode=prefer"
        let servers = try #require(Conninfo.perServer(url))
        #expect(servers.map(\.server) == ["db1:5432", "db2:5433"])
        for (server, conninfo) in servers {
            let options = Conninfo.options(conninfo)
            #expect("\(options["host"] ?? ""):\(options["port"] ?? "")" == server)
            #expect(options["user"] == "parley")
            #expect(options["password"] == "s3cr't\\", "quotes and backslashes survive")
            #expect(options["dbname"] == "chat")
            #expect(options["target_session_attrs"] == "standby")
            #expect(options["sslmode"] == "prefer")
        }
    }

    @Test func oneHostIsOneServerAndHostaddrCannotBeSplit() {
        #expect(Conninfo.perServer("host=db1 port=5432 dbname=parley")?.map(\.server) == ["db1:5432"])
        #expect(Conninfo.perServer("host=db1,db2 hostaddr=10.0.0.1,10.0.0.2") == nil)
        #expect(Conninfo.perServer("host=db1,db2 port=1,2,3") == nil, "ports that do not match the hosts")
    }
}
