import ParleyCore
import Testing

/// `PushTemplate.render`: each type's text with its placeholders, replaced once.
@Suite struct PushTemplateTests {
    static let template = PushTemplate(
        name: .default, userMessage: "{sender_name} in {channel_name}: {message}", fileMessage: "{sender_name} sent {filename}",
        adminMessage: "{message}")

    @Test func eachTypeUsesItsOwnText() {
        let values = PushTemplate.Values(senderName: "Bob", message: "hi", fileName: "cat.png", channelName: "Friends")
        #expect(Self.template.render(.user, values) == "Bob in Friends: hi")
        #expect(Self.template.render(.file, values) == "Bob sent cat.png")
        #expect(Self.template.render(.admin, values) == "hi")
    }

    @Test func valuesAreNeverReadAsPlaceholdersAndUnknownBracesStay() {
        let values = PushTemplate.Values(senderName: "{message}", message: "{sender_name} {x}")
        #expect(Self.template.render(.admin, values) == "{sender_name} {x}")
        #expect(Self.template.render(.user, values) == "{message} in : {sender_name} {x}")
        let odd = PushTemplate(name: .alternative, userMessage: "{ {unknown} {sender_name", fileMessage: "", adminMessage: "}{")
        #expect(odd.render(.user, PushTemplate.Values(senderName: "Bob")) == "{ {unknown} {sender_name")
        #expect(odd.render(.admin, PushTemplate.Values()) == "}{")
    }
}
