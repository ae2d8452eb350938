import Foundation
import Loom
import Notifications
import Testing

struct PendingChangesTests {
  @Test func changesKeepTheOrderTheyWereMadeInWhateverTheirIDs() {
    // Ids whose hash order differs from the order the changes were made in.
    let ids = (0..<50).map { UUID(UInt64(50 - $0)) }
    var pending: PendingChanges = [:]
    for (index, id) in ids.enumerated() {
      pending[id] = .setRead(id: "n\(index)", isRead: true, previous: false)
    }
    #expect(pending.keys == ids)
    #expect(pending.values == (0..<50).map { .setRead(id: "n\($0)", isRead: true, previous: false) })
    // Replacing keeps the place; removing and adding again moves to the end.
    pending[ids[0]] = .markAll(ids: ["x"])
    #expect(pending.keys.first == ids[0])
    #expect(pending.removeValue(forKey: ids[1]) == .setRead(id: "n1", isRead: true, previous: false))
    pending[ids[1]] = .markAll(ids: ["y"])
    #expect(pending.keys.last == ids[1])
    pending[ids[2]] = nil
    #expect(pending.count == 49)
    #expect(!pending.keys.contains(ids[2]))
  }

  @Test func manyRemovalsKeepTheOrderOfWhatIsLeft() {
    let ids = (0..<50).map { UUID(UInt64(1_000 - $0)) }
    var pending: PendingChanges = [:]
    for (index, id) in ids.enumerated() { pending[id] = .markAll(ids: ["n\(index)"]) }
    for id in ids where !ids.suffix(10).contains(id) { pending[id] = nil }
    #expect(pending.keys == Array(ids.suffix(10)))
    #expect(pending.count == 10)
    pending[ids[0]] = .markAll(ids: ["again"])
    #expect(pending.keys == Array(ids.suffix(10)) + [ids[0]])
    #expect(pending == PendingChanges(ids.suffix(10).map { ($0, pending[$0]!) } + [(ids[0], .markAll(ids: ["again"]))]))
  }

  @Test func equalMeansTheSameChangesInTheSameOrder() {
    let a = UUID(UInt64(1))
    let b = UUID(UInt64(2))
    let read = PendingChanges.Change.setRead(id: "n1", isRead: true, previous: false)
    let unread = PendingChanges.Change.setRead(id: "n1", isRead: false, previous: true)
    let inOrder: PendingChanges = [a: read, b: unread]
    let reversed: PendingChanges = [b: unread, a: read]
    #expect(inOrder != reversed)
    #expect(inOrder == [a: read, b: unread])
    #expect(PendingChanges() == [:])
  }

  @Test func theSnippetListsTheNewestLast() {
    // snippet: pending-changes
    var pending: PendingChanges = [:]
    pending[UUID(0)] = .markAll(ids: ["n1", "n2"])
    pending[UUID(1)] = .setRead(id: "n1", isRead: false, previous: true)
    // pending.values: the mark-all, then the mark-unread
    // snippet: end
    #expect(pending.values == [.markAll(ids: ["n1", "n2"]), .setRead(id: "n1", isRead: false, previous: true)])
  }

  /// Whether a newer change must wait is answered from a count of the notifications the
  /// pending changes touch, kept as changes are added, replaced and removed.
  @Test func touchAnyCountsTheNotificationsThePendingChangesTouch() {
    var pending: PendingChanges = [:]
    pending[UUID(0)] = .markAll(ids: ["n1", "n2"])
    pending[UUID(1)] = .setRead(id: "n1", isRead: false, previous: true)
    #expect(pending.touchAny(of: ["n1"]))
    #expect(pending.touchAny(of: ["n3", "n2"]))
    #expect(!pending.touchAny(of: ["n3"]))
    pending.removeValue(forKey: UUID(0))
    #expect(pending.touchAny(of: ["n1"]))
    #expect(!pending.touchAny(of: ["n2"]))
    pending[UUID(1)] = .delete(Fixtures.notification("n3"), index: 0)
    #expect(!pending.touchAny(of: ["n1"]))
    #expect(pending.touchAny(of: ["n3"]))
    pending[UUID(1)] = nil
    #expect(!pending.touchAny(of: ["n1", "n2", "n3"]))
  }
}
