/// The screen a notification opens when tapped.
///
/// ```swift
/// switch notification.target {
/// case .none: break
/// case .contact(let contactID): openContact(contactID)
/// case .alert(let alertID): openAlert(alertID)
/// case .ping(let pingID, let contactID): openPing(pingID, of: contactID)
/// }
/// ```
public enum NotificationTarget: Sendable, Hashable {
  /// Nothing to open.
  case none
  /// A contact's screen.
  case contact(contactID: String)
  /// An alert's screen.
  case alert(alertID: String)
  /// A ping, shown in the conversation with the contact who sent it.
  case ping(pingID: String, contactID: String)
}
