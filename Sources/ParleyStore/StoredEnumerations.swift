import ParleyCore
import Postgres

// The enumerations the tables store as their raw values; read back through
// `PostgresDecodable`'s raw-value decoding, which refuses a value it does not know.
extension MessageType: PostgresDecodable {}
extension MentionType: PostgresDecodable {}
extension MemberState: PostgresDecodable {}
extension HiddenState: PostgresDecodable {}
extension ChannelKind: PostgresDecodable {}
extension ScheduledStatus: PostgresDecodable {}
extension Job.Status: PostgresDecodable {}
