import ArgumentParser
import ParleyCore
import ParleyUsers

/// `parley user create|deactivate`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Create or deactivate users.", subcommands: [Create.self, Deactivate.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a user (as POST /v3/users).")
        @Argument(help: "The new user's id.") var userID: String
        @Option(help: "Display name.") var nickname = ""
        @Option(name: .customLong("profile-url"), help: "Profile image URL.") var profileURL: String?
        @Flag(name: .customLong("issue-token"), help: "Also issue a session token and print it.") var issueToken = false

        func run() async throws {
            try await AdminSession.run { container in
                let new = try NewUser.checked(
                    userID: userID, nickname: nickname, profileURL: profileURL, metadata: nil, issueSessionToken: issueToken)
                let (user, token) = try await container.users.create(.admin, new)
                print("created user \(user.userID)")
                if let token { print("session token: \(token.token) (expires \(AdminFormat.time(token.expiresAt)))") }
            }
        }
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deactivate a user: their sockets close, their tokens stop working, and they leave their group channels.")
        @Argument(help: "The user's id.") var userID: String
        @Flag(name: .customLong("keep-channels"), help: "Stay a member of their group channels.") var keepChannels = false

        func run() async throws {
            try await AdminSession.run { container in
                let user = try await container.users.update(
                    .admin, userID, UserUpdate(isActive: false, leaveAllWhenDeactivated: !keepChannels))
                print("deactivated user \(user.userID)\(keepChannels ? "" : "; left every group channel")")
            }
        }
    }
}

/// `parley token issue|revoke`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Issue or revoke session tokens.", subcommands: [Issue.self, Revoke.self])

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue a session token for a user and print it.")
        @Argument(help: "The user's id.") var userID: String
        @Option(name: .customLong("expires-in-hours"), help: "Lifetime (default: PARLEY_SESSION_TOKEN_TTL_SECONDS).")
        var expiresInHours: Int?

        func validate() throws {
            if let expiresInHours, !(1...87600).contains(expiresInHours) { throw ValidationError("--expires-in-hours must be 1...87600.") }
        }

        func run() async throws {
            try await AdminSession.run { container in
                let expiresAt = expiresInHours.map { container.clock.nowMillis + Int64($0) * 3_600_000 }
                let token = try await container.users.issueSessionToken(.admin, userID, expiresAt: expiresAt)
                print("session token: \(token.token) (expires \(AdminFormat.time(token.expiresAt)))")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke every session token of a user; their open sockets close with 4001.")
        @Argument(help: "The user's id.") var userID: String

        func run() async throws {
            try await AdminSession.run { container in
                try await container.users.revokeSessionTokens(.admin, userID)
                print("revoked every session token of \(userID)")
            }
        }
    }
}
