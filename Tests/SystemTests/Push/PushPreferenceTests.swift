import Foundation
import Testing

/// Push preferences (API.md §12.2) through HTTP: a user's, a member's per channel (and in the
/// channel as the member sees it), the template choice, and what is refused.
@Suite struct PushPreferenceTests {
    @Test func aUsersPreferencesStartAtTheDefaultsChangeFieldByFieldAndReset() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushpref", 2)
            let path = "/v3/users/\(cast[0])/push_preference"
            let defaults = try await api.get(path, as: cast.session(0)).rawJSON
            #expect(defaults["push_trigger_option"] as? String == "all" && defaults["do_not_disturb"] as? Bool == false)
            #expect(defaults["timezone"] as? String == "UTC" && defaults["push_template"] as? String == "default")
            let changed = try await api.put(
                path,
                [
                    "push_trigger_option": "mention_only", "do_not_disturb": true, "start_hour": 22, "start_min": 30, "end_hour": 7,
                    "end_min": 0, "timezone": "Asia/Seoul", "push_sound": "ding.caf"
                ], as: cast.session(0))
            #expect(changed.status == 200, "\(changed.text)")
            #expect(changed.rawJSON["push_trigger_option"] as? String == "mention_only" && changed.rawJSON["start_hour"] as? Int == 22)
            // A later change leaves the other fields as they were.
            let snoozed = try await api.put(
                path, ["snooze_enabled": true, "snooze_start_ts": 1000, "snooze_end_ts": 2000], as: cast.session(0))
            #expect(snoozed.rawJSON["timezone"] as? String == "Asia/Seoul" && snoozed.rawJSON["snooze_end_ts"] as? Int == 2000)
            #expect(try await api.get(path, as: cast.session(0)).rawJSON["push_sound"] as? String == "ding.caf")
            // Only the user themself (or the admin).
            #expect(try await api.get(path, as: cast.session(1)).status == 403)
            #expect(try await api.put(path, ["do_not_disturb": false], as: cast.session(1)).status == 403)
            let reset = try await api.delete(path, as: cast.session(0))
            #expect(reset.rawJSON["push_trigger_option"] as? String == "all" && reset.rawJSON["timezone"] as? String == "UTC")
            #expect(try await api.get(path).rawJSON["do_not_disturb"] as? Bool == false)
        }
    }

    @Test func outOfRangeValuesAreRefusedAndChangeNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushprefbad", 1)
            let path = "/v3/users/\(cast[0])/push_preference"
            let refusals: [([String: Any], Int)] = [
                (["start_hour": 24], 400111), (["end_min": 60], 400111), (["start_hour": -1], 400111),
                (["timezone": "Mars/Olympus_Mons"], 400111), (["push_trigger_option": "sometimes"], 400111),
                (["snooze_enabled": true, "snooze_start_ts": 2000, "snooze_end_ts": 1000], 400111),
                (["do_not_disturb": "yes"], 400104), (["start_hour": 1.5], 400111), (["start_hour": "22"], 400101)
            ]
            for (body, code) in refusals {
                let answer = try await api.put(path, body)
                #expect(answer.status == 400, "\(body): \(answer.text)")
                #expect(try answer.code == code, "\(body)")
            }
            let after = try await api.get(path).rawJSON
            #expect(after["start_hour"] as? Int == 0 && after["timezone"] as? String == "UTC" && after["snooze_enabled"] as? Bool == false)
            #expect(try await api.get("/v3/users/nobody-\(UUID().uuidString)/push_preference").status == 404)
        }
    }

    @Test func aMembersChannelOptionShowsInTheirViewOfTheChannel() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushchan", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let path = "/v3/users/\(cast[0])/push_preference/\(channel)"
            let initial = try await api.get(path, as: cast.session(0)).rawJSON
            #expect(initial["push_trigger_option"] as? String == "default" && initial["enable"] as? Bool == true)
            let off = try await api.put(path, ["push_trigger_option": "off"], as: cast.session(0))
            #expect(off.status == 200 && off.rawJSON["enable"] as? Bool == false, "\(off.text)")
            let view = try await api.get("/v3/group_channels/\(channel)", as: cast.session(0)).rawJSON
            #expect(view["push_trigger_option"] as? String == "off" && view["is_push_enabled"] as? Bool == false)
            // The other member's view is their own.
            let other = try await api.get("/v3/group_channels/\(channel)", as: cast.session(1)).rawJSON
            #expect(other["push_trigger_option"] as? String == "default" && other["is_push_enabled"] as? Bool == true)
            // Sendbird's older switch, and a sound alone.
            #expect(try await api.put(path, ["enable": true], as: cast.session(0)).rawJSON["push_trigger_option"] as? String == "default")
            let sound = try await api.put(path, ["push_sound": "chime.caf"], as: cast.session(0)).rawJSON
            #expect(sound["push_sound"] as? String == "chime.caf" && sound["push_trigger_option"] as? String == "default")
            // Not a member, not theirs, not an option.
            #expect(try await api.get("/v3/users/\(cast[2])/push_preference/\(channel)", as: cast.session(2)).status == 404)
            #expect(try await api.put(path, ["push_trigger_option": "off"], as: cast.session(1)).status == 403)
            #expect(try await api.put(path, ["push_trigger_option": "never"], as: cast.session(0)).status == 400)
        }
    }

    @Test func theTemplateChoiceIsKeptWithThePreferences() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pushtpl", 1)
            let path = "/v3/users/\(cast[0])/push/template"
            #expect(try await api.get(path, as: cast.session(0)).rawJSON["name"] as? String == "default")
            #expect(try await api.put(path, ["name": "alternative"], as: cast.session(0)).rawJSON["name"] as? String == "alternative")
            #expect(try await api.get("/v3/users/\(cast[0])/push_preference").rawJSON["push_template"] as? String == "alternative")
            #expect(try await api.put(path, ["name": "fancy"], as: cast.session(0)).status == 400)
        }
    }
}
