import CLibPQ

/// The order in which a new connection tries the hosts of a multi-host conninfo (issue 51.1).
///
/// libpq tries them as the conninfo lists them, and a frozen host costs every attempt its whole
/// `connect_timeout` before the next is tried. Servers the `RoundTripWatchdog` gave up on are
/// tried last, until a connection reaches one again.
enum HostOrder {
    /// `host` and `port` overrides that put `givenUp` servers last; none when nothing moves (or
    /// the conninfo names `hostaddr`, whose list would have to move along).
    static func overrides(_ conninfo: String, givenUp: Set<RoundTripWatch.Server>) -> [(String, String)] {
        guard !givenUp.isEmpty else { return [] }
        let options = parse(conninfo)
        guard options["hostaddr"] == nil, let hostList = options["host"] else { return [] }
        let hosts = hostList.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let givenPorts = (options["port"] ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard hosts.count > 1, givenPorts.count <= 1 || givenPorts.count == hosts.count else { return [] }
        // One port (or none: libpq's default) applies to every host.
        let ports = givenPorts.count == hosts.count ? givenPorts : Array(repeating: givenPorts.first ?? "5432", count: hosts.count)
        let servers = zip(hosts, ports).map { RoundTripWatch.Server(host: $0, port: $1) }
        let ordered = servers.filter { !givenUp.contains($0) } + servers.filter { givenUp.contains($0) }
        guard ordered != servers else { return [] }
        return [("host", ordered.map(\.host).joined(separator: ",")), ("port", ordered.map(\.port).joined(separator: ","))]
    }

    /// The conninfo's own settings (not libpq's defaults or the environment's).
    private static func parse(_ conninfo: String) -> [String: String] {
        guard let options = PQconninfoParse(conninfo, nil) else { return [:] }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }
}
