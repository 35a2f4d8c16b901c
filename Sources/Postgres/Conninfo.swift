import CLibPQ

/// Reading and narrowing libpq connection strings and URIs.
public enum Conninfo {
    /// The conninfo's own settings (not libpq's defaults or the environment's); empty when it
    /// does not parse.
    static func options(_ conninfo: String) -> [String: String] {
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

    /// One conninfo per server that `conninfo` names (`host:port`, and the conninfo naming that
    /// server alone, with every other setting kept): a multi-host list of read replicas becomes
    /// one pool per replica. Nil when the servers cannot be told apart (see `HostOrder.servers`).
    public static func perServer(_ conninfo: String) -> [(server: String, conninfo: String)]? {
        guard let servers = HostOrder.servers(conninfo) else { return nil }
        let options = Conninfo.options(conninfo)
        return servers.map { server in
            var narrowed = options
            (narrowed["host"], narrowed["port"]) = (server.host, server.port)
            let text = narrowed.sorted { $0.key < $1.key }.map { "\($0.key)='\(quoted($0.value))'" }.joined(separator: " ")
            return (server.description, text)
        }
    }

    /// A value inside single quotes, as libpq reads it (backslash escapes).
    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}
