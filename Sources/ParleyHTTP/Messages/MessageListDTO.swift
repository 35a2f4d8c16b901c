import ByteCoding
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// `{ "messages": [...] }` of a history window, and a thread's `parent_message`: the messages
/// nearest the anchor within the answer's byte budget (`ResponseBudget`).
struct MessageListDTO: JSONWritable {
    let window: MessageWindow
    var parent: Message? = nil

    func write(to json: inout JSONWriter) {
        json.object { json in
            if let parent {
                json.key("parent_message")
                json.value(MessageDTO(message: parent))
            }
            json.key("messages")
            ResponseBudget.writeWindow(window.messages, anchor: window.anchor, to: &json) { message, json in
                json.value(MessageDTO(message: message))
            }
        }
    }
}
