import Synchronization

/// The state of a child feature a parent presents (a sheet, a popover, a drill-down, an alert),
/// or `nil` while it presents none; `@Presents` for short.
///
/// Each presentation has an identity: a value presented where none was, or where one of another
/// identity was (another case of an enum, another id of an `Identifiable` value), is a new
/// presentation. ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` runs the
/// child and cancels a presentation's effects when it ends: dismissed, set to `nil`, replaced or
/// switched to another case.
///
/// ```swift
/// struct State: Equatable {
///   @Presents var destination: Destination.State?
/// }
/// ```
///
/// Two presentation states are equal when their values are: the identity is the reducer's
/// bookkeeping, not state a test spells out.
@propertyWrapper
public struct PresentationState<State> {
  @usableFromInline var storage: State?
  /// The presentation's identity; `nil` while nothing is presented.
  @usableFromInline var presentationID: PresentationID?
  /// The presentation whose effects may be running: set by the reducer when it starts them,
  /// so that it can cancel them once the presentation changed without it (an ancestor set the
  /// state).
  @usableFromInline var runningID: PresentationID?

  public init(wrappedValue: State?) {
    storage = wrappedValue
    presentationID = wrappedValue == nil ? nil : PresentationID()
  }

  /// The presented value, or `nil`. Setting a value of another identity than the one presented
  /// starts a new presentation.
  public var wrappedValue: State? {
    get { storage }
    set {
      if let newValue {
        if let storage, Self.identity(of: storage) == Self.identity(of: newValue) {
          // The same presentation, changed.
        } else {
          presentationID = PresentationID()
        }
      } else {
        presentationID = nil
      }
      storage = newValue
    }
  }

  /// The presentation state itself (`$destination`), for `ifLet`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// What tells two presented values apart: their type, their case (for an enum) and their id
  /// (for an `Identifiable` value or an enum case's `Identifiable` payload).
  @usableFromInline
  static func identity(of value: State) -> [AnyHashable] {
    var identity: [AnyHashable] = [ObjectIdentifier(type(of: value))]
    let mirror = Mirror(reflecting: value)
    var payload: Any = value
    if mirror.displayStyle == .enum {
      if let child = mirror.children.first {
        identity.append(child.label ?? "")
        payload = child.value
      } else {
        identity.append(String(describing: value))
      }
    }
    if let identifiable = payload as? any Identifiable {
      identity.append(Self.id(of: identifiable))
    }
    return identity
  }

  private static func id<Value: Identifiable>(of value: Value) -> AnyHashable {
    AnyHashable(value.id)
  }

  /// After the child's reducer ran on the value in place: a value of another identity (the
  /// child switched its case) is a new presentation.
  @usableFromInline
  mutating func childDidRun(from before: [AnyHashable]) {
    guard let storage, Self.identity(of: storage) != before else { return }
    presentationID = PresentationID()
  }
}

/// A presented feature's state, as `@Presents var destination: Destination.State?` declares it.
public typealias Presents<State> = PresentationState<State>

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage == rhs.storage
  }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: storage as Any)
  }
}

/// One presentation's identity: a number no other presentation in the process has.
@usableFromInline
struct PresentationID: Hashable, Sendable {
  let rawValue: UInt64

  @usableFromInline
  init() {
    rawValue = presentations.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

private let presentations = Atomic<UInt64>(0)

/// What a presented child does: an action of its own, or asking to be dismissed.
public enum PresentationAction<Action> {
  /// An action of the presented child.
  indirect case presented(Action)
  /// Ends the presentation: the parent sees it, then the state becomes `nil` and the child's
  /// effects are cancelled. A child's effect sends it by calling `dismiss`.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Sendable where Action: Sendable {}
