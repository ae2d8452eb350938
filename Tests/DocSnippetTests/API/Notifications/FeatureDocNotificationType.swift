// The snippets of the doc comments of NotificationType.swift and ColorRole.swift.

import Notifications
import Testing

struct NotificationTypeDocSnippets {
  typealias Image = FeatureDocStandIns.Image
  typealias Color = FeatureDocStandIns.Color

  @Test func unknownTypesKeepTheirRawString() {
    let values = featureDocValues {
      // snippet: type
      NotificationType(rawValue: "check_in")   // .checkIn
      NotificationType(rawValue: "poll")       // .unknown("poll")
      NotificationType.ping.symbolName         // "bell.badge.fill"
      // snippet: end
    }
    #expect(values[0] as? NotificationType == .checkIn)
    #expect(values[1] as? NotificationType == .unknown("poll"))
    #expect(values[2] as? String == "bell.badge.fill")
  }

  @Test func theKnownCasesMakeAFilterMenu() {
    // snippet: known-cases
    let menu = [NotificationFilter.all] + NotificationType.knownCases.map { .type($0) }
    // snippet: end
    #expect(menu.count == 8)
    #expect(menu.first == .all)
    #expect(menu.last == .type(.system))
  }

  @Test func theRawValueIsTheWireForm() {
    let values = featureDocValues {
      // snippet: init-raw-value
      NotificationType(rawValue: "alert")   // .alert
      NotificationType(rawValue: "Alert")   // .unknown("Alert")
      // snippet: end
      // snippet: raw-value
      NotificationType.checkIn.rawValue         // "check_in"
      NotificationType.unknown("poll").rawValue // "poll"
      // snippet: end
    }
    #expect(values[0] as? NotificationType == .alert)
    #expect(values[1] as? NotificationType == .unknown("Alert"))
    #expect(values[2] as? String == "check_in")
    #expect(values[3] as? String == "poll")
    #expect(NotificationType(rawValue: "checkIn") == .checkIn)
  }

  @Test func theTypePicksTheLook() {
    let notification = FeatureDocSamples.alert
    let values = featureDocValues {
      // snippet: symbol-name
      Image(systemName: notification.type.symbolName)
      // snippet: end
      // snippet: color-role
      NotificationType.alert.colorRole   // .critical
      // snippet: end
      // snippet: display-name
      NotificationType.checkIn.displayName   // "Check-in"
      // snippet: end
    }
    #expect(values[0] as? Image == Image(systemName: "exclamationmark.triangle.fill"))
    #expect(values[1] as? ColorRole == .critical)
    #expect(values[2] as? String == "Check-in")
  }

  @Test func theDescriptionIsTheWireForm() {
    var printed: [String] = []
    func print(_ value: Any) { printed.append("\(value)") }
    // snippet: description
    print(NotificationType.checkIn)   // check_in
    // snippet: end
    #expect(printed == ["check_in"])
  }

  /// The colour a shell could give a notification.
  private func tint(for notification: NotificationData) -> Color {
    // snippet: color-role-switch
    let tint: Color = switch notification.type.colorRole {
      case .critical: .red
      case .accent: .accentColor
      default: .secondary
    }
    // snippet: end
    return tint
  }

  @Test func aShellMapsColorRolesToItsPalette() {
    #expect(tint(for: FeatureDocSamples.alert) == .red)
    #expect(tint(for: FeatureDocSamples.ping) == .accentColor)
    #expect(tint(for: FeatureDocSamples.added) == .secondary)
  }
}
