import ByteCoding
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// `{ "messages": [...] }`
struct MessageListDTO: JSONWritable {
    let messages: [Message]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("messages")
            json.array { json in messages.forEach { json.value(MessageDTO(message: $0)) } }
        }
    }
}
