import Loom
import Notifications
import Testing

/// An action is moved and copied at every step through the store and its effects (an `Effect`
/// holds the action it sends inline), so the cases with large payloads are boxed: an action is
/// no larger than its largest unboxed case, two strings, and its tag (Performance.md, "Keep
/// actions small"). Unboxed, one `NotificationData` made every action 305 bytes.
struct NotificationFeatureActionSizeTests {
  @Test func anActionIsTwoStringsAndATagAtMost() {
    let action = MemoryLayout<NotificationFeature.Action>.size
    #expect(action <= 2 * MemoryLayout<String>.size + 1)
    #expect(MemoryLayout<Effect<NotificationFeature.Action>>.size <= action + 1)
  }
}
