// The snippets of the doc comments of NotificationFeature's types (NotificationFeature+Types)
// and of the settings an earlier version saved (NotificationFeature+Migration).

import Foundation
import Loom
import Notifications
import Testing

struct FeatureDocFeatureTypesTests {
  @Test func anEntityMatchesTheNotificationsAboutIt() {
    let values = featureDocValues {
      // snippet: entity-matches
      NotificationFeature.Entity.contact("c1").matches(.ping(pingID: "p1", contactID: "c1"))   // true
      // snippet: end
    }
    #expect(values[0] as? Bool == true)
  }

  @Test func anEarlierVersionsOutboxIsDecodedAndMovedIntoALog() throws {
    let data = Data(#"[{"markAsRead":{"_0":"n1"}}]"#.utf8)
    let uuid = UUIDGenerator.incrementing
    // snippet: saved-outbox
    let outbox = try JSONDecoder().decode(NotificationFeature.SavedOutbox.self, from: data)
    let log = ChangeLog(migrating: outbox, ids: { uuid() })
    // snippet: end
    #expect(log.records.map(\.intent) == [.markAsRead("n1")])
  }

  @Test func anEarlierVersionsPushesAreDecoded() throws {
    let data = Data(#"{"pushes":[],"deletedIDs":["p0"]}"#.utf8)
    // snippet: saved-pushes
    let pushes = try JSONDecoder().decode(NotificationFeature.SavedPushes.self, from: data)
    // snippet: end
    #expect(pushes.deletedIDs == ["p0"])
    #expect(pushes.notices.isEmpty)
  }
}
