import Synchronization

/// The state of a child feature a parent presents (a sheet, a popover, a drill-down, an alert),
/// or `nil` while it presents none; `@Presents` for short.
///
/// Each presentation has an identity: a value presented where none was, or where one of another
/// identity was (another case of an enum, another id of an `Identifiable` value), is a new
/// presentation. `ifLet(_:action:destination:)` (on `Reducer`) runs the
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
///
/// The value is stored out of line (copied on write, as an array's elements are), so a
/// feature's state can present a feature of its own type: `@Presents var child: State?`.
@propertyWrapper
public struct PresentationState<State> {
  /// The presented value's box; `nil` while nothing is presented.
  @usableFromInline var box: _PresentationBox<State>?
  /// The presentation's identity; `nil` while nothing is presented.
  @usableFromInline var presentationID: PresentationID?
  /// The presentation whose effects may be running: set by the reducer when it starts them,
  /// so that it can cancel them once the presentation changed without it (an ancestor set the
  /// state).
  @usableFromInline var runningID: PresentationID?

  public init(wrappedValue: State?) {
    box = wrappedValue.map(_PresentationBox.init)
    presentationID = wrappedValue == nil ? nil : PresentationID()
  }

  /// The presented value, or `nil`, with no bookkeeping: written in place while this
  /// presentation state is the only one holding it, else into a box of its own.
  @inlinable
  var storage: State? {
    get { box?.value }
    set {
      guard let newValue else {
        box = nil
        return
      }
      if isKnownUniquelyReferenced(&box) {
        box.unsafelyUnwrapped.value = newValue
      } else {
        box = _PresentationBox(newValue)
      }
    }
  }

  /// Runs `body` on the presented value in place (in a box of its own first, if another
  /// presentation state holds this one's), or returns `nil` when nothing is presented.
  @inlinable
  mutating func modifyPresented<Result>(_ body: (inout State) -> Result) -> Result? {
    guard box != nil else { return nil }
    if !isKnownUniquelyReferenced(&box) {
      box = _PresentationBox(box.unsafelyUnwrapped.value)
    }
    return body(&box.unsafelyUnwrapped.value)
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
  ///
  /// Only an enum is reflected, and only a value of a type known to be `Identifiable` is cast:
  /// a presentation's identity is read each time the parent writes the presented value, and a
  /// mirror and a conformance lookup cost thousands of instructions each.
  @usableFromInline
  static func identity(of value: State) -> [AnyHashable] {
    // The dynamic type: for an existential `State`, `type(of: value)` is the existential.
    let valueType = type(of: value as Any)
    var identity: [AnyHashable] = [ObjectIdentifier(valueType)]
    var payload: Any = value
    var payloadType: Any.Type = valueType
    if isEnumType(valueType) {
      if let child = Mirror(reflecting: value).children.first {
        identity.append(child.label ?? "")
        payload = child.value
        payloadType = type(of: child.value)
      } else {
        identity.append(String(describing: value))
      }
    }
    if isIdentifiable(payloadType), let identifiable = payload as? any Identifiable {
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
    lhs.box === rhs.box || lhs.storage == rhs.storage
  }
}

extension PresentationState: Sendable where State: Sendable {}

/// What tells a presentation state apart in a mirror (a dump names `@Presents var alert` by
/// `alert`, not by its storage, `_alert`).
protocol _PresentationStateProtocol {}
extension PresentationState: _PresentationStateProtocol {}

/// The box a presentation state keeps its value in.
public final class _PresentationBox<State> {
  // No access overlaps another, so the run-time exclusivity check would only cost: a read or
  // write through `PresentationState.storage` is a whole-value copy, never held across a call;
  // `modifyPresented` holds its access across the child's reducer only on a box this
  // presentation state alone holds, while the state itself is held `inout`, so nothing else can
  // reach the box until the access ends.
  @exclusivity(unchecked) @usableFromInline var value: State

  @inlinable
  init(_ value: State) {
    self.value = value
  }
}

// Safe to send where the value is: a box is written only through `PresentationState.storage`
// and `modifyPresented`, in place only when `isKnownUniquelyReferenced` says no other
// presentation state holds it (so no other thread can be reading it), and otherwise into a new
// box: once shared, a box is never written again, as with an array's storage.
extension _PresentationBox: @unchecked Sendable where State: Sendable {}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: storage as Any)
  }
}

/// Whether values of `type` may be `Identifiable`, looked up once per type: the run time's own
/// lookup cost ~4,500 instructions each time for a type that is not. An optional may wrap one
/// (a cast looks through it), so it answers `true` for every optional, and the cast decides.
func isIdentifiable(_ type: Any.Type) -> Bool {
  if isOptionalType(type) { return true }
  let key = ObjectIdentifier(type)
  if let known = identifiableTypes.withLock({ $0[key] }) { return known }
  let conforms = type is any Identifiable.Type
  identifiableTypes.withLock { $0[key] = conforms }
  return conforms
}

private let identifiableTypes = LockedState<[ObjectIdentifier: Bool]>([:])

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
