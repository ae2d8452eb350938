import Foundation
import Notifications
import Testing

/// The target's JSON: a `kind` and the ids the kind needs.
struct NotificationTargetCodingTests {
  @Test func eachTargetEncodesToItsExactShape() throws {
    #expect(try ModelJSON.encode(NotificationTarget.none) == #"{"kind":"none"}"#)
    #expect(
      try ModelJSON.encode(NotificationTarget.contact(contactID: "c1"))
        == #"{"contactId":"c1","kind":"contact"}"#)
    #expect(
      try ModelJSON.encode(NotificationTarget.alert(alertID: "a1"))
        == #"{"alertId":"a1","kind":"alert"}"#)
    #expect(
      try ModelJSON.encode(NotificationTarget.ping(pingID: "p1", contactID: "c1"))
        == #"{"contactId":"c1","kind":"ping","pingId":"p1"}"#)
  }

  @Test func eachTargetRoundTrips() throws {
    let targets: [NotificationTarget] = [
      .none, .contact(contactID: "c1"), .alert(alertID: "a1"), .ping(pingID: "p1", contactID: "c1"),
    ]
    for target in targets {
      #expect(try ModelJSON.decode(NotificationTarget.self, try ModelJSON.encode(target)) == target)
    }
  }

  @Test func aMissingOrUnknownKindIsNone() throws {
    #expect(try ModelJSON.decode(NotificationTarget.self, #"{}"#) == .none)
    #expect(try ModelJSON.decode(NotificationTarget.self, #"{"kind":"map","mapId":"m"}"#) == .none)
  }
}
