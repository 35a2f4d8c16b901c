import CLibPQ

/// The hosts of a conninfo, and the order in which a new connection tries them (issue 51.1).
///
/// libpq tries them as the conninfo lists them, and a frozen host costs every attempt its whole
/// `connect_timeout` before the next is tried. Servers the `RoundTripWatchdog` gave up on are
/// tried last, until a connection reaches one again.
enum HostOrder {
    /// The servers `conninfo` names, in its order; nil when they cannot be told apart (the
    /// conninfo names `hostaddr`, whose list would have to move along, or a port list that does
    /// not match the hosts).
    static func servers(_ conninfo: String) -> [RoundTripWatch.Server]? {
        let options = Conninfo.options(conninfo)
        guard options["hostaddr"] == nil else { return nil }
        let hosts = (options["host"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let givenPorts = (options["port"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard givenPorts.count <= 1 || givenPorts.count == hosts.count else { return nil }
        // One port (or none: libpq's default) applies to every host.
        let ports = givenPorts.count == hosts.count ? givenPorts : Array(repeating: givenPorts.first ?? "5432", count: hosts.count)
        return zip(hosts, ports).map { RoundTripWatch.Server(host: $0, port: $1) }
    }

    /// Whether `conninfo` names more than one server: only then is there another to go to when
    /// one stops answering.
    static func hasAlternatives(_ conninfo: String) -> Bool {
        let options = Conninfo.options(conninfo)
        return [options["host"], options["hostaddr"]].contains { $0?.contains(",") ?? false }
    }

    /// `host` and `port` overrides that put `givenUp` servers last; none when nothing moves.
    static func overrides(_ conninfo: String, givenUp: Set<RoundTripWatch.Server>) -> [(String, String)] {
        guard !givenUp.isEmpty, let servers = servers(conninfo), servers.count > 1 else { return [] }
        let ordered = servers.filter { !givenUp.contains($0) } + servers.filter { givenUp.contains($0) }
        guard ordered != servers else { return [] }
        return [("host", ordered.map(\.host).joined(separator: ",")), ("port", ordered.map(\.port).joined(separator: ","))]
    }
}
