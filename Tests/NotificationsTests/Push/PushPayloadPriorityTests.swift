import Foundation
import Notifications
import Testing

/// Priority: an explicit `priority` wins; else the APNs interruption level decides.
struct PushPayloadPriorityTests {
  func priority(_ json: String) throws -> NotificationPriority {
    try PushSample.parse(json).priority
  }

  @Test func interruptionLevelsMapToPriorities() throws {
    #expect(try priority(#"{"id":"a","aps":{"interruption-level":"passive"}}"#) == .silent)
    #expect(try priority(#"{"id":"a","aps":{"interruption-level":"active"}}"#) == .regular)
    #expect(try priority(#"{"id":"a","aps":{"interruption-level":"time-sensitive"}}"#) == .high)
    #expect(try priority(#"{"id":"a","aps":{"interruption-level":"critical"}}"#) == .high)
  }

  @Test func anUnknownOrMissingInterruptionLevelIsRegular() throws {
    #expect(try priority(#"{"id":"a","aps":{"interruption-level":"loud"}}"#) == .regular)
    #expect(try priority(#"{"id":"a","aps":{"interruption-level":3}}"#) == .regular)
    #expect(try priority(#"{"id":"a","aps":{}}"#) == .regular)
    #expect(try priority(#"{"id":"a"}"#) == .regular)
  }

  @Test func anExplicitPriorityWinsOverTheInterruptionLevel() throws {
    #expect(
      try priority(#"{"id":"a","priority":"silent","aps":{"interruption-level":"critical"}}"#)
        == .silent)
    #expect(
      try priority(#"{"id":"a","priority":"high","aps":{"interruption-level":"passive"}}"#)
        == .high)
    #expect(try priority(#"{"data":{"id":"a","priority":"regular"}}"#) == .regular)
  }

  @Test func explicitPrioritiesIgnoreCaseAndSpaces() throws {
    #expect(try priority(#"{"id":"a","priority":" HIGH "}"#) == .high)
  }

  @Test func aNullPriorityFallsBackToTheInterruptionLevel() throws {
    #expect(
      try priority(#"{"id":"a","priority":null,"aps":{"interruption-level":"passive"}}"#)
        == .silent)
  }
}
