import ByteCoding
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// `{ "messages": [...] }`, and a thread's `parent_message`.
struct MessageListDTO: JSONWritable {
    let messages: [Message]
    var parent: Message? = nil

    func write(to json: inout JSONWriter) {
        json.object { json in
            if let parent {
                json.key("parent_message")
                json.value(MessageDTO(message: parent))
            }
            json.key("messages")
            json.array { json in messages.forEach { json.value(MessageDTO(message: $0)) } }
        }
    }
}
