import Foundation
import Notifications
import Testing

/// Notification types: wire forms, unknown types, symbols, colour roles and names.
struct NotificationTypeTests {
  @Test func knownTypesHaveTheirWireForms() {
    let expected: [NotificationType: String] = [
      .alert: "alert", .ping: "ping", .role: "role", .removed: "removed", .added: "added",
      .checkIn: "check_in", .system: "system",
    ]
    for (type, raw) in expected {
      #expect(type.rawValue == raw)
      #expect(NotificationType(rawValue: raw) == type)
      #expect(type.description == raw)
    }
  }

  @Test func checkInIsAlsoReadInCamelCase() throws {
    #expect(NotificationType(rawValue: "checkIn") == .checkIn)
    #expect(try ModelJSON.decode(NotificationType.self, #""checkIn""#) == .checkIn)
    #expect(try ModelJSON.encode(NotificationType.checkIn) == #""check_in""#)
  }

  @Test func unknownTypesKeepTheirRawStringBothWays() throws {
    #expect(NotificationType(rawValue: "poll") == .unknown("poll"))
    #expect(NotificationType(rawValue: "ALERT") == .unknown("ALERT"))
    let decoded = try ModelJSON.decode(NotificationType.self, #""poll""#)
    #expect(decoded == .unknown("poll"))
    #expect(try ModelJSON.encode(decoded) == #""poll""#)
  }

  @Test func knownCasesListEveryKnownTypeOnceInDisplayOrder() {
    #expect(
      NotificationType.knownCases == [.alert, .ping, .role, .added, .removed, .checkIn, .system])
  }

  @Test func eachTypeHasItsSymbolAndColourRole() {
    let table: [(NotificationType, String, ColorRole)] = [
      (.alert, "exclamationmark.triangle.fill", .critical),
      (.ping, "bell.badge.fill", .accent),
      (.role, "person.badge.key.fill", .info),
      (.added, "person.badge.plus", .positive),
      (.removed, "person.badge.minus", .warning),
      (.checkIn, "checkmark.circle.fill", .positive),
      (.system, "info.circle.fill", .neutral),
      (.unknown("poll"), "bell", .neutral),
    ]
    for (type, symbol, role) in table {
      #expect(type.symbolName == symbol, "\(type)")
      #expect(type.colorRole == role, "\(type)")
    }
  }

  @Test func eachTypeHasADisplayName() {
    #expect(NotificationType.alert.displayName == "Alert")
    #expect(NotificationType.checkIn.displayName == "Check-in")
    #expect(NotificationType.role.displayName == "Role changed")
    #expect(NotificationType.unknown("poll").displayName == "poll")
    #expect(NotificationType.unknown("").displayName == "Notification")
    let names: Set<String> = Set(NotificationType.knownCases.map(\.displayName))
    #expect(names.count == 7)
  }

  @Test func colourRolesHaveStableRawValues() {
    #expect(
      ColorRole.allCases.map(\.rawValue)
        == ["critical", "accent", "info", "positive", "warning", "neutral"])
  }
}
