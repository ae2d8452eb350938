import Notifications
import Testing

/// The rule every id from outside follows: the exact reason for each kind of id it refuses.
struct InvalidNotificationIDTests {
  @Test func eachKindOfIDThatIsNotOneIsRefusedWithItsReason() {
    func reason(_ id: String) -> InvalidNotificationID? {
      do {
        try NotificationData.checkID(id)
        return nil
      } catch {
        return error
      }
    }
    #expect(reason("") == .empty)
    #expect(reason(".") == .dotSegment)
    #expect(reason("..") == .dotSegment)
    #expect(reason("a\nb") == .controlCharacter)
    #expect(reason("\u{7F}") == .controlCharacter)
    #expect(reason("\u{85}") == .controlCharacter)
    #expect(reason(String(repeating: "é", count: 101)) == .tooLong(bytes: 202))
    for id in ["n1", "...", ".a", "a/b", "a b", "café", "👍", String(repeating: "x", count: 200)] {
      #expect(reason(id) == nil, "\(id)")
    }
    #expect(InvalidNotificationID.tooLong(bytes: 202).description
      == "an id has at most 200 bytes, not 202")
  }
}
