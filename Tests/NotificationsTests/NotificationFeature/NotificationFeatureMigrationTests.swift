import Foundation
import Loom
import LoomTesting
import Notifications
import Testing

/// What an earlier version saved in the settings still decodes, in every format it saved, so
/// that the first launch can move it into the log
/// (`NotificationFeatureSyncTests.anEarlierVersionsOutboxAndPushesMoveIntoTheLogOnTheFirstLaunch`).
/// Ported from `BoundedClearAllTests.anOutboxSavedWithABareDeleteAllStillDecodes` and
/// `SavedPushesTests.savedPushesWithoutNoticesStillDecode`.
struct NotificationFeatureMigrationTests {
  /// The outbox with what it kept to undo each change and how often each had failed.
  static let outboxWithRollbacks = #"""
    {"entries":[{"markAsRead":{"_0":"n1"}},{"delete":{"_0":"p2"}}],\#
    "rollbacks":[{"markAsRead":{"_0":"n1"}},{"setRead":{"id":"n1","isRead":true,"previous":false}}],\#
    "failures":[{"markAsRead":{"_0":"n1"}},8]}
    """#
  /// The older format: the entries alone.
  static let outboxEntriesAlone = #"[{"markAsRead":{"_0":"n1"}},{"delete":{"_0":"p2"}}]"#

  @Test func anOutboxDecodesInBothFormatsAnEarlierVersionSaved() throws {
    for json in [Self.outboxWithRollbacks, Self.outboxEntriesAlone] {
      let outbox = try JSONDecoder().decode(
        NotificationFeature.SavedOutbox.self, from: Data(json.utf8))
      #expect(outbox.entries == [.markAsRead("n1"), .delete("p2")])
    }
  }

  @Test func anOutboxWithABareDeleteAllDecodes() throws {
    let json = #"""
      {"entries":[{"markAsRead":{"_0":"n1"}},{"deleteAll":{}}],"rollbacks":[],\#
      "failures":[{"deleteAll":{}},3]}
      """#
    let outbox = try JSONDecoder().decode(
      NotificationFeature.SavedOutbox.self, from: Data(json.utf8))
    #expect(outbox.entries == [.markAsRead("n1"), .deleteAll(upTo: nil)])
    let alone = try JSONDecoder().decode(
      NotificationFeature.SavedOutbox.self, from: Data(#"[{"deleteAll":{}}]"#.utf8))
    #expect(alone.entries == [.deleteAll(upTo: nil)])
  }

  @Test func pushesSavedWithoutNoticesDecode() throws {
    let push = ChangeLogTests.notification("p1")
    let saved = NotificationFeature.SavedPushes(pushes: [push], deletedIDs: ["p0"])
    var old =
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(saved)) as? [String: Any] ?? [:]
    #expect(old["notices"] != nil)
    old["notices"] = nil
    let data = try JSONSerialization.data(withJSONObject: old)
    #expect(try JSONDecoder().decode(NotificationFeature.SavedPushes.self, from: data) == saved)
  }
}
