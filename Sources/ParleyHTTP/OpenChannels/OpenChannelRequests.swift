import ByteCoding
import ParleyCore
import ParleyHTTPConventions

/// `POST /v3/open_channels` (API.md §8.2).
struct NewOpenChannelBody: Decodable {
    @Checked var channelURL: String?
    @Checked var name: String?
    @Checked var coverURL: String?
    @Checked var customType: String?
    @Checked var data: String?
    var isEphemeral: Bool?
    @Checked var operatorIDs: [String]?
    @Checked var messageRetentionHours: Int64?

    enum CodingKeys: String, CodingKey {
        case messageRetentionHours = "message_retention_hours"
        case channelURL = "channel_url"
        case name
        case coverURL = "cover_url"
        case customType = "custom_type"
        case data
        case isEphemeral = "is_ephemeral"
        case operatorIDs = "operator_ids"
    }

    func validated(limits: Limits) throws -> NewOpenChannel {
        var channel = NewOpenChannel(
            channelURL: try channelURL.map { try Validation.channelURL($0) },
            name: try Validation.text(name ?? "", field: "name", max: Validation.maxChannelNameLength),
            coverURL: try Validation.text(coverURL ?? "", field: "cover_url", max: Validation.maxProfileURLLength),
            customType: try Validation.text(customType ?? "", field: "custom_type", max: Validation.maxCustomTypeLength),
            data: try Validation.data(data ?? "", max: limits.dataBytes),
            isEphemeral: isEphemeral ?? false,
            operatorIDs: try Validation.userIDs(operatorIDs ?? [], field: "operator_ids")
        )
        channel.messageRetentionHours = try MessagePolicyFields.policy(retentionHours: messageRetentionHours, survivalSeconds: nil)
            .retentionHours
        return channel
    }
}

/// `PUT /v3/open_channels/{channel_url}`: absent fields stay; `operator_ids` replaces the operators.
struct OpenChannelUpdateBody: Decodable {
    @Checked var name: String?
    @Checked var coverURL: String?
    @Checked var customType: String?
    @Checked var data: String?
    @Checked var operatorIDs: [String]?
    @Checked var messageRetentionHours: Int64?

    enum CodingKeys: String, CodingKey {
        case messageRetentionHours = "message_retention_hours"
        case name
        case coverURL = "cover_url"
        case customType = "custom_type"
        case data
        case operatorIDs = "operator_ids"
    }

    func validated(limits: Limits) throws -> OpenChannelUpdate {
        var update = OpenChannelUpdate(
            name: try name.map { try Validation.text($0, field: "name", max: Validation.maxChannelNameLength) },
            coverURL: try coverURL.map { try Validation.text($0, field: "cover_url", max: Validation.maxProfileURLLength) },
            customType: try customType.map { try Validation.text($0, field: "custom_type", max: Validation.maxCustomTypeLength) },
            data: try data.map { try Validation.data($0, max: limits.dataBytes) },
            operatorIDs: try operatorIDs.map { try Validation.userIDs($0, field: "operator_ids") }
        )
        update.messageRetentionHours = try MessagePolicyFields.policy(retentionHours: messageRetentionHours, survivalSeconds: nil)
            .retentionHours
        return update
    }
}
